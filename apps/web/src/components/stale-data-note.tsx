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
 * with the time of its oldest last good read, and a retry of what failed; it goes by itself once the
 * reads succeed (the queries are read again when the browser is back online).
 */
export function StaleDataNote({ queries }: { queries: StaleQuery[] }) {
  const stale = queries.filter(isStale);
  if (stale.length === 0) return null;
  const since = Math.min(...stale.map((query) => query.dataUpdatedAt));
  const retry = () => {
    for (const query of stale) void query.refetch();
  };
  return (
    <p className={styles.note} role="status" data-testid="stale-data">
      <span>{commonText.stale(formatDateTime(new Date(since).toISOString(), { seconds: true }))}</span>
      <Button type="link" size="small" icon={<ReloadOutlined spin={stale.some((query) => query.isFetching)} />} onClick={retry} className={styles.retry}>
        {commonText.retry}
      </Button>
    </p>
  );
}
