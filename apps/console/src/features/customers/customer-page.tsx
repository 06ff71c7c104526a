import { ModalForm, PageContainer, ProCard, ProFormText, ProFormTextArea } from '@ant-design/pro-components';
import type { CardItem } from '@portal/contract/cards';
import { frozenByLabel } from '@portal/contract/cards';
import type { ConsoleMe } from '@portal/contract/console';
import type { CustomerDetail } from '@portal/contract/console-customers';
import { DEPOSIT_STATUS_LABELS } from '@portal/contract/funding';
import { cardStatusLabel, loginMethodLabel, loginResultLabel, ROLE_LABELS, walletTransactionTypeLabel } from '@portal/contract/enums';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Descriptions, Result, Skeleton, Space, Table, type TableColumnsType, Tabs, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { Link, useOutletContext, useParams } from 'react-router';
import { Stacked, useNarrow, WIDE_ONLY } from '../../components/stacked.tsx';
import { callConsole } from '../../lib/http.ts';
import { paths } from '../../lib/paths.ts';
import { text } from '../../locales/zh-CN.ts';
import styles from './customer-page.module.css';
import { customersText } from './customers-text.ts';
import { StatusDialog } from './status-dialog.tsx';

const t = customersText.customer;
const at = (value: string | null) => (value ? dayjs(value).format('YYYY-MM-DD HH:mm') : '—');
const customerKey = (id: string) => ['customer', id] as const;
const cardName = (card: Pick<CardItem, 'nickname' | 'last4'>) => `${card.nickname}${card.last4 ? ` •••• ${card.last4}` : ''}`;

/** A card's status as the console shows it: who froze it, and why. */
export function CardStatusTag({ card }: { card: Pick<CardItem, 'status' | 'frozen_by'> }) {
  const color = card.status === 'NORMAL' ? 'green' : card.status === 'FREEZE' || card.status === 'FREEZING' ? 'blue' : card.status === 'FAIL' || card.status === 'DELETE' ? 'default' : 'gold';
  return (
    <Tag color={color}>
      {cardStatusLabel[card.status]}
      {card.frozen_by && (card.status === 'FREEZE' || card.status === 'FREEZING') ? `（${frozenByLabel[card.frozen_by]}）` : ''}
    </Tag>
  );
}

/** One customer: their details, wallet, cards, members, verification, sign-ins, deposits and messages, and what the operator's role may do to them. */
export function CustomerPage() {
  const { id = '' } = useParams();
  const me = useOutletContext<ConsoleMe>();
  const customer = useQuery({ queryKey: customerKey(id), queryFn: () => callConsole('customer', { params: { id } }) });
  return (
    <PageContainer
      title={customer.data ? (customer.data.customer.real_name ?? customer.data.customer.phone_masked) : customersText.customers.title}
      onBack={() => history.back()}
      breadcrumb={{ items: [{ title: <Link to={paths.customers.getHref()}>{t.back}</Link> }] }}
      extra={customer.data ? <Actions detail={customer.data} actions={me.actions} /> : null}
    >
      {customer.isPending ? <Skeleton active paragraph={{ rows: 10 }} /> : null}
      {customer.isError ? (
        <Result
          status="warning"
          title={customer.error.message}
          extra={
            <Button type="primary" onClick={() => customer.refetch()}>
              {text.common.retry}
            </Button>
          }
        />
      ) : null}
      {customer.data ? <Detail detail={customer.data} actions={me.actions} /> : null}
    </PageContainer>
  );
}

