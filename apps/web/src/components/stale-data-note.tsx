import { ReloadOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { formatDateTime } from '../lib/date-time.ts';
import { commonText } from '../locales/zh-CN/common.ts';
import styles from './stale-data-note.module.css';

/** What a screen knows of a query it shows: whether its last read failed, and when it last succeeded. */
export interface StaleQuery {
  isError: boolean;
  isFetching: boolean;
  data: unknown;
  /** ms since the epoch of the last successful read; 0 when there was none */
  dataUpdatedAt: number;
  refetch: () => unknown;
}

/** Whether a screen shows data that a later read failed to renew. */
export const isStale = (query: StaleQuery) => query.isError && query.data !== undefined && query.dataUpdatedAt > 0;

/**
 * A calm line over a screen whose refresh failed: what is shown stays, marked as possibly out of date
 * with the time of its last good read, and a retry; it goes by itself once a read succeeds (the
 * queries are read again when the browser is back online).
 */
export function StaleDataNote({ query }: { query: StaleQuery }) {
  if (!isStale(query)) return null;
  return (
    <p className={styles.note} role="status" data-testid="stale-data">
      <span>{commonText.stale(formatDateTime(new Date(query.dataUpdatedAt).toISOString(), { seconds: true }))}</span>
      <Button type="link" size="small" icon={<ReloadOutlined spin={query.isFetching} />} onClick={() => void query.refetch()} className={styles.retry}>
        {commonText.retry}
      </Button>
    </p>
  );
}
