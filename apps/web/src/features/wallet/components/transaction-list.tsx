import type { WalletTransactionItem } from '@portal/contract/wallet';
import { walletRowLabel } from '@portal/contract/wallet-groups';
import { DownOutlined, RightOutlined } from '@ant-design/icons';
import { useState } from 'react';
import { walletText } from '../../../locales/zh-CN/wallet.ts';
import { formatDateTime } from '../../../lib/date-time.ts';
import { formatAmount } from '../../../lib/money-format.ts';
import { GroupParts } from './group-parts.tsx';
import { TransactionAmount } from './transaction-amount.tsx';
import styles from './transaction-list.module.css';

interface TransactionListProps {
  items: WalletTransactionItem[];
  loading: boolean;
  onOpen: (item: WalletTransactionItem) => void;
}

/** The wallet's transactions on narrow screens: a tappable line each, type and amount first. */
export function TransactionList({ items, loading, onOpen }: TransactionListProps) {
  const [opened, setOpened] = useState<string[]>([]);
  const toggle = (id: string) => setOpened((keys) => (keys.includes(id) ? keys.filter((key) => key !== id) : [...keys, id]));
  return (
    <ul className={styles.list} aria-busy={loading}>
      {items.map((item) => (
        <li key={item.id}>
          <button
            type="button"
            className={styles.item}
            onClick={() => (item.group ? toggle(item.id) : onOpen(item))}
            aria-expanded={item.group ? opened.includes(item.id) : undefined}
            data-testid="transaction-row"
          >
            <span className={styles.main}>
              <span className={styles.type} data-testid="transaction-type">
                {walletRowLabel(item)}
              </span>
              <span className={styles.time}>{formatDateTime(item.created_at, { seconds: true })}</span>
            </span>
            <span className={styles.figures}>
              <span>
                <TransactionAmount amount={item.amount} className={styles.amount} />
                <span className={styles.currency}>{item.currency}</span>
              </span>
              <span className={styles.balance}>
                {walletText.balanceAfterShort} <span data-testid="transaction-balance">{formatAmount(item.balance_after)}</span>
              </span>
            </span>
            {item.group && opened.includes(item.id) ? (
              <DownOutlined className={styles.chevron} aria-hidden />
            ) : (
              <RightOutlined className={styles.chevron} aria-hidden />
            )}
          </button>
          {item.group && opened.includes(item.id) ? <GroupParts group={item.group} /> : null}
        </li>
      ))}
    </ul>
  );
}
