import type { AccountInfo } from '@portal/contract/account';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from './http.ts';
import { accountKeys } from './account-keys.ts';

/** GET /api/v1/account/info: id, email, phone and phone_prefix of the signed-in account (the header shows it, the settings use it). */
export const getAccountInfo = () => http.get<AccountInfo>('/api/v1/account/info');

export const getAccountInfoQueryOptions = () =>
  queryOptions({ queryKey: accountKeys.info(), queryFn: getAccountInfo, staleTime: 5 * 60_000 });

export const useAccountInfo = () => useQuery(getAccountInfoQueryOptions());
