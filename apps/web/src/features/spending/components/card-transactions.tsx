import type { CardItem, CardTransactionItem } from '@portal/contract/cards';
import type { DeclineCode, DeclineFixAction } from '@portal/contract/card-spending';
import { cardTransactionStatusLabel, cardTransactionTypeLabel } from '@portal/contract/enums';
import { ExclamationCircleFilled } from '@ant-design/icons';
import { Button, Table, type TableColumnsType } from 'antd';
import type { HTMLAttributes } from 'react';
import { formatDateTime } from '../../../lib/date-time.ts';
import { formatAmount } from '../../../lib/money-format.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { useNarrowScreen } from '../../../lib/use-narrow-screen.ts';
import { cardCommonText } from '../../../locales/zh-CN/card-common.ts';
import { cardDetailsText } from '../../../locales/zh-CN/card-details.ts';
import { cardSpendingText } from '../../../locales/zh-CN/card-spending.ts';
import { useExportCardTransactions } from '../api/export-card-transactions.ts';
import { useCardTransactions } from '../api/get-card-transactions.ts';
import {
  hasTransactionFilters,
  readCardTransactionLocation,
  writeCardTransactionLocation,
} from '../../../domain/cards/lib/card-transaction-filters.ts';
import { ListSection } from '../../../domain/lists/components/list-section.tsx';
import { useListLocation } from '../../../domain/lists/lib/use-list-location.ts';
import { usePageInRange } from '../../../domain/lists/lib/use-page-in-range.ts';
import { ExportButton } from '../../../domain/transactions/components/export-button.tsx';
import { canFix, categoryText, categoryTitle, countryText, declineOf } from '../../../domain/cards/lib/spending-format.ts';
import { CardTransactionFilterBar } from './card-transaction-filter-bar.tsx';
import { useCans } from '../../../domain/team/lib/use-can.ts';
import styles from './card-transactions.module.css';

const text = cardDetailsText.transactions;
const spendingText = cardSpendingText.transactions;

/** What a decline's fix asks of the card's page: a top-up, an unfreeze, or its controls (at the limit the decline names). */
export type DeclineFixHandler = (action: Exclude<DeclineFixAction, 'NONE'>, code: DeclineCode | null) => void;

function TransactionStatus({ item }: { item: CardTransactionItem }) {
  return (
    <span className={`${styles.status} ${styles[item.status]}`} data-testid="transaction-status">
      {cardTransactionStatusLabel[item.status]}
    </span>
  );
}

/** A decline's reason and what to do about it, with the button that does it when the card allows it now. */
function DeclineNote({ item, card, onFix }: { item: CardTransactionItem; card: CardItem; onFix: DeclineFixHandler }) {
  const may = useCans(['cards.fund', 'cards.manage']);
  const decline = declineOf(item);
  if (!decline) return null;
  const { action } = decline;
  // a top-up is funding the card; an unfreeze or a control's change is managing it
  const allowed = action === 'RECHARGE' ? may['cards.fund'] : may['cards.manage'];
  return (
    <div className={styles.decline} data-testid="transaction-decline">
      <ExclamationCircleFilled className={styles.declineIcon} aria-hidden />
      <div className={styles.declineText}>
        <span className={styles.declineReason}>
          {spendingText.declined}：<span data-testid="decline-reason">{decline.reason}</span>
        </span>
        {decline.fix ? (
          <span className={styles.declineFix} data-testid="decline-fix">
            {decline.fix}
          </span>
        ) : null}
      </div>
      {action !== 'NONE' && allowed && canFix(action, card) ? (
        <Button size="small" className={styles.fixButton} onClick={() => onFix(action, item.decline_code ?? null)} data-testid="decline-fix-button">
          {cardSpendingText.fixActions[action]}
        </Button>
      ) : null}
    </div>
  );
}

const place = (item: CardTransactionItem) => [categoryText(item.mcc), countryText(item.country)].filter(Boolean).join(' · ');

/** The codes behind a row's place, for its tooltip: "MCC 7311 · US". */
const placeCodes = (item: CardTransactionItem) => [categoryTitle(item.mcc), item.country].filter(Boolean).join(' · ') || undefined;

/**
 * A card's transactions (消费, 退款, 转入 …) with merchant, category, country, and for a decline its
 * reason and fix; filters by type, status and days and pages kept in the address beside the card's id;
 * 导出 the filtered rows as .xlsx. CARD_TRANSACTION events read the list again (the card's cache).
 */
