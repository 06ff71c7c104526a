import { API_KEY_SCOPE_LABELS, API_KEY_STATUS_LABELS, type ApiKeyItem, type ApiKeySecret } from '@portal/contract/developer';
import { Button, Space, Table, type TableColumnsType, Tooltip } from 'antd';
import { useState } from 'react';
import { formatDateTime } from '../../../lib/date-time.ts';
import { developerText } from '../../../locales/zh-CN/developer.ts';
import { useApiKeys, useRevokeApiKey, useRotateApiKey } from '../api/api-keys.ts';
import { ApiKeySecretDialog, CreateApiKeyDialog } from './api-key-dialogs.tsx';
import { QueryState } from './query-state.tsx';
import { ConfirmLink, RecordTag } from './records.tsx';
import recordStyles from './records.module.css';
import { SettingsSection } from './settings-section.tsx';
import styles from './api-keys-section.module.css';

const text = developerText.table;

/** 开发者: the account's API keys, 创建密钥, and per key 轮换 and 撤销; drawn for the roles that manage keys. */
export function ApiKeysSection() {
  const keys = useApiKeys();
  const revoking = useRevokeApiKey();
  const rotating = useRotateApiKey();
  const [creating, setCreating] = useState(false);
  const [shown, setShown] = useState<{ key: ApiKeySecret; rotated: boolean } | null>(null);
  const items = keys.data ?? [];

  const columns: TableColumnsType<ApiKeyItem> = [
    {
      key: 'name',
      title: text.name,
      render: (_, key) => (
        <span className={styles.nameCell}>
          <span className={styles.name}>{key.name}</span>
          <code className={styles.prefix} data-testid="api-key-prefix">
            {key.prefix}…
          </code>
        </span>
      ),
    },
    {
      key: 'scopes',
      title: text.scopes,
      render: (_, key) => (
        <span className={styles.tags}>
          {key.scopes.map((scope) => (
            <Tooltip key={scope} title={API_KEY_SCOPE_LABELS[scope]}>
              <span>
                <RecordTag tone="brand">{scope}</RecordTag>
              </span>
            </Tooltip>
          ))}
        </span>
      ),
    },
    { key: 'allowlist', title: text.allowlist, render: (_, key) => (key.ip_allowlist.length === 0 ? text.anyIp : key.ip_allowlist.join(', ')) },
    {
      key: 'status',
      title: text.status,
      width: 88,
      render: (_, key) => <RecordTag tone={key.status === 'ACTIVE' ? 'brand' : 'warning'}>{API_KEY_STATUS_LABELS[key.status]}</RecordTag>,
    },
    {
      key: 'used',
      title: text.lastUsed,
      render: (_, key) => (
        <span className={recordStyles.time}>
          {key.last_used_at ? `${formatDateTime(key.last_used_at)}${key.last_used_ip ? ` · ${key.last_used_ip}` : ''}` : text.never}
          {key.previous_secret_until ? <span className={styles.overlap}>{text.overlap(formatDateTime(key.previous_secret_until))}</span> : null}
        </span>
      ),
    },
    { key: 'member', title: text.member, render: (_, key) => key.member_label },
    { key: 'expires', title: text.expires, render: (_, key) => <span className={recordStyles.time}>{key.expires_at ? formatDateTime(key.expires_at) : text.noExpiry}</span> },
    {
      key: 'action',
      title: text.action,
      width: 120,
      align: 'center',
      render: (_, key) =>
        key.status === 'ACTIVE' ? (
          <Space size={4}>
            <ConfirmLink
              request={rotating}
              id={key.id}
              label={text.rotate}
              confirm={text.rotateConfirm}
              done={(made: ApiKeySecret) => setShown({ key: made, rotated: true })}
              testId="api-key-rotate"
            />
            <ConfirmLink request={revoking} id={key.id} label={text.revoke} confirm={text.revokeConfirm} done={text.revoked} danger testId="api-key-revoke" />
          </Space>
        ) : null,
    },
  ];

  return (
    <SettingsSection
      id="developer"
      title={developerText.section.title}
      description={developerText.section.description}
      extra={
        <Button type="primary" onClick={() => setCreating(true)} data-testid="api-key-create">
          {developerText.section.create}
        </Button>
      }
    >
      <QueryState query={keys} empty={keys.isSuccess && items.length === 0 ? developerText.section.empty : false}>
        <Table<ApiKeyItem>
          rowKey="id"
          size="small"
          columns={columns}
          dataSource={items}
          pagination={false}
          scroll={{ x: 'max-content' }}
          onRow={() => ({ 'data-testid': 'api-key-row' }) as object}
        />
      </QueryState>
      <CreateApiKeyDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(key) => {
          setCreating(false);
          setShown({ key, rotated: false });
        }}
      />
      <ApiKeySecretDialog made={shown?.key ?? null} rotated={shown?.rotated ?? false} onClose={() => setShown(null)} />
    </SettingsSection>
  );
}
