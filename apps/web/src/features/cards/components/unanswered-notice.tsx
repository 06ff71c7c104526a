import styles from './money-dialog.module.css';

/**
 * In a dialog whose call got no answer (offline, or no answer in time): the HTTP module's own words
 * (spec §8, 当前网络异常，数据已保存，恢复后提交即可) and how to send it again. The dialog keeps its
 * values and its Idempotency-Key, so pressing its button again cannot move the money twice.
 */
export function UnansweredNotice({ message, retry }: { message: string | null; retry: string }) {
  if (message === null) return null;
  return (
    <div className={styles.retry} role="status" data-testid="unanswered">
      <strong className={styles.retryTitle}>{message}</strong>
      <span>{retry}</span>
    </div>
  );
}
