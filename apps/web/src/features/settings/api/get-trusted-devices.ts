import type { TrustedDevice } from '@portal/contract/account';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';
import { settingsKeys } from './settings-keys.ts';

/** GET /api/v1/account/devices: the devices trusted by 30天内此设备免验证, this browser's marked. */
export const getTrustedDevices = () => http.get<TrustedDevice[]>('/api/v1/account/devices');

export const getTrustedDevicesQueryOptions = () => queryOptions({ queryKey: settingsKeys.devices(), queryFn: getTrustedDevices });

export const useTrustedDevices = () => useQuery(getTrustedDevicesQueryOptions());
