import { walletTransactionTypeLabel } from '@portal/contract/enums';
import type { WalletTransactionItem } from '@portal/contract/wallet';
import { RightOutlined } from '@ant-design/icons';
import { walletText } from '../../../locales/zh-CN/wallet.ts';
import { formatDateTime } from '../../../lib/date-time.ts';
import { formatAmount } from '../../../lib/money-format.ts';
import { TransactionAmount } from './transaction-amount.tsx';
import styles from './transaction-list.module.css';

interface TransactionListProps {
  items: WalletTransactionItem[];
  loading: boolean;
  onOpen: (item: WalletTransactionItem) => void;
}

/** The wallet's transactions on narrow screens: a tappable line each, type and amount first. */
export function TransactionList({ items, loading, onOpen }: TransactionListProps) {
  return (
    <ul className={styles.list} aria-busy={loading}>
      {items.map((item) => (
        <li key={item.id}>
          <button type="button" className={styles.item} onClick={() => onOpen(item)} data-testid="transaction-row">
            <span className={styles.main}>
              <span className={styles.type} data-testid="transaction-type">
                {walletTransactionTypeLabel[item.type]}
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
            <RightOutlined className={styles.chevron} aria-hidden />
          </button>
        </li>
      ))}
    </ul>
  );
}
