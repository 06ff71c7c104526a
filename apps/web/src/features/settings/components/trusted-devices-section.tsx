import type { TrustedDevice } from '@portal/contract/account';
import { Button, Popconfirm, Table, type TableColumnsType } from 'antd';
import type { HTMLAttributes } from 'react';
import { formatDateTime } from '../../../lib/date-time.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { useNarrowScreen } from '../../../lib/use-narrow-screen.ts';
import { settingsText } from '../../../locales/zh-CN/settings.ts';
import { useTrustedDevices } from '../api/get-trusted-devices.ts';
import { useRevokeTrustedDevice } from '../api/revoke-trusted-device.ts';
import { QueryState } from './query-state.tsx';
import styles from './records.module.css';
import { SettingsSection } from './settings-section.tsx';

const text = settingsText.devices;

/** 受信任设备: the devices 30天内此设备免验证 trusted (browser, address, first and last use, expiry), each revocable. */
export function TrustedDevicesSection() {
  const narrow = useNarrowScreen();
  const devices = useTrustedDevices();
  const revoke = useRevokeTrustedDevice();
  const items = devices.data ?? [];

  const revokeButton = (device: TrustedDevice) => (
    <Popconfirm
      title={text.revokeConfirm}
      okText={text.revoke}
      cancelText={settingsText.cancel}
      okButtonProps={{ danger: true, loading: revoke.isPending && revoke.variables === device.id }}
      onConfirm={() => revoke.mutateAsync(device.id).then(() => notifySuccess(text.revoked), () => {})}
    >
      <Button size="small" danger type="link" aria-label={`${text.revoke} ${device.device}`}>
        {text.revoke}
      </Button>
    </Popconfirm>
  );

  const name = (device: TrustedDevice) => (
    <span className={styles.device}>
      <span>{device.device}</span>
      {device.current ? <span className={`${styles.tag} ${styles.tagBrand}`}>{text.current}</span> : null}
    </span>
  );

  const columns: TableColumnsType<TrustedDevice> = [
    { key: 'device', title: text.device, render: (_, device) => name(device) },
    { key: 'ip', title: text.ip, dataIndex: 'ip', width: 150, render: (ip: string) => ip || settingsText.none },
    { key: 'created', title: text.createdAt, dataIndex: 'created_at', width: 150, render: (at: string) => <span className={styles.time}>{formatDateTime(at)}</span> },
    { key: 'used', title: text.lastUsedAt, dataIndex: 'last_used_at', width: 150, render: (at: string) => <span className={styles.time}>{formatDateTime(at)}</span> },
    { key: 'expires', title: text.expiresAt, dataIndex: 'expires_at', width: 150, render: (at: string) => <span className={styles.time}>{formatDateTime(at)}</span> },
    { key: 'action', title: text.action, width: 80, align: 'center', render: (_, device) => revokeButton(device) },
  ];

  return (
    <SettingsSection id="devices" title={text.title} description={text.description}>
      <QueryState query={devices} empty={items.length === 0 ? text.empty : false}>
        {narrow ? (
          <ul className={styles.cards} data-testid="trusted-devices">
            {items.map((device) => (
              <li key={device.id} className={styles.card} data-testid="trusted-device">
                <div className={styles.cardHead}>
                  {name(device)}
                  {revokeButton(device)}
                </div>
                <dl className={styles.meta}>
                  <dt>{text.ip}</dt>
                  <dd>{device.ip || settingsText.none}</dd>
                  <dt>{text.lastUsedAt}</dt>
                  <dd>{formatDateTime(device.last_used_at)}</dd>
                  <dt>{text.expiresAt}</dt>
                  <dd>{formatDateTime(device.expires_at)}</dd>
                </dl>
              </li>
            ))}
          </ul>
        ) : (
          <Table<TrustedDevice>
            className={styles.table}
            rowKey="id"
            size="middle"
            columns={columns}
            dataSource={items}
            pagination={false}
            onRow={() => ({ 'data-testid': 'trusted-device' }) as HTMLAttributes<HTMLElement>}
            data-testid="trusted-devices"
          />
        )}
      </QueryState>
    </SettingsSection>
  );
}
