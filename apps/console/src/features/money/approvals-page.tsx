import { PlusOutlined } from '@ant-design/icons';
import { type ActionType, PageContainer, type ProColumns, ProFormSelect, ProFormText, ProTable } from '@ant-design/pro-components';
import {
  MONEY_REQUEST_STATUSES,
  type MoneyRequestItem,
  type MoneyRequestStatus,
  moneyRequestKindLabel,
  moneyRequestStatusLabel,
  PROPOSED_KINDS,
} from '@portal/contract/console-money';
import { Alert, App, Button, Result, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useRef, useState } from 'react';
import { useOutletContext } from 'react-router';
import { CodeForm } from '../../components/code-form.tsx';
import { callConsole } from '../../lib/http.ts';
import { moneyText } from '../../locales/money.zh-CN.ts';
import { CodeField, fill, newKey } from './code-field.tsx';

const t = moneyText.approvals;
const statusColor: Record<MoneyRequestStatus, string> = { PENDING_APPROVAL: 'orange', APPLIED: 'green', REJECTED: 'default', EXPIRED: 'default' };
const when = (value: string | null) => (value ? dayjs(value).format('YYYY-MM-DD HH:mm') : '—');
type Tab = MoneyRequestStatus | 'ALL';

/** Approvals (four eyes): money requests by status; FINANCE and ADMIN propose, approve (never their own) and reject; every role reads. */
export function ApprovalsPage() {
  const me = useOutletContext<{ actions: string[]; operator: { id: string } }>();
  const { message } = App.useApp();
  const table = useRef<ActionType>(null);
  const [tab, setTab] = useState<Tab>('PENDING_APPROVAL');
  const [threshold, setThreshold] = useState<string | null>(null);
  if (!me.actions.includes('money.read')) return <Result status="403" title={moneyText.denied} />;
  const approves = me.actions.includes('money.approve');
  const proposes = me.actions.includes('money.propose');
  const reload = () => table.current?.reload();
  const columns: ProColumns<MoneyRequestItem>[] = [
    { title: t.createdAt, dataIndex: 'created_at', width: 150, render: (_, row) => when(row.created_at) },
    { title: t.kind, dataIndex: 'kind', width: 100, render: (_, row) => moneyRequestKindLabel[row.kind] },
    { title: t.account, dataIndex: 'account_reference', width: 150, ellipsis: true, copyable: true, render: (_, row) => row.account_reference ?? row.account_id },
    { title: t.amount, dataIndex: 'amount', align: 'right', width: 140, render: (_, row) => <span className="money">{`${row.amount} ${row.currency}`}</span> },
    { title: t.reason, dataIndex: 'reason', ellipsis: true },
    { title: t.status, dataIndex: 'status', width: 90, render: (_, row) => <Tag color={statusColor[row.status]}>{moneyRequestStatusLabel[row.status]}</Tag> },
    { title: t.proposer, dataIndex: 'proposed_by', ellipsis: true, width: 180, render: (_, row) => row.proposed_by?.email ?? '—' },
    {
      title: t.decider,
      dataIndex: 'approved_by',
      ellipsis: true,
      width: 180,
      render: (_, row) =>
        row.approved_by?.email ??
        (row.rejected_by ? (
          <Typography.Text type="secondary">
            {row.rejected_by.email}（{row.rejection_reason}）
          </Typography.Text>
        ) : (
          '—'
        )),
    },
    { title: t.expiresAt, dataIndex: 'expires_at', width: 150, render: (_, row) => (row.status === 'PENDING_APPROVAL' || row.status === 'EXPIRED' ? when(row.expires_at) : '—') },
    {
      title: t.actions,
      valueType: 'option',
      fixed: 'right',
      width: 170,
      render: (_, row) => {
        if (row.status !== 'PENDING_APPROVAL' || !approves) return [];
        const mine = row.proposed_by?.id === me.operator.id;
        return [
          mine ? (
            <Tag key="own">{t.own}</Tag>
          ) : (
            <ApproveRequest key="approve" request={row} onDone={reload} />
          ),
          <RejectRequest key="reject" request={row} withdraw={mine} onDone={reload} />,
        ];
      },
    },
  ];
  return (
    <PageContainer title={t.title}>
      {threshold ? <Alert type="info" showIcon title={fill(t.threshold, { amount: threshold })} style={{ marginBottom: 16 }} /> : null}
      <ProTable<MoneyRequestItem>
        rowKey="id"
        actionRef={table}
        columns={columns}
        cardBordered
        search={false}
        scroll={{ x: 1300 }}
        params={{ tab }}
        pagination={{ defaultPageSize: 20, showSizeChanger: true, pageSizeOptions: [20, 50, 100] }}
        options={{ density: false, setting: false, reload: true }}
        toolbar={{
          menu: {
            type: 'tab',
            activeKey: tab,
            items: [...MONEY_REQUEST_STATUSES, 'ALL' as const].map((key) => ({ key, label: t.tabs[key] })),
            onChange: (key) => setTab(key as Tab),
          },
          actions: proposes ? [<ProposeMoney key="propose" onDone={reload} />] : [],
        }}
        request={async (params) => {
          const page = await callConsole('moneyRequests', { query: { status: tab === 'ALL' ? undefined : tab, page: params.current ?? 1, page_size: params.pageSize ?? 20 } });
          setThreshold(page.threshold);
          return { data: page.items, total: page.total, success: true };
        }}
        onRequestError={(error) => message.error(error.message)}
      />
    </PageContainer>
  );
}

