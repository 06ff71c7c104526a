import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import * as securityCalls from '../../../lib/generated/security-calls.ts';
import { queryKeyOf } from '../../../lib/query-keys.ts';

/** GET /account/devices: the devices trusted by 30天内此设备免验证, this browser's marked. */
export const getTrustedDevices = () => call(securityCalls.devices);

export const getTrustedDevicesQueryOptions = () => queryOptions({ queryKey: queryKeyOf(securityCalls.devices), queryFn: getTrustedDevices });

export const useTrustedDevices = () => useQuery(getTrustedDevicesQueryOptions());
