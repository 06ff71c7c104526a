import { ACTIVITY_KIND_LABELS, type ActivityItem } from '@portal/contract/team';
import { Table, type TableColumnsType } from 'antd';
import type { HTMLAttributes } from 'react';
import { Link } from 'react-router';
import { formatDateTime } from '../../../lib/date-time.ts';
import { paths } from '../../../lib/paths.ts';
import { activityText } from '../../../locales/zh-CN/activity.ts';
import { ActivityAmount } from '../../../domain/team/components/activity-lines.tsx';
import styles from './activity-table.module.css';

const text = activityText.columns;
const none = <span className={styles.none}>{activityText.none}</span>;

/** The activity log on wide screens: one row an entry, newest first. */
export function ActivityTable({ items, loading }: { items: ActivityItem[]; loading: boolean }) {
  const columns: TableColumnsType<ActivityItem> = [
    {
      key: 'time',
      title: text.time,
      dataIndex: 'at',
      width: 164,
      render: (value: string) => <span className={styles.time}>{formatDateTime(value, { seconds: true })}</span>,
    },
    {
      key: 'member',
      title: text.member,
      dataIndex: 'member_label',
      width: 172,
      render: (value: string) => <span className={styles.member} data-testid="activity-member">{value}</span>,
    },
    {
      key: 'kind',
      title: text.kind,
      dataIndex: 'kind',
      width: 56,
      render: (value: ActivityItem['kind']) => <span data-testid="activity-kind">{ACTIVITY_KIND_LABELS[value]}</span>,
    },
    {
      key: 'summary',
      title: text.summary,
      dataIndex: 'summary',
      render: (value: string) => (
        <span className={styles.summary} data-testid="activity-summary">
          {value}
        </span>
      ),
    },
    {
      key: 'card',
      title: text.card,
      dataIndex: 'card_id',
      width: 80,
      render: (value: string | null) => (value ? <Link to={paths.cardDetails.getHref(value)}>{activityText.openCard}</Link> : none),
    },
    {
      key: 'amount',
      title: text.amount,
      align: 'right',
      width: 104,
      render: (_: unknown, item: ActivityItem) =>
        item.amount === null ? none : <ActivityAmount item={item} className={styles.amount} currencyClassName={styles.currency} />,
    },
    {
      key: 'source',
      title: text.source,
      width: 140,
      render: (_: unknown, item: ActivityItem) => (
        <span className={styles.source} data-testid="activity-source">
          <span>{item.ip || activityText.none}</span>
          {item.device ? <span>{item.device}</span> : null}
        </span>
      ),
    },
  ];

  return (
    <Table<ActivityItem>
      className={styles.table}
      rowKey="id"
      size="middle"
      columns={columns}
      dataSource={items}
      loading={loading}
      pagination={false}
      tableLayout="fixed"
      // antd passes these to the <tr>; the test id is not one of its typed attributes
      onRow={() => ({ 'data-testid': 'activity-row' }) as HTMLAttributes<HTMLElement>}
    />
  );
}
