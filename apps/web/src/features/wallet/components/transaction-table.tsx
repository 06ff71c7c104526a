import { walletTransactionTypeLabel } from '@portal/contract/enums';
import type { WalletTransactionItem } from '@portal/contract/wallet';
import { Table, type TableColumnsType } from 'antd';
import type { HTMLAttributes } from 'react';
import { detailsColumn } from '../../../domain/lists/components/details-column.tsx';
import { walletText } from '../../../locales/zh-CN/wallet.ts';
import { formatDateTime } from '../../../lib/date-time.ts';
import { formatAmount } from '../../../lib/money-format.ts';
import { TransactionAmount } from './transaction-amount.tsx';
import styles from './transaction-table.module.css';

interface TransactionTableProps {
  items: WalletTransactionItem[];
  loading: boolean;
  onOpen: (item: WalletTransactionItem) => void;
}

/** The wallet's transactions on wide screens: one row each, a click opens its detail. */
export function TransactionTable({ items, loading, onOpen }: TransactionTableProps) {
  const columns: TableColumnsType<WalletTransactionItem> = [
    {
      key: 'time',
      title: walletText.columns.time,
      dataIndex: 'created_at',
      width: 190,
      render: (value: string) => <span className={styles.time}>{formatDateTime(value, { seconds: true })}</span>,
    },
    {
      key: 'type',
      title: walletText.columns.type,
      dataIndex: 'type',
      width: 120,
      render: (value: WalletTransactionItem['type']) => <span data-testid="transaction-type">{walletTransactionTypeLabel[value]}</span>,
    },
    { key: 'currency', title: walletText.columns.currency, dataIndex: 'currency', width: 80 },
    {
      key: 'amount',
      title: walletText.columns.amount,
      dataIndex: 'amount',
      align: 'right',
      width: 150,
      render: (value: string) => <TransactionAmount amount={value} />,
    },
    {
      key: 'balance',
      title: walletText.columns.balanceAfter,
      dataIndex: 'balance_after',
      align: 'right',
      width: 150,
      render: (value: string) => (
        <span className={styles.balance} data-testid="transaction-balance">
          {formatAmount(value)}
        </span>
      ),
    },
    {
      key: 'memo',
      title: walletText.columns.memo,
      dataIndex: 'memo',
      ellipsis: true,
      render: (value: string) => <span className={styles.memo}>{value || walletText.detail.none}</span>,
    },
    detailsColumn({ title: walletText.columns.action, label: walletText.details, width: 80, onOpen }),
  ];

  return (
    <Table<WalletTransactionItem>
      className={styles.table}
      rowKey="id"
      size="middle"
      columns={columns}
      dataSource={items}
      loading={loading}
      pagination={false}
      tableLayout="fixed"
      onRow={(item) =>
        // antd passes these to the <tr>; the test id is not one of its typed attributes
        ({ onClick: () => onOpen(item), className: styles.row, 'data-testid': 'transaction-row' }) as HTMLAttributes<HTMLElement>
      }
    />
  );
}
