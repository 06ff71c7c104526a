import type { WalletTransactionItem } from '@portal/contract/wallet';
import { walletRowLabel } from '@portal/contract/wallet-groups';
import { Descriptions, Drawer, Typography } from 'antd';
import { walletText } from '../../../locales/zh-CN/wallet.ts';
import { formatDateTime } from '../../../lib/date-time.ts';
import { directionOf, formatAmount } from '../../../lib/money-format.ts';
import { TransactionAmount } from './transaction-amount.tsx';
import styles from './transaction-detail.module.css';

interface TransactionDetailProps {
  item: WalletTransactionItem | null;
  onClose: () => void;
  /** narrow screens: a sheet from the bottom instead of a panel at the side */
  compact: boolean;
}

const text = walletText.detail;

/**
 * One transaction as the customer can use it: what it was, how much, the balance after, when, the
 * memo, and its 交易编号 (and, for a correction, the one it corrects) ready to copy for a question
 * to support. The ledger's own references and posting ids are internal and not shown.
 */
export function TransactionDetail({ item, onClose, compact }: TransactionDetailProps) {
  return (
    <Drawer
      open={item !== null}
      onClose={onClose}
      title={text.title}
      placement={compact ? 'bottom' : 'right'}
      size={compact ? 'auto' : 460}
      destroyOnHidden
      closable={{ 'aria-label': text.close }}
      classNames={{ section: compact ? styles.sheet : undefined }}
      data-testid="transaction-detail"
    >
      {item ? <DetailBody item={item} /> : null}
    </Drawer>
  );
}

function DetailBody({ item }: { item: WalletTransactionItem }) {
  const direction = directionOf(item.amount);
  const copyable = (value: string) => (
    <Typography.Text className={styles.id} copyable={{ text: value }}>
      {value}
    </Typography.Text>
  );
  return (
    <>
      <div className={styles.summary}>
        <span className={styles.summaryType}>{walletRowLabel(item)}</span>
        <span className={styles.summaryAmount}>
          <TransactionAmount amount={item.amount} />
          <span className={styles.summaryCurrency}>{item.currency}</span>
        </span>
        {direction !== 'none' ? <span className={styles.direction}>{direction === 'in' ? text.incoming : text.outgoing}</span> : null}
      </div>
      <Descriptions
        column={1}
        size="small"
        colon={false}
        classNames={{ label: styles.label, content: styles.content }}
        items={[
          { key: 'type', label: text.type, children: walletRowLabel(item) },
          { key: 'currency', label: text.currency, children: `${item.currency} ${walletText.currencyName[item.currency]}` },
          { key: 'balance', label: text.balanceAfter, children: <span className={styles.number}>{formatAmount(item.balance_after)}</span> },
          { key: 'time', label: text.time, children: <span className={styles.number}>{formatDateTime(item.created_at, { seconds: true })}</span> },
          { key: 'transaction', label: text.transactionId, children: copyable(item.transaction_id) },
          ...(item.reverses ? [{ key: 'reverses', label: text.reverses, children: copyable(item.reverses) }] : []),
          { key: 'memo', label: text.memo, children: item.memo || text.none },
        ]}
      />
    </>
  );
}