function Actions({ detail, actions }: { detail: CustomerDetail; actions: string[] }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const accountId = detail.customer.account_id;
  const frozen = detail.wallet.status.status === 'BALANCE_STATUS_FROZEN';
  const buttons = [];
  if (actions.includes('customers.message')) {
    buttons.push(
      <ModalForm<{ title: string; content: string }>
        key="message"
        title={t.message}
        width={520}
        trigger={<Button>{t.message}</Button>}
        modalProps={{ destroyOnHidden: true }}
        onFinish={async (values) => {
          try {
            await callConsole('messageCustomer', { params: { id: accountId }, body: values });
          } catch (error) {
            message.error(error instanceof Error ? error.message : text.common.unexpected);
            return false;
          }
          message.success(t.messageSent);
          await queryClient.invalidateQueries({ queryKey: customerKey(accountId) });
          return true;
        }}
      >
        <ProFormText name="title" label={t.messageTitle} rules={[{ required: true, whitespace: true, message: '请填写标题' }, { max: 100, message: '标题最多100个字符' }]} />
        <ProFormTextArea
          name="content"
          label={t.messageContent}
          rules={[{ required: true, whitespace: true, message: '请填写内容' }, { max: 2000, message: '内容最多2000个字符' }]}
          fieldProps={{ rows: 5, maxLength: 2000, showCount: true }}
        />
      </ModalForm>,
    );
  }
  if (actions.includes('customers.freeze')) {
    buttons.push(
      <StatusDialog
        key="wallet"
        title={frozen ? t.unfreezeWallet : t.freezeWallet}
        freezing={!frozen}
        trigger={<Button danger={!frozen}>{frozen ? t.unfreezeWallet : t.freezeWallet}</Button>}
        onSubmit={async (values) => {
          const action = frozen ? 'UNFREEZE' : 'FREEZE';
          await callConsole('customerWalletStatus', { params: { id: accountId }, body: { action, reason: values.reason ?? '', totp: values.totp } as never });
          message.success(frozen ? t.unfrozen : t.frozen);
          await queryClient.invalidateQueries({ queryKey: customerKey(accountId) });
        }}
      />,
    );
  }
  return <Space wrap>{buttons}</Space>;
}

