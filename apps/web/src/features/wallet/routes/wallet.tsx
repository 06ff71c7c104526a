import { Alert, Skeleton } from 'antd';
import { PageFrame } from '../../../components/page-frame.tsx';
import { walletText } from '../../../locales/zh-CN/wallet.ts';
import { useWalletStatusStore } from '../../../stores/wallet-status.ts';
import { useAccountBalance } from '../api/get-account-balance.ts';
import styles from './wallet.module.css';

/** /wallet: the balance of each currency, and why the wallet is frozen when it is. */
export default function Wallet() {
  const balances = useAccountBalance();
  const isWalletFreeze = useWalletStatusStore((state) => state.isWalletFreeze);
  const reason = useWalletStatusStore((state) => state.reason);

  return (
    <PageFrame title={walletText.title}>
      {isWalletFreeze ? (
        <Alert
          className={styles.frozen}
          type="warning"
          showIcon
          title={walletText.frozenTitle}
          description={reason ? `${walletText.frozenReason(reason)}。${walletText.frozenDetail}` : walletText.frozenDetail}
          data-testid="wallet-frozen"
        />
      ) : null}
      {balances.data ? (
        <ul className={styles.balances}>
          {balances.data.map((balance) => (
            <li key={balance.currency} className={styles.balance} data-testid={`balance-${balance.currency}`}>
              <span className={styles.currency}>
                {walletText.currency[balance.currency]} <span className={styles.code}>{balance.currency}</span>
              </span>
              <span className={styles.label}>{walletText.available}</span>
              <span className={styles.amount}>{balance.available}</span>
              <span className={styles.held} title={walletText.anewHint}>
                {walletText.anew} {balance.anew}
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <Skeleton active title={false} paragraph={{ rows: 3 }} />
      )}
    </PageFrame>
  );
}
