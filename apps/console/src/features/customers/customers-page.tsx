import { PageContainer, type ProColumns, ProTable } from '@ant-design/pro-components';
import type { CustomerItem } from '@portal/contract/console-customers';
import { App } from 'antd';
import { useState } from 'react';
import dayjs from 'dayjs';
import { Link } from 'react-router';
import { callConsole } from '../../lib/http.ts';
import { paths } from '../../lib/paths.ts';
import { customersText } from './customers-text.ts';

const t = customersText.customers;

/** What the wallet holds, the currencies that hold anything (or the first one). */
export const walletText = (wallet: CustomerItem['wallet']) => {
  const held = wallet.filter((figure) => Number(figure.available) !== 0);
  return (held.length > 0 ? held : wallet.slice(0, 1)).map((figure) => `${figure.currency} ${figure.available}`).join(' · ');
};

const columns: ProColumns<CustomerItem>[] = [
  { title: t.keyword, dataIndex: 'keyword', hideInTable: true, fieldProps: { placeholder: t.keywordPlaceholder, allowClear: true } },
  {
    title: t.phone,
    dataIndex: 'phone_masked',
    search: false,
    render: (_, row) => <Link to={paths.customer.getHref(row.account_id)}>{row.phone_masked}</Link>,
  },
  { title: t.realName, dataIndex: 'real_name', search: false, render: (_, row) => row.real_name ?? '—' },
  { title: t.email, dataIndex: 'email', search: false, ellipsis: true, render: (_, row) => row.email ?? '—' },
  { title: t.reference, dataIndex: 'reference', search: false, render: (_, row) => row.reference ?? '—' },
  { title: t.wallet, dataIndex: 'wallet', search: false, render: (_, row) => walletText(row.wallet) },
  { title: t.cards, dataIndex: 'cards', search: false, width: 80 },
  { title: t.createdAt, dataIndex: 'created_at', search: false, width: 170, render: (_, row) => dayjs(row.created_at).format('YYYY-MM-DD HH:mm') },
  {
    title: '',
    valueType: 'option',
    width: 70,
    render: (_, row) => [
      <Link key="open" to={paths.customer.getHref(row.account_id)}>
        {t.open}
      </Link>,
    ],
  },
];

/**
 * The merchant's customers, found by the start of a phone, an e-mail, the verified name or the deposit
 * reference. The server counts at most its cap: beyond, the total reads "1,000+" and the pager stops there.
 */
export function CustomersPage() {
  const { message } = App.useApp();
  const [capped, setCapped] = useState(false);
  return (
    <PageContainer title={t.title}>
      <ProTable<CustomerItem, { keyword?: string }>
        rowKey="account_id"
        columns={columns}
        cardBordered
        scroll={{ x: 960 }}
        search={{ labelWidth: 'auto', defaultCollapsed: false }}
        pagination={{ defaultPageSize: 20, showSizeChanger: true, pageSizeOptions: [20, 50, 100], showTotal: (total) => t.total(total, capped) }}
        options={{ density: false, setting: false, reload: true }}
        request={async (params) => {
          const { current, pageSize, keyword } = params as { current?: number; pageSize?: number; keyword?: string };
          const page = await callConsole('customers', { query: { keyword: keyword?.trim() || undefined, page: current ?? 1, page_size: pageSize ?? 20 } });
          setCapped(page.total_capped);
          return { data: page.items, total: page.total, success: true };
        }}
        onRequestError={(error) => message.error(error.message)}
      />
    </PageContainer>
  );
}
