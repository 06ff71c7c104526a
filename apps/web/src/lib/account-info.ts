import type { AccountInfo } from '@portal/contract/account';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { accountKeys } from './account-keys.ts';
import { http } from './http.ts';

/** GET /api/v1/account/info: id, email, phone and phone_prefix of the signed-in account, and whether it has a trade password. */
const getAccountInfo = () => http.get<AccountInfo>('/api/v1/account/info');

const accountInfoQueryOptions = () => queryOptions({ queryKey: accountKeys.info(), queryFn: getAccountInfo, staleTime: 5 * 60_000 });

/** The signed-in account as the header and the settings show it. */
export const useAccountInfo = () => useQuery(accountInfoQueryOptions());

/**
 * Whether the account has a trade password (`set`), and the e-mail its reset link goes to: the one
 * place every screen reads it from (the money dialogs, the 交易密码 section and the account's facts on
 * /settings). The same answer as the account's info, read again each time one of them opens, since it
 * may have been set or reset in another tab a moment ago; what sets or resets it refreshes accountKeys.
 */
export const useTradePasswordState = () =>
  useQuery({ ...accountInfoQueryOptions(), staleTime: 0, select: (info) => ({ set: info.trx_password_set, email: info.email }) });
