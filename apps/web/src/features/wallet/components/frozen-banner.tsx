import { Alert } from 'antd';
import { walletText } from '../../../locales/zh-CN/wallet.ts';
import { useWalletStatusStore } from '../../../stores/wallet-status.ts';
import styles from './frozen-banner.module.css';
import { primaryControl } from '../../../lib/primary-control.ts';

/**
 * Says that the wallet is frozen and what that blocks (product.md §3). It follows the wallet-status
 * store, which the signed-in layout refreshes on every FREEZE event, so it comes and goes live.
 */
export function FrozenBanner() {
  const isWalletFreeze = useWalletStatusStore((state) => state.isWalletFreeze);
  const reason = useWalletStatusStore((state) => state.reason);
  if (!isWalletFreeze) return null;
  return (
    <Alert
      className={styles.banner}
      type="error"
      showIcon
      role="alert"
      title={walletText.frozenTitle}
      description={
        <div className={styles.description}>
          {reason ? <p className={styles.reason}>{walletText.frozenReason(reason)}</p> : null}
          <p>
            <strong>{walletText.frozenBlocks}</strong>
          </p>
          <p>
            {walletText.frozenStillWorks}
            {walletText.frozenDetail}
          </p>
        </div>
      }
      data-testid="wallet-frozen"
      {...primaryControl}
    />
  );
}
