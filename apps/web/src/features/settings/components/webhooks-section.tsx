import {
  WEBHOOK_DISABLED_REASON_LABELS,
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_STATUS_LABELS,
  type WebhookItem,
  type WebhookSecret,
} from '@portal/contract/webhooks';
import { Button, Space, Table, type TableColumnsType, Tooltip } from 'antd';
import { useState } from 'react';
import { formatDateTime } from '../../../lib/date-time.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { webhooksText } from '../../../locales/zh-CN/webhooks.ts';
import { useRemoveWebhook, useRotateWebhookSecret, useUpdateWebhook, useWebhooks } from '../api/webhooks.ts';
import { WebhookDeliveriesDrawer } from './webhook-deliveries.tsx';
import { WebhookEndpointDialog, WebhookSecretDialog } from './webhook-dialogs.tsx';
import { QueryState } from './query-state.tsx';
import { ConfirmLink, RecordTag } from './records.tsx';
import recordStyles from './records.module.css';
import { SettingsSection } from './settings-section.tsx';
import styles from './webhooks-section.module.css';

const text = webhooksText.table;
/** Events shown in a row before the rest fold into 等 N 个. */
const SHOWN_EVENTS = 3;

/**
 * 开发者 → Webhooks: the account's endpoints, 添加端点, and per endpoint its 发送记录, 编辑, 停用/启用,
 * 轮换密钥 and 删除; drawn for the roles that manage webhooks (the owner and admins).
 */
export function WebhooksSection() {
  const endpoints = useWebhooks();
  const updating = useUpdateWebhook();
  const removing = useRemoveWebhook();
  const rotating = useRotateWebhookSecret();
  const [editing, setEditing] = useState<{ endpoint: WebhookItem | null } | null>(null);
  const [shown, setShown] = useState<{ made: WebhookSecret; rotated: boolean } | null>(null);
  const [logOf, setLogOf] = useState<WebhookItem | null>(null);
  const items = endpoints.data ?? [];

  const toggle = (endpoint: WebhookItem) => {
    const enabled = endpoint.status !== 'ACTIVE';
    updating.mutateAsync({ id: endpoint.id, body: { enabled } }).then(() => notifySuccess(enabled ? text.enabled : text.disabled), () => {});
  };

  const columns: TableColumnsType<WebhookItem> = [
    {
      key: 'url',
      title: text.url,
      render: (_, endpoint) => (
        <span className={styles.urlCell}>
          <span className={styles.url} data-testid="webhook-row-url">
            {endpoint.url}
          </span>
          {endpoint.description ? <span className={styles.note}>{endpoint.description}</span> : null}
          {endpoint.failing_since && endpoint.status === 'ACTIVE' ? <span className={styles.failing}>{text.failingSince(formatDateTime(endpoint.failing_since))}</span> : null}
        </span>
      ),
    },
    {
      key: 'events',
      title: text.events,
      render: (_, endpoint) => (
        <span className={styles.tags}>
          {endpoint.events.slice(0, SHOWN_EVENTS).map((type) => (
            <Tooltip key={type} title={WEBHOOK_EVENT_LABELS[type]}>
              <span>
                <RecordTag tone="brand">{type}</RecordTag>
              </span>
            </Tooltip>
          ))}
          {endpoint.events.length > SHOWN_EVENTS ? (
            <Tooltip title={endpoint.events.slice(SHOWN_EVENTS).join('、')}>
              <span className={styles.note}>{text.more(endpoint.events.length)}</span>
            </Tooltip>
          ) : null}
        </span>
      ),
    },
    {
      key: 'status',
      title: text.status,
      render: (_, endpoint) => (
        <Tooltip title={endpoint.disabled_reason ? WEBHOOK_DISABLED_REASON_LABELS[endpoint.disabled_reason] : undefined}>
          <span data-testid="webhook-row-status">
            <RecordTag tone={endpoint.status === 'ACTIVE' ? 'brand' : 'warning'}>{WEBHOOK_STATUS_LABELS[endpoint.status]}</RecordTag>
          </span>
        </Tooltip>
      ),
    },
    { key: 'secret', title: text.secret, render: (_, endpoint) => <code className={styles.hint}>{endpoint.secret_hint}</code> },
    { key: 'created', title: text.created, render: (_, endpoint) => <span className={recordStyles.time}>{formatDateTime(endpoint.created_at)}</span> },
    {
      key: 'action',
      title: text.action,
      render: (_, endpoint) => (
        <Space size={0} wrap>
          <Button type="link" size="small" onClick={() => setLogOf(endpoint)} data-testid="webhook-log">
            {text.log}
          </Button>
          <Button type="link" size="small" onClick={() => setEditing({ endpoint })} data-testid="webhook-edit">
            {text.edit}
          </Button>
          <Button type="link" size="small" onClick={() => toggle(endpoint)} loading={updating.isPending && updating.variables?.id === endpoint.id} data-testid="webhook-toggle">
            {endpoint.status === 'ACTIVE' ? text.disable : text.enable}
          </Button>
          <ConfirmLink
            request={rotating}
            id={endpoint.id}
            label={text.rotate}
            confirm={text.rotateConfirm}
            done={(made: WebhookSecret) => setShown({ made, rotated: true })}
            testId="webhook-rotate"
          />
          <ConfirmLink request={removing} id={endpoint.id} label={text.remove} confirm={text.removeConfirm} done={text.removed} danger testId="webhook-remove" />
        </Space>
      ),
    },
  ];

  return (
    <SettingsSection
      id="webhooks"
      title={webhooksText.section.title}
      description={webhooksText.section.description}
      extra={
        <Button type="primary" onClick={() => setEditing({ endpoint: null })} data-testid="webhook-create">
          {webhooksText.section.create}
        </Button>
      }
    >
      <QueryState query={endpoints} empty={endpoints.isSuccess && items.length === 0 ? webhooksText.section.empty : false}>
        <Table<WebhookItem>
          rowKey="id"
          size="small"
          columns={columns}
          dataSource={items}
          pagination={false}
          scroll={{ x: 'max-content' }}
          onRow={() => ({ 'data-testid': 'webhook-row' }) as object}
        />
      </QueryState>
      <WebhookEndpointDialog
        open={editing !== null}
        editing={editing?.endpoint ?? null}
        onClose={() => setEditing(null)}
        onCreated={(made) => {
          setEditing(null);
          setShown({ made, rotated: false });
        }}
      />
      <WebhookSecretDialog made={shown?.made ?? null} rotated={shown?.rotated ?? false} onClose={() => setShown(null)} />
      <WebhookDeliveriesDrawer endpoint={logOf} onClose={() => setLogOf(null)} />
    </SettingsSection>
  );
}
