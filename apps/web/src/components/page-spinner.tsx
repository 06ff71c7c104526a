import { commonText } from '../locales/zh-CN/common.ts';
import styles from './page-spinner.module.css';

/** A light full-page spinner for start-up and route loading. */
export function PageSpinner({ label = commonText.loading }: { label?: string }) {
  return (
    <div className={styles.overlay} role="status" aria-live="polite" aria-label={label}>
      <span className={styles.spinner} />
    </div>
  );
}
