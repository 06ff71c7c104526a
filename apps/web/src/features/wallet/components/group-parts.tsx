import type { WalletTransactionItem } from '@portal/contract/wallet';
import { walletRowLabel } from '@portal/contract/wallet-groups';
import { Button, Skeleton } from 'antd';
import { formatDateTime } from '../../../lib/date-time.ts';
import { walletText } from '../../../locales/zh-CN/wallet.ts';
import { GROUP_PARTS_SHOWN, useWalletGroupParts } from '../api/get-wallet-group-parts.ts';
import { TransactionAmount } from './transaction-amount.tsx';
import styles from './group-parts.module.css';

/** What one row of many cards (批量开卡 N 张) stands for: each card's fee and 开卡充值, a line each. */
export function GroupParts({ group }: { group: NonNullable<WalletTransactionItem['group']> }) {
  const parts = useWalletGroupParts(group);
  if (parts.isPending) return <Skeleton active title={false} paragraph={{ rows: 3 }} className={styles.loading} />;
  if (parts.isError)
    return (
      <div className={styles.failed} role="alert">
        {walletText.groupParts.failed}
        <Button size="small" type="link" onClick={() => void parts.refetch()}>
          {walletText.groupParts.retry}
        </Button>
      </div>
    );
  const { items, total } = parts.data;
  return (
    <div className={styles.parts} data-testid="group-parts">
      <ul className={styles.list}>
        {items.map((part) => (
          <li key={part.id} className={styles.part} data-testid="group-part">
            <span className={styles.type}>{walletRowLabel(part)}</span>
            <span className={styles.memo} title={part.memo}>
              {part.memo}
            </span>
            <span className={styles.time}>{formatDateTime(part.created_at, { seconds: true })}</span>
            <TransactionAmount amount={part.amount} className={styles.amount} />
          </li>
        ))}
      </ul>
      {total > GROUP_PARTS_SHOWN ? <p className={styles.more}>{walletText.groupParts.more(total, GROUP_PARTS_SHOWN)}</p> : null}
    </div>
  );
}