function Detail({ detail, actions }: { detail: CustomerDetail; actions: string[] }) {
  const c = detail.customer;
  const frozen = detail.wallet.status.status === 'BALANCE_STATUS_FROZEN';
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="customer">
      <ProCard title={t.basics} variant="outlined" headerBordered>
        <Descriptions column={{ xs: 1, sm: 2, lg: 3 }} size="small">
          <Descriptions.Item label={t.accountName}>{c.account_name || '—'}</Descriptions.Item>
          <Descriptions.Item label={customersText.customers.phone}>{c.phone_masked}</Descriptions.Item>
          <Descriptions.Item label={customersText.customers.email}>{c.email ?? '—'}</Descriptions.Item>
          <Descriptions.Item label={customersText.customers.realName}>{c.real_name ?? t.notVerified}</Descriptions.Item>
          <Descriptions.Item label={customersText.customers.reference}>{c.reference ?? '—'}</Descriptions.Item>
          <Descriptions.Item label={customersText.customers.createdAt}>{at(c.created_at)}</Descriptions.Item>
        </Descriptions>
      </ProCard>
      <ProCard
        title={t.wallet}
        variant="outlined"
        headerBordered
        extra={
          <Space>
            <Tag color={frozen ? 'red' : 'green'} data-testid="wallet-status">
              {frozen ? t.walletFrozen : t.walletAvailable}
            </Tag>
            {frozen ? <Typography.Text type="secondary">{detail.wallet.status.reason}</Typography.Text> : null}
          </Space>
        }
      >
        <Descriptions column={{ xs: 1, sm: 2, lg: 4 }} size="small">
          {detail.wallet.balances.map((balance) => (
            <Descriptions.Item key={balance.currency} label={balance.currency}>
              {t.available} {balance.available}
              {Number(balance.anew) !== 0 ? ` · ${t.held} ${balance.anew}` : ''}
            </Descriptions.Item>
          ))}
        </Descriptions>
        <Typography.Title level={5}>{t.recent}</Typography.Title>
        <RecentTable
          width={640}
          rows={detail.wallet.recent}
          columns={[
            { title: t.time, dataIndex: 'created_at', width: 150, responsive: WIDE_ONLY, render: (value: string) => at(value) },
            {
              title: t.type,
              dataIndex: 'type',
              render: (value: keyof typeof walletTransactionTypeLabel, row) => <Stacked main={walletTransactionTypeLabel[value] ?? value} under={at(row.created_at)} />,
            },
            { title: t.amount, dataIndex: 'amount', align: 'right', render: (value: string, row) => <span className={styles.nowrap}>{`${row.currency} ${value}`}</span> },
            { title: t.balanceAfter, dataIndex: 'balance_after', align: 'right', responsive: WIDE_ONLY },
            { title: t.memo, dataIndex: 'memo', ellipsis: true, responsive: WIDE_ONLY },
          ]}
        />
      </ProCard>
      <ProCard title={t.cards} variant="outlined" headerBordered extra={<Link to={paths.cards.getHref(`?account_id=${c.account_id}`)}>{customersText.cards.title}</Link>}>
        <CardsTable cards={detail.cards} accountId={c.account_id} mayFreeze={actions.includes('customers.freeze')} />
      </ProCard>
      <ProCard variant="outlined">
        <Tabs
          items={[
            {
              key: 'members',
              label: t.members,
              children: (
                <RecentTable
                  width={560}
                  rows={detail.members}
                  columns={[
                    { title: customersText.customers.phone, dataIndex: 'phone_masked' },
                    { title: customersText.customers.email, dataIndex: 'email', responsive: WIDE_ONLY, render: (value: string | null) => value ?? '—' },
                    { title: t.role, dataIndex: 'role', render: (value: keyof typeof ROLE_LABELS) => ROLE_LABELS[value] },
                    { title: t.joinedAt, dataIndex: 'joined_at', responsive: WIDE_ONLY, render: (value: string) => at(value) },
                  ]}
                />
              ),
            },
            {
              key: 'verification',
              label: t.verification,
              children: (
                <Descriptions column={1} size="small">
                  <Descriptions.Item label={customersText.customers.realName}>{detail.verification.basic?.real_name ?? t.notVerified}</Descriptions.Item>
                  <Descriptions.Item label={t.idNumber}>{detail.verification.basic?.id_number_masked ?? '—'}</Descriptions.Item>
                  <Descriptions.Item label={t.latinName}>{detail.verification.secondary?.latin_name ?? '—'}</Descriptions.Item>
                  <Descriptions.Item label={t.website}>{detail.verification.secondary?.website ?? '—'}</Descriptions.Item>
                </Descriptions>
              ),
            },
            {
              key: 'sign-ins',
              label: t.signIns,
              children: (
                <RecentTable
                  width={560}
                  rows={detail.sign_ins}
                  columns={[
                    { title: t.time, dataIndex: 'at', render: (value: string) => at(value) },
                    { title: t.method, dataIndex: 'method', render: (value: keyof typeof loginMethodLabel) => loginMethodLabel[value] },
                    { title: t.result, dataIndex: 'result', render: (value: keyof typeof loginResultLabel) => loginResultLabel[value] },
                    { title: t.device, dataIndex: 'device', responsive: WIDE_ONLY },
                    { title: t.ip, dataIndex: 'ip', responsive: WIDE_ONLY },
                  ]}
                />
              ),
            },
            {
              key: 'deposits',
              label: t.deposits,
              children: (
                <RecentTable
                  width={560}
                  rows={detail.deposits}
                  columns={[
                    { title: t.time, dataIndex: 'created_at', render: (value: string) => at(value) },
                    { title: t.amount, dataIndex: 'amount', render: (value: string, row) => `${row.currency} ${value}` },
                    { title: t.payer, dataIndex: 'payer_name', responsive: WIDE_ONLY },
                    { title: t.status, dataIndex: 'status', render: (value: keyof typeof DEPOSIT_STATUS_LABELS) => DEPOSIT_STATUS_LABELS[value] ?? value },
                  ]}
                />
              ),
            },
            {
              key: 'messages',
              label: t.messages,
              children: (
                <RecentTable
                  width={480}
                  rows={detail.messages}
                  columns={[
                    { title: t.time, dataIndex: 'created_at', width: 150, render: (value: string) => at(value) },
                    { title: t.title, dataIndex: 'title', ellipsis: true },
                    { title: t.status, dataIndex: 'is_read', width: 80, render: (value: boolean) => (value ? t.read : t.unread) },
                  ]}
                />
              ),
            },
          ]}
        />
      </ProCard>
    </Space>
  );
}