export function CardTransactions({ card, onFix }: { card: CardItem; onFix: DeclineFixHandler }) {
  const cardId = card.id;
  const narrow = useNarrowScreen();
  const { location: params, update } = useListLocation(readCardTransactionLocation, writeCardTransactionLocation);
  const { filters, page, pageSize } = params;
  const list = useCardTransactions(cardId, params);
  const exporting = useExportCardTransactions(cardId);
  const mayExport = useCans(['cards.export'])['cards.export'];

  const items = list.data?.items ?? [];
  const total = list.data?.total ?? 0;
  const lastPage = usePageInRange(list, page, pageSize, update);
  const filtered = hasTransactionFilters(filters);

  const exportFiltered = () => exporting.mutate(filters, { onSuccess: () => notifySuccess(spendingText.exportDone(total)) });

  const columns: TableColumnsType<CardTransactionItem> = [
    {
      key: 'time',
      title: text.columns.time,
      dataIndex: 'created_at',
      width: 168,
      render: (value: string) => <span className={styles.time}>{formatDateTime(value, { seconds: true })}</span>,
    },
    {
      key: 'type',
      title: text.columns.type,
      dataIndex: 'type',
      width: 88,
      render: (value: CardTransactionItem['type']) => <span data-testid="transaction-type">{cardTransactionTypeLabel[value]}</span>,
    },
    {
      key: 'merchant',
      title: text.columns.merchant,
      dataIndex: 'merchant_name',
      ellipsis: { showTitle: true },
      render: (value: string | null) => <span data-testid="transaction-merchant">{value || cardCommonText.none}</span>,
    },
    {
      key: 'category',
      title: spendingText.columns.category,
      dataIndex: 'mcc',
      width: 112,
      render: (value: string | null) => <span className={styles.secondary} title={categoryTitle(value)} data-testid="transaction-category">
          {categoryText(value) ?? cardCommonText.none}
        </span>,
    },
    {
      key: 'country',
      title: spendingText.columns.country,
      dataIndex: 'country',
      width: 100,
      render: (value: string | null) => <span className={styles.secondary} title={value ?? undefined} data-testid="transaction-country">
          {countryText(value) ?? cardCommonText.none}
        </span>,
    },
    {
      key: 'amount',
      title: text.columns.amount,
      dataIndex: 'amount',
      align: 'right',
      width: 150,
      render: (value: string, item) => (
        <span className={styles.amount} data-testid="transaction-amount">
          {formatAmount(value)} <span className={styles.currency}>{item.currency}</span>
        </span>
      ),
    },
    { key: 'status', title: text.columns.status, width: 88, render: (_: unknown, item) => <TransactionStatus item={item} /> },
  ];
  const declinedKeys = items.filter((item) => declineOf(item) !== null).map((item) => item.id);

  return (
    <ListSection
      titleId="card-transactions-title"
      title={text.title}
      list={list}
      totalText={text.total}
      totalTestId="transaction-total"
      filters={
        <CardTransactionFilterBar
          filters={filters}
          onChange={(next) => update({ filters: next })}
          compact={narrow}
          actions={
            mayExport ? (
              <ExportButton
              hint={spendingText.exportHint}
              label={spendingText.exportButton}
              onClick={exportFiltered}
              pending={exporting.isPending}
              disabled={!list.data || total === 0}
              testId="card-transactions-export"
            />
            ) : null
          }
        />
      }
      states={{
        skeletonRows: 4,
        failed: { title: text.loadFailed, retryText: cardCommonText.retry, testId: 'transactions-error' },
        empty: {
          shown: items.length === 0,
          filtered,
          text: text.empty,
          filteredText: text.emptyFiltered,
          resetText: text.reset,
          onReset: () => update({ filters: {} }),
          className: styles.empty,
        },
        className: styles.body,
      }}
      pager={{ page, lastPage, pageSize, narrow, onChange: update }}
      className={styles.section}
    >
      {narrow ? (
        <ul className={styles.list} aria-busy={list.isPlaceholderData}>
          {items.map((item) => (
            <li key={item.id} className={styles.item} data-testid="transaction-row">
              <div className={styles.itemRow}>
                <span className={styles.main}>
                  <span className={styles.type}>
                    <span data-testid="transaction-type">{cardTransactionTypeLabel[item.type]}</span>
                    {item.merchant_name ? (
                      <span className={styles.merchant} data-testid="transaction-merchant">
                        {' · '}
                        {item.merchant_name}
                      </span>
                    ) : null}
                  </span>
                  {place(item) ? (
                    <span className={styles.place} title={placeCodes(item)}>
                      {place(item)}
                    </span>
                  ) : null}
                  <span className={styles.time}>{formatDateTime(item.created_at, { seconds: true })}</span>
                </span>
                <span className={styles.figures}>
                  <span className={styles.amount} data-testid="transaction-amount">
                    {formatAmount(item.amount)} <span className={styles.currency}>{item.currency}</span>
                  </span>
                  <TransactionStatus item={item} />
                </span>
              </div>
              <DeclineNote item={item} card={card} onFix={onFix} />
            </li>
          ))}
        </ul>
      ) : (
        <Table<CardTransactionItem>
          className={styles.table}
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={items}
          loading={list.isPlaceholderData}
          pagination={false}
          tableLayout="fixed"
          expandable={{
            expandedRowKeys: declinedKeys,
            showExpandColumn: false,
            rowExpandable: (item) => declineOf(item) !== null,
            expandedRowRender: (item) => <DeclineNote item={item} card={card} onFix={onFix} />,
            expandedRowClassName: () => styles.declineRow ?? '',
          }}
          onRow={(item) => ({ 'data-testid': 'transaction-row', className: declineOf(item) ? styles.declinedRow : undefined }) as HTMLAttributes<HTMLElement>}
        />
      )}
    </ListSection>
  );
}
