import { Button, Empty, Skeleton } from 'antd';
import type { ReactNode } from 'react';
import { settingsText } from '../../../locales/zh-CN/settings.ts';
import styles from './query-state.module.css';

interface QueryStateProps {
  query: { isPending: boolean; isError: boolean; refetch: () => unknown };
  /** shown instead of the content when the answer holds nothing */
  empty?: string | false;
  /** lines of the skeleton while it loads */
  rows?: number;
  children: ReactNode;
}

/** A section's content in each state of its query: loading, failed (with 重试), empty, or there. */
export function QueryState({ query, empty = false, rows = 3, children }: QueryStateProps) {
  if (query.isPending) return <Skeleton active title={false} paragraph={{ rows }} className={styles.loading} />;
  if (query.isError) {
    return (
      <div className={styles.failed} role="alert">
        <span>{settingsText.loadFailed}</span>
        <Button size="small" onClick={() => void query.refetch()}>
          {settingsText.retry}
        </Button>
      </div>
    );
  }
  if (empty) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={empty} className={styles.empty} />;
  return <>{children}</>;
}
