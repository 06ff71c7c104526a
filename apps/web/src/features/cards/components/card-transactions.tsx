import {
  CARD_TRANSACTION_STATUSES,
  CARD_TRANSACTION_TYPES,
  cardTransactionStatusLabel,
  cardTransactionTypeLabel,
} from '@portal/contract/enums';
import type { CardTransactionItem } from '@portal/contract/cards';
import { Button, Empty, Pagination, Result, Select, Skeleton, Table, type TableColumnsType, Tooltip } from 'antd';
import { type HTMLAttributes, useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { formatDateTime } from '../../../lib/date-time.ts';
import { formatAmount } from '../../../lib/money-format.ts';
import { useNarrowScreen } from '../../../lib/use-narrow-screen.ts';
import { cardCommonText } from '../../../locales/zh-CN/card-common.ts';
import { cardDetailsText } from '../../../locales/zh-CN/card-details.ts';
import { useCardTransactions } from '../api/get-card-transactions.ts';
import {
  type CardTransactionFilters,
  hasTransactionFilters,
  readCardTransactionLocation,
  writeCardTransactionLocation,
} from '../lib/card-transaction-filters.ts';
import { PAGE_SIZES } from '../lib/page-location.ts';
import styles from './card-transactions.module.css';

const text = cardDetailsText.transactions;
const typeOptions = CARD_TRANSACTION_TYPES.map((type) => ({ value: type, label: cardTransactionTypeLabel[type] }));
const statusOptions = CARD_TRANSACTION_STATUSES.map((status) => ({ value: status, label: cardTransactionStatusLabel[status] }));

function TransactionStatus({ item }: { item: CardTransactionItem }) {
  const tag = (
    <span className={`${styles.status} ${styles[item.status]}`} data-testid="transaction-status">
      {cardTransactionStatusLabel[item.status]}
    </span>
  );
  return item.status === 'FAIL' && item.decline_reason ? <Tooltip title={item.decline_reason}>{tag}</Tooltip> : tag;
}

/** A card's transactions (转入, 转出, 消费 …) with type and status filters and pages kept in the address beside the card's id. */
export function CardTransactions({ cardId }: { cardId: string }) {
  const narrow = useNarrowScreen();
  const [search, setSearch] = useSearchParams();
  const params = readCardTransactionLocation(search);
  const { filters, page, pageSize } = params;
  const list = useCardTransactions(cardId, params);
  const update = useCallback(
    (change: { filters?: CardTransactionFilters; page?: number; pageSize?: number }) =>
      setSearch((previous) => writeCardTransactionLocation(previous, change), { replace: true, preventScrollReset: true }),
    [setSearch],
  );

  const items = list.data?.items ?? [];
  const total = list.data?.total ?? 0;
  const lastPage = Math.max(1, Math.ceil(total / pageSize));
  const filtered = hasTransactionFilters(filters);

  const columns: TableColumnsType<CardTransactionItem> = [
    { key: 'time', title: text.columns.time, dataIndex: 'created_at', width: 170, render: (value: string) => <span className={styles.time}>{formatDateTime(value, { seconds: true })}</span> },
    { key: 'type', title: text.columns.type, dataIndex: 'type', width: 110, render: (value: CardTransactionItem['type']) => <span data-testid="transaction-type">{cardTransactionTypeLabel[value]}</span> },
    { key: 'merchant', title: text.columns.merchant, dataIndex: 'merchant_name', ellipsis: true, render: (value: string | null) => value || cardCommonText.none },
    {
      key: 'amount',
      title: text.columns.amount,
      dataIndex: 'amount',
      align: 'right',
      width: 160,
      render: (value: string, item) => (
        <span className={styles.amount}>
          {formatAmount(value)} <span className={styles.currency}>{item.currency}</span>
        </span>
      ),
    },
    { key: 'status', title: text.columns.status, width: 100, render: (_: unknown, item) => <TransactionStatus item={item} /> },
  ];

  return (
    <section className={styles.section} aria-labelledby="card-transactions-title">
      <div className={styles.head}>
        <h2 id="card-transactions-title" className={styles.title}>
          {text.title}
        </h2>
        {list.data ? <span className={styles.count}>{text.total(total)}</span> : null}
      </div>
      {filtered || total > 0 ? (
        <fieldset className={styles.filters} aria-label={text.filters}>
          <Select
            className={styles.filter}
            aria-label={text.type}
            placeholder={text.allTypes}
            allowClear
            value={filters.type ?? null}
            options={typeOptions}
            onChange={(value) => update({ filters: { ...filters, type: value ?? undefined } })}
          />
          <Select
            className={styles.filter}
            aria-label={text.status}
            placeholder={text.allStatuses}
            allowClear
            value={filters.status ?? null}
            options={statusOptions}
            onChange={(value) => update({ filters: { ...filters, status: value ?? undefined } })}
          />
          <Button onClick={() => update({ filters: {} })} disabled={!filtered}>
            {text.reset}
          </Button>
        </fieldset>
      ) : null}

      <div className={styles.body}>
        {list.isPending ? (
          <Skeleton active title={false} paragraph={{ rows: 4 }} />
        ) : list.isError && !list.data ? (
          <Result
            status="warning"
            title={text.loadFailed}
            extra={
              <Button type="primary" onClick={() => void list.refetch()}>
                {cardCommonText.retry}
              </Button>
            }
          />
        ) : items.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={filtered ? text.emptyFiltered : text.empty} className={styles.empty} data-testid="transactions-empty" />
        ) : narrow ? (
          <ul className={styles.list} aria-busy={list.isPlaceholderData}>
            {items.map((item) => (
              <li key={item.id} className={styles.item} data-testid="transaction-row">
                <span className={styles.main}>
                  <span className={styles.type} data-testid="transaction-type">
                    {cardTransactionTypeLabel[item.type]}
                    {item.merchant_name ? <span className={styles.merchant}> · {item.merchant_name}</span> : null}
                  </span>
                  <span className={styles.time}>{formatDateTime(item.created_at, { seconds: true })}</span>
                </span>
                <span className={styles.figures}>
                  <span className={styles.amount}>
                    {formatAmount(item.amount)} <span className={styles.currency}>{item.currency}</span>
                  </span>
                  <TransactionStatus item={item} />
                </span>
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
            onRow={() => ({ 'data-testid': 'transaction-row' }) as HTMLAttributes<HTMLElement>}
          />
        )}
      </div>

      {total > PAGE_SIZES[0] ? (
        <div className={styles.pager}>
          <Pagination
            current={Math.min(page, lastPage)}
            pageSize={pageSize}
            total={total}
            pageSizeOptions={PAGE_SIZES.map(String)}
            showSizeChanger={!narrow}
            showTotal={narrow ? undefined : text.total}
            simple={narrow}
            onChange={(next, size) => (size !== pageSize ? update({ pageSize: size }) : update({ page: next }))}
          />
        </div>
      ) : null}
    </section>
  );
}
