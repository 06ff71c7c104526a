import { PageContainer, type ProColumns, ProTable } from '@ant-design/pro-components';
import type { ConsoleProduct } from '@portal/contract/console-admin';
import { formatAmount } from '@portal/contract/money-format';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Tag } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useOutletContext } from 'react-router';
import { text } from '../../locales/zh-CN.ts';
import { adminText } from '../../locales/zh-CN-admin.ts';
import { productsQuery } from './product-queries.ts';
import { ProductCreateDrawer } from './product-create-drawer.tsx';
import { ProductDrawer } from './product-drawer.tsx';
import { feeRuleText } from './product-fees.ts';

const t = adminText.products;

/** The merchant's card products, their fees and limits; an ADMIN adds them and changes them (for cards opened afterwards). */
export function ProductsPage() {
  const me = useOutletContext<{ actions: string[] }>();
  const mayEdit = me.actions.includes('products.write');
  const products = useQuery(productsQuery);
  const [open, setOpen] = useState<ConsoleProduct | null>(null);

  const columns: ProColumns<ConsoleProduct>[] = [
    { title: t.name, dataIndex: 'name', fixed: 'left', width: 140 },
    { title: t.brand, dataIndex: 'bin', width: 150, render: (_, row) => `${row.brand} / ${row.bin}` },
    { title: t.currency, dataIndex: 'currency', width: 70 },
    { title: t.openFee, dataIndex: 'open_fee', width: 90, align: 'right', render: (_, row) => formatAmount(row.open_fee) },
    { title: t.topupFee, dataIndex: 'topup_fee_rate', width: 260, render: (_, row) => feeRuleText(row) },
    { title: t.firstLoad, dataIndex: 'min_first_load', width: 110, align: 'right', render: (_, row) => formatAmount(row.min_first_load) },
    { title: t.maxBalance, dataIndex: 'max_balance', width: 120, align: 'right', render: (_, row) => formatAmount(row.max_balance) },
    { title: t.perAccount, dataIndex: 'per_account_limit', width: 130, align: 'right' },
    {
      title: t.status,
      dataIndex: 'status',
      width: 80,
      render: (_, row) => <Tag color={row.status === 'ON' ? 'green' : 'default'}>{row.status === 'ON' ? t.on : t.off}</Tag>,
    },
    { title: t.updatedAt, dataIndex: 'updated_at', width: 150, render: (_, row) => dayjs(row.updated_at).format('YYYY-MM-DD HH:mm') },
    {
      title: t.actions,
      key: 'actions',
      fixed: 'right',
      width: 110,
      render: (_, row) => (
        <Button type="link" size="small" onClick={() => setOpen(row)} aria-label={`${mayEdit ? t.edit : t.view} ${row.name}`}>
          {mayEdit ? t.edit : t.view}
        </Button>
      ),
    },
  ];

  return (
    <PageContainer title={t.title}>
      <Alert type="info" showIcon title={t.newCardsOnly} style={{ marginBottom: 16 }} data-testid="new-cards-only" />
      {mayEdit ? null : <Alert type="warning" showIcon title={t.readOnly} style={{ marginBottom: 16 }} />}
      <ProTable<ConsoleProduct>
        rowKey="id"
        columns={columns}
        cardBordered
        search={false}
        scroll={{ x: 1300 }}
        pagination={false}
        loading={products.isPending}
        dataSource={products.data?.items ?? []}
        options={{ density: false, setting: false, reload: () => products.refetch() }}
        locale={{ emptyText: products.isError ? products.error.message : text.common.empty }}
        toolBarRender={() => [
          ...(mayEdit ? [<ProductCreateDrawer key="create" />] : []),
          ...(products.isError ? [<Button key="retry" onClick={() => products.refetch()}>{text.common.retry}</Button>] : []),
        ]}
      />
      {open ? <ProductDrawer product={open} mayEdit={mayEdit} onClose={() => setOpen(null)} /> : null}
    </PageContainer>
  );
}
