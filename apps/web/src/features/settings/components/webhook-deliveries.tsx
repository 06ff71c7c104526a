import {
  WEBHOOK_DELIVERY_STATUS_LABELS,
  WEBHOOK_DELIVERY_STATUSES,
  WEBHOOK_EVENT_LABELS,
  type WebhookDelivery,
  type WebhookDeliveryStatus,
  type WebhookItem,
} from '@portal/contract/webhooks';
import { Button, Drawer, Segmented, Table, type TableColumnsType, Tooltip } from 'antd';
import { useState } from 'react';
import { formatDateTime } from '../../../lib/date-time.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { useNarrowScreen } from '../../../lib/use-narrow-screen.ts';
import { webhooksText } from '../../../locales/zh-CN/webhooks.ts';
import { useRedeliver, useWebhookDeliveries } from '../api/webhooks.ts';
import { QueryState } from './query-state.tsx';
import { RecordTag } from './records.tsx';
import recordStyles from './records.module.css';
import styles from './webhooks-section.module.css';

const text = webhooksText.deliveries;

/** One delivery's tries, newest first, and the body as it is sent. */
function DeliveryTries({ delivery }: { delivery: WebhookDelivery }) {
  return (
    <div data-testid="webhook-delivery-tries">
      {delivery.log.length === 0 ? (
        <span className={styles.note}>{text.noTries}</span>
      ) : (
        <ol className={styles.tries}>
          {delivery.log.map((entry) => (
            <li key={entry.at} className={styles.try}>
              <span className={recordStyles.time}>{formatDateTime(entry.at, { seconds: true })}</span>
              <RecordTag tone={entry.status_code !== null && entry.status_code < 300 ? 'brand' : 'warning'}>{text.statusCode(entry.status_code)}</RecordTag>
              <span>{text.duration(entry.duration_ms)}</span>
              {entry.error ? <span className={styles.failing}>{entry.error}</span> : null}
              {entry.answer_excerpt ? <span className={styles.excerpt}>{entry.answer_excerpt}</span> : null}
            </li>
          ))}
        </ol>
      )}
      <pre className={styles.payload}>{delivery.payload}</pre>
    </div>
  );
}

/** 发送记录: an endpoint's deliveries (filter by status), each with its tries and 重新发送. */
export function WebhookDeliveriesDrawer({ endpoint, onClose }: { endpoint: WebhookItem | null; onClose: () => void }) {
  const narrow = useNarrowScreen();
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<WebhookDeliveryStatus | undefined>(undefined);
  const deliveries = useWebhookDeliveries(endpoint ? { id: endpoint.id, page, status } : null);
  const redelivering = useRedeliver();
  const items = deliveries.data?.items ?? [];

  const columns: TableColumnsType<WebhookDelivery> = [
    {
      key: 'event',
      title: text.event,
      render: (_, delivery) => (
        <Tooltip title={`${text.eventId}：${delivery.event_id}`}>
          <span className={styles.urlCell}>
            <span className={styles.eventName}>{delivery.event_type}</span>
            <span className={styles.eventLabel}>{WEBHOOK_EVENT_LABELS[delivery.event_type]}</span>
          </span>
        </Tooltip>
      ),
    },
    {
      key: 'status',
      title: text.status,
      render: (_, delivery) => (
        <span className={styles.urlCell}>
          <span data-testid="webhook-delivery-status">
            <RecordTag tone={delivery.status === 'DELIVERED' ? 'brand' : 'warning'}>{WEBHOOK_DELIVERY_STATUS_LABELS[delivery.status]}</RecordTag>
          </span>
          {delivery.next_attempt_at && delivery.attempts > 0 ? <span className={styles.note}>{text.next(formatDateTime(delivery.next_attempt_at, { seconds: true }))}</span> : null}
        </span>
      ),
    },
    { key: 'attempts', title: text.attempts, dataIndex: 'attempts', width: 80, align: 'center' },
    { key: 'created', title: text.created, render: (_, delivery) => <span className={recordStyles.time}>{formatDateTime(delivery.created_at, { seconds: true })}</span> },
    {
      key: 'action',
      title: '',
      width: 96,
      render: (_, delivery) => (
        <Button
          type="link"
          size="small"
          loading={redelivering.isPending && redelivering.variables === delivery.id}
          disabled={endpoint?.status !== 'ACTIVE'}
          onClick={() => redelivering.mutateAsync(delivery.id).then(() => notifySuccess(text.redelivered), () => {})}
          data-testid="webhook-redeliver"
        >
          {text.redeliver}
        </Button>
      ),
    },
  ];

  return (
    <Drawer open={endpoint !== null} onClose={onClose} title={`${text.title} · ${endpoint?.url ?? ''}`} width={narrow ? '100%' : 860} destroyOnHidden>
      <div className={styles.logHead}>
        <Segmented<string>
          size="small"
          value={status ?? 'ALL'}
          options={[{ value: 'ALL', label: text.all }, ...WEBHOOK_DELIVERY_STATUSES.map((value) => ({ value, label: WEBHOOK_DELIVERY_STATUS_LABELS[value] }))]}
          onChange={(value) => {
            setPage(1);
            setStatus(value === 'ALL' ? undefined : (value as WebhookDeliveryStatus));
          }}
        />
        <Button size="small" onClick={() => void deliveries.refetch()} loading={deliveries.isFetching} data-testid="webhook-deliveries-refresh">
          {text.refresh}
        </Button>
      </div>
      <QueryState query={deliveries} empty={deliveries.isSuccess && items.length === 0 ? text.empty : false}>
        <Table<WebhookDelivery>
          rowKey="id"
          size="small"
          columns={columns}
          dataSource={items}
          scroll={{ x: 'max-content' }}
          expandable={{ expandedRowRender: (delivery) => <DeliveryTries delivery={delivery} /> }}
          pagination={{ current: page, pageSize: 10, total: deliveries.data?.total ?? 0, onChange: setPage, size: 'small', showSizeChanger: false }}
          onRow={() => ({ 'data-testid': 'webhook-delivery-row' }) as object}
        />
      </QueryState>
    </Drawer>
  );
}
