import { PageContainer, type ProColumns } from '@ant-design/pro-components';
import { PagedTable } from '../../components/paged-table.tsx';
import { Stacked, useNarrow, WIDE_ONLY } from '../../components/stacked.tsx';
import type { CardItem } from '@portal/contract/cards';
import { CARD_STATUSES, cardStatusLabel } from '@portal/contract/enums';
import { Space } from 'antd';
import dayjs from 'dayjs';
import { Link, useSearchParams } from 'react-router';
import { callConsole } from '../../lib/http.ts';
import { paths } from '../../lib/paths.ts';
import { CardStatusTag } from './customer-page.tsx';
import { customersText } from './customers-text.ts';

const t = customersText.cards;
type Row = CardItem & { account_id: string };
type Filters = { keyword?: string; status?: string[]; product_id?: string; account_id?: string };

const columns: ProColumns<Row>[] = [
  { title: t.keyword, dataIndex: 'keyword', hideInTable: true, fieldProps: { placeholder: t.keywordPlaceholder, allowClear: true } },
  {
    title: t.status,
    dataIndex: 'status',
    hideInTable: true,
    valueType: 'select',
    fieldProps: { mode: 'multiple' },
    valueEnum: Object.fromEntries(CARD_STATUSES.map((status) => [status, { text: cardStatusLabel[status] }])),
  },
  {
    title: t.product,
    dataIndex: 'product_id',
    hideInTable: true,
    valueType: 'select',
    fieldProps: { placeholder: t.productPlaceholder, allowClear: true, showSearch: true, optionFilterProp: 'label' },
    // the merchant's products, OFF ones too (their cards are still out there)
    request: async () => (await callConsole('products')).items.map((product) => ({ label: `${product.name}（${product.currency}）`, value: product.id })),
  },
  { title: t.customer, dataIndex: 'account_id', hideInTable: true, fieldProps: { placeholder: t.customerPlaceholder, allowClear: true } },
  {
    title: t.card,
    dataIndex: 'nickname',
    search: false,
    render: (_, card) => (
      <Stacked
        main={`${card.nickname}${card.last4 ? ` •••• ${card.last4}` : ''}`}
        under={
          <Space size={8} wrap>
            <CardStatusTag card={card} />
            <Link to={paths.customer.getHref(card.account_id)}>{t.openCustomer}</Link>
          </Space>
        }
      />
    ),
  },
  { title: t.product, dataIndex: 'product_name', search: false, ellipsis: true, responsive: WIDE_ONLY },
  { title: t.status, dataIndex: 'status_tag', search: false, responsive: WIDE_ONLY, render: (_, card) => <CardStatusTag card={card} /> },
  { title: t.balance, dataIndex: 'balance', search: false, align: 'right', render: (_, card) => <span style={{ whiteSpace: 'nowrap' }}>{`${card.currency} ${card.balance}`}</span> },
  { title: t.holder, dataIndex: 'holder_label', search: false, ellipsis: true, responsive: WIDE_ONLY },
  {
    title: t.customer,
    dataIndex: 'customer',
    search: false,
    responsive: WIDE_ONLY,
    render: (_, card) => <Link to={paths.customer.getHref(card.account_id)}>{customersText.customers.open}</Link>,
  },
  { title: t.createdAt, dataIndex: 'created_at', search: false, width: 160, responsive: WIDE_ONLY, render: (_, card) => dayjs(card.created_at).format('YYYY-MM-DD HH:mm') },
];

/** Every customer's cards, with the portal's filters and the customer; never a full card number. */
export function CardsPage() {
  const [search] = useSearchParams();
  const accountId = search.get('account_id') ?? undefined;
  const narrow = useNarrow();
  return (
    <PageContainer title={t.title}>
      <PagedTable<Row, Filters>
        columns={columns}
        scroll={narrow ? undefined : { x: 1000 }}
        form={{ initialValues: accountId ? { account_id: accountId } : {} }}
        request={async (params) => {
          const { current, pageSize, keyword, status, product_id, account_id } = params as Filters & { current?: number; pageSize?: number };
          const page = await callConsole('cards', {
            query: {
              keyword: keyword?.trim() || undefined,
              status: status && status.length > 0 ? status.join(',') : undefined,
              product_id: product_id?.trim() || undefined,
              account_id: account_id?.trim() || undefined,
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