function ProposeMoney({ onDone }: { onDone: () => void }) {
  const { message } = App.useApp();
  const key = useRef(newKey());
  return (
    <CodeForm<{ account_id: string; kind: (typeof PROPOSED_KINDS)[number]; amount: string; currency: 'USD' | 'CNY'; reason: string; totp: string }>
      title={t.proposeTitle}
      width={480}
      initialValues={{ kind: 'RECHARGE', currency: 'USD' }}
      trigger={
        <Button type="primary" icon={<PlusOutlined />}>
          {t.propose}
        </Button>
      }
      afterClose={() => {
        key.current = newKey();
      }}
      onSubmit={async (values) => {
        const answer = await callConsole('proposeMoney', { headers: { 'idempotency-key': key.current }, body: { ...values, account_id: values.account_id.trim() } });
        message.success(answer.status === 'APPLIED' ? t.applied : t.pending);
        onDone();
      }}
    >
      <ProFormText name="account_id" label={t.accountId} extra={t.accountIdHint} rules={[{ required: true, message: '请选择客户' }]} />
      <ProFormSelect name="kind" label={t.kindLabel} options={PROPOSED_KINDS.map((kind) => ({ value: kind, label: moneyRequestKindLabel[kind] }))} rules={[{ required: true }]} />
      <ProFormText name="amount" label={t.amount} fieldProps={{ inputMode: 'decimal' }} rules={[{ required: true, message: '请输入金额' }]} />
      <ProFormSelect name="currency" label={moneyText.deposits.currency} options={['USD', 'CNY'].map((value) => ({ value, label: value }))} rules={[{ required: true }]} />
      <ProFormText name="reason" label={t.reason} rules={[{ required: true, message: '请填写原因' }]} fieldProps={{ maxLength: 200 }} />
      <CodeField />
    </CodeForm>
  );
}

function ApproveRequest({ request, onDone }: { request: MoneyRequestItem; onDone: () => void }) {
  const { message } = App.useApp();
  return (
    <CodeForm<{ totp: string }>
      title={t.approveTitle}
      width={440}
      trigger={
        <Button type="link" size="small">
          {t.approve}
        </Button>
      }
      onSubmit={async (values) => {
        await callConsole('approveMoney', { params: { id: request.id }, body: values });
        message.success(t.approved);
        onDone();
      }}
    >
      <Alert
        type="warning"
        showIcon
        title={fill(t.approveHint, { kind: moneyRequestKindLabel[request.kind], amount: request.amount, currency: request.currency, account: request.account_reference ?? request.account_id })}
        description={`${t.reason}：${request.reason} · ${t.proposer}：${request.proposed_by?.email ?? '—'}`}
        style={{ marginBottom: 16 }}
      />
      <CodeField />
    </CodeForm>
  );
}

function RejectRequest({ request, withdraw, onDone }: { request: MoneyRequestItem; withdraw: boolean; onDone: () => void }) {
  const { message } = App.useApp();
  return (
    <CodeForm<{ reason: string }>
      title={t.rejectTitle}
      width={440}
      trigger={
        <Button type="link" size="small" danger>
          {withdraw ? t.withdraw : t.reject}
        </Button>
      }
      onSubmit={async (values) => {
        await callConsole('rejectMoney', { params: { id: request.id }, body: values });
        message.success(t.rejectedDone);
        onDone();
      }}
    >
      <ProFormText name="reason" label={t.rejectReason} rules={[{ required: true, message: '请填写原因' }]} fieldProps={{ maxLength: 200 }} />
    </CodeForm>
  );
}
