import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import * as accountCalls from '../../../lib/generated/account-calls.ts';
import { queryKeyOf } from '../../../lib/query-keys.ts';

/** GET /account/info: id, email, phone and phone_prefix of the signed-in account, and whether it has a trade password. */
const getAccountInfo = () => call(accountCalls.info);

/** What sets or resets the trade password, or changes the e-mail or phone, refreshes this. */
export const getAccountInfoQueryOptions = () => queryOptions({ queryKey: queryKeyOf(accountCalls.info), queryFn: getAccountInfo, staleTime: 5 * 60_000 });

/** The signed-in account as the header and the settings show it. */
export const useAccountInfo = () => useQuery(getAccountInfoQueryOptions());

/**
 * Whether the account has a trade password (`set`), and the e-mail its reset link goes to: the one
 * place every screen reads it from (the money dialogs, the 交易密码 section and the account's facts on
 * /settings). The same answer as the account's info, read again each time one of them opens, since it
 * may have been set or reset in another tab a moment ago.
 */
export const useTradePasswordState = () =>
  useQuery({ ...getAccountInfoQueryOptions(), staleTime: 0, select: (info) => ({ set: info.trx_password_set, email: info.email }) });
