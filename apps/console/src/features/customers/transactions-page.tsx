import { PageContainer, type ProColumns } from '@ant-design/pro-components';
import { PagedTable } from '../../components/paged-table.tsx';
import { Stacked, useNarrow, WIDE_ONLY } from '../../components/stacked.tsx';
import type { AcrossTransactionItem } from '@portal/contract/card-spending-across';
import { CARD_TRANSACTION_STATUSES, CARD_TRANSACTION_TYPES, cardTransactionStatusLabel, cardTransactionTypeLabel } from '@portal/contract/enums';
import dayjs from 'dayjs';
import { Link, useSearchParams } from 'react-router';
import { callConsole } from '../../lib/http.ts';
import { paths } from '../../lib/paths.ts';
import { customersText } from './customers-text.ts';

const t = customersText.transactions;
type Row = AcrossTransactionItem & { account_id: string };
type Filters = { type?: string; status?: string; date?: [string, string]; account_id?: string; card_id?: string; merchant?: string };

const columns: ProColumns<Row>[] = [
  { title: t.date, dataIndex: 'date', valueType: 'dateRange', hideInTable: true },
  { title: t.time, dataIndex: 'created_at', search: false, width: 160, responsive: WIDE_ONLY, render: (_, row) => dayjs(row.created_at).format('YYYY-MM-DD HH:mm:ss') },
  {
    title: t.type,
    dataIndex: 'type',
    valueType: 'select',
    responsive: WIDE_ONLY,
    valueEnum: Object.fromEntries(CARD_TRANSACTION_TYPES.map((type) => [type, { text: cardTransactionTypeLabel[type] }])),
  },
  {
    title: t.status,
    dataIndex: 'status',
    valueType: 'select',
    responsive: WIDE_ONLY,
    valueEnum: Object.fromEntries(CARD_TRANSACTION_STATUSES.map((status) => [status, { text: cardTransactionStatusLabel[status] }])),
  },
  {
    title: t.merchant,
    dataIndex: 'merchant',
    render: (_, row) => <Stacked main={row.merchant_name ?? '—'} under={`${cardTransactionTypeLabel[row.type]} · ${dayjs(row.created_at).format('MM-DD HH:mm')}`} />,
  },
  {
    title: t.amount,
    dataIndex: 'amount',
    search: false,
    align: 'right',
    render: (_, row) => (
      <Stacked end main={<span style={{ whiteSpace: 'nowrap' }}>{`${row.currency} ${row.amount}`}</span>} under={cardTransactionStatusLabel[row.status]} />
    ),
  },
  { title: t.card, dataIndex: 'card_id', search: false, responsive: WIDE_ONLY, render: (_, row) => `${row.card_nickname}${row.card_last4 ? ` •••• ${row.card_last4}` : ''}` },
  { title: t.customer, dataIndex: 'account_id', responsive: WIDE_ONLY, fieldProps: { placeholder: customersText.cards.customerPlaceholder, allowClear: true }, render: (_, row) => <Link to={paths.customer.getHref(row.account_id)}>{customersText.customers.open}</Link> },
  { title: t.declineReason, dataIndex: 'decline_reason', search: false, ellipsis: true, responsive: WIDE_ONLY, render: (_, row) => row.decline_reason ?? '—' },
];

/** Every customer's card transactions, with the portal's filters (type, status, dates, merchant) and the customer. */
export function TransactionsPage() {
  const [search] = useSearchParams();
  const accountId = search.get('account_id') ?? undefined;
  const narrow = useNarrow();
  return (
    <PageContainer title={t.title}>
      <PagedTable<Row, Filters>
        columns={columns}
        scroll={narrow ? undefined : { x: 1100 }}
        form={{ initialValues: accountId ? { account_id: accountId } : {} }}
        request={async (params) => {
          const { current, pageSize, type, status, date, account_id, merchant } = params as Filters & { current?: number; pageSize?: number };
          const page = await callConsole('transactions', {
            query: {
              type: type || undefined,
              status: status || undefined,
              from: date?.[0] ? dayjs(date[0]).format('YYYY-MM-DD') : undefined,
              to: date?.[1] ? dayjs(date[1]).format('YYYY-MM-DD') : undefined,
              account_id: account_id?.trim() || undefined,
              merchant: merchant?.trim() || undefined,
              page: current ?? 1,
              page_size: pageSize ?? 20,
            } as never,
          });
          return { data: page.items, total: page.total, success: true };
        }}
      />
    </PageContainer>
  );
}