function CardsTable({ cards, accountId, mayFreeze }: { cards: CardItem[]; accountId: string; mayFreeze: boolean }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  /** 冻结 (or 解冻 of the platform's freeze) with the reason the customer sees, where the card can take it. */
  const act = (card: CardItem) => {
    if (!mayFreeze) return null;
    const byPlatform = card.frozen_by === 'OPERATOR' && (card.status === 'FREEZE' || card.status === 'FREEZING');
    if (!byPlatform && !['NORMAL', 'FREEZE', 'UNFREEZING'].includes(card.status)) return null;
    return (
      <StatusDialog
        title={`${byPlatform ? t.unfreezeCard : t.freezeCard}：${cardName(card)}`}
        freezing={!byPlatform}
        trigger={
          <Button size="small" danger={!byPlatform} data-testid={`card-${card.id}-${byPlatform ? 'unfreeze' : 'freeze'}`}>
            {byPlatform ? t.unfreezeCard : t.freezeCard}
          </Button>
        }
        onSubmit={async (values) => {
          const action = byPlatform ? 'UNFREEZE' : 'FREEZE';
          const after = await callConsole('cardStatus', { params: { id: card.id }, body: { action, reason: values.reason ?? '', totp: values.totp } as never });
          message.success(`${cardName(after)} ${cardStatusLabel[after.status]}`);
          await queryClient.invalidateQueries({ queryKey: customerKey(accountId) });
        }}
      />
    );
  };
  return (
    <RecentTable
      width={720}
      rows={cards}
      columns={[
        { title: t.card, dataIndex: 'nickname', render: (_: unknown, card: CardItem) => <Stacked main={cardName(card)} under={<CardStatusTag card={card} />} /> },
        { title: t.status, dataIndex: 'status', responsive: WIDE_ONLY, render: (_: unknown, card: CardItem) => <CardStatusTag card={card} /> },
        {
          title: t.balance,
          dataIndex: 'balance',
          align: 'right',
          render: (value: string, card: CardItem) => <Stacked end main={<span className={styles.nowrap}>{`${card.currency} ${value}`}</span>} under={act(card)} />,
        },
        { title: t.statusReason, dataIndex: 'status_reason', ellipsis: true, responsive: WIDE_ONLY, render: (value: string | null) => value ?? '—' },
        ...(mayFreeze ? [{ title: '', key: 'act', width: 90, responsive: WIDE_ONLY, render: (_: unknown, card: CardItem) => act(card) }] : []),
      ]}
    />
  );
}

/**
 * One of the customer's recent lists: small and unpaged; on a phone it keeps the columns that say what each
 * row is and fits the screen, on a wider one too narrow for every column it scrolls sideways.
 */
function RecentTable<T extends { id: string }>({ rows, columns, width }: { rows: T[]; columns: TableColumnsType<T>; width: number }) {
  const narrow = useNarrow();
  return (
    <Table<T>
      size="small"
      rowKey="id"
      pagination={false}
      scroll={narrow ? undefined : { x: width }}
      dataSource={rows}
      locale={{ emptyText: t.none }}
      columns={columns}
    />
  );
}
