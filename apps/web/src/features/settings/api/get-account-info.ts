import type { AccountInfo } from '@portal/contract/account';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';
import { settingsKeys } from './settings-keys.ts';

/** GET /api/v1/account/info: the account's e-mail and phone, and whether it has a trade password. */
export const getAccountInfo = () => http.get<AccountInfo>('/api/v1/account/info');

export const getAccountInfoQueryOptions = () => queryOptions({ queryKey: settingsKeys.account(), queryFn: getAccountInfo, staleTime: 0 });

export const useAccountInfo = () => useQuery(getAccountInfoQueryOptions());
