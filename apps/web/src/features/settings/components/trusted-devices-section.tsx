import type { TrustedDevice } from '@portal/contract/account';
import { settingsText } from '../../../locales/zh-CN/settings.ts';
import { useTrustedDevices } from '../api/get-trusted-devices.ts';
import { useRevokeTrustedDevice } from '../api/revoke-trusted-device.ts';
import { QueryState } from './query-state.tsx';
import { EndRecordButton, RecordName, type RecordField, Records, RecordTag } from './records.tsx';
import { SettingsSection } from './settings-section.tsx';

const text = settingsText.devices;

const fields: RecordField<TrustedDevice>[] = [
  { key: 'ip', title: text.ip, field: 'ip' },
  { key: 'created', title: text.createdAt, field: 'created_at', time: true, inCard: false },
  { key: 'used', title: text.lastUsedAt, field: 'last_used_at', time: true },
  { key: 'expires', title: text.expiresAt, field: 'expires_at', time: true },
];

/** 受信任设备: the devices 30天内此设备免验证 trusted (browser, address, first and last use, expiry), each revocable. */
export function TrustedDevicesSection() {
  const devices = useTrustedDevices();
  const revoke = useRevokeTrustedDevice();
  const items = devices.data ?? [];

  return (
    <SettingsSection id="devices" title={text.title} description={text.description}>
      <QueryState query={devices} empty={items.length === 0 ? text.empty : false}>
        <Records<TrustedDevice>
          items={items}
          testId="trusted-devices"
          itemTestId="trusted-device"
          deviceTitle={text.device}
          actionTitle={text.action}
          fields={fields}
          name={(device) => <RecordName device={device.device}>{device.current ? <RecordTag tone="brand">{text.current}</RecordTag> : null}</RecordName>}
          action={(device) => (
            <EndRecordButton ending={revoke} id={device.id} device={device.device} label={text.revoke} confirm={text.revokeConfirm} done={text.revoked} />
          )}
        />
      </QueryState>
    </SettingsSection>
  );
}
