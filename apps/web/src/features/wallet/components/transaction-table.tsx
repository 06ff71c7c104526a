import type { WalletTransactionItem } from '@portal/contract/wallet';
import { walletRowLabel } from '@portal/contract/wallet-groups';
import { DownOutlined, RightOutlined } from '@ant-design/icons';
import { Table, type TableColumnsType } from 'antd';
import { type HTMLAttributes, useState } from 'react';
import { detailsColumn } from '../../../domain/lists/components/details-column.tsx';
import { walletText } from '../../../locales/zh-CN/wallet.ts';
import { formatDateTime } from '../../../lib/date-time.ts';
import { formatAmount } from '../../../lib/money-format.ts';
import { GroupParts } from './group-parts.tsx';
import { TransactionAmount } from './transaction-amount.tsx';
import styles from './transaction-table.module.css';

interface TransactionTableProps {
  items: WalletTransactionItem[];
  loading: boolean;
  onOpen: (item: WalletTransactionItem) => void;
}

/** The wallet's transactions on wide screens: one row each, a click opens its detail; a row of many cards opens to its parts. */
export function TransactionTable({ items, loading, onOpen }: TransactionTableProps) {
  const [opened, setOpened] = useState<string[]>([]);
  const toggle = (id: string) => setOpened((keys) => (keys.includes(id) ? keys.filter((key) => key !== id) : [...keys, id]));
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
      width: 140,
      render: (_: WalletTransactionItem['type'], item) => (
        <span className={styles.type}>
          {item.group ? opened.includes(item.id) ? <DownOutlined className={styles.caret} aria-hidden /> : <RightOutlined className={styles.caret} aria-hidden /> : null}
          <span data-testid="transaction-type">{walletRowLabel(item)}</span>
        </span>
      ),
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
      expandable={{
        expandedRowKeys: opened,
        rowExpandable: (item) => item.group !== null,
        expandedRowRender: (item) => (item.group ? <GroupParts group={item.group} /> : null),
        showExpandColumn: false,
      }}
      onRow={(item) =>
        // antd passes these to the <tr>; the test id is not one of its typed attributes
        ({
          onClick: () => (item.group ? toggle(item.id) : onOpen(item)),
          className: styles.row,
          'data-testid': 'transaction-row',
          'aria-expanded': item.group ? opened.includes(item.id) : undefined,
        }) as HTMLAttributes<HTMLElement>
      }
    />
  );
}
