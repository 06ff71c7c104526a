import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import * as walletCalls from '../../../lib/generated/wallet-calls.ts';
import { queryKeyOf } from '../../../lib/query-keys.ts';

/**
 * GET /balance/account-balance: per currency, what is spendable (available) and what is held (anew).
 * The wallet shows it, and the card screens pay an opening or a top-up from it. Every movement also
 * arrives as a BALANCE_CHANGED event on the stream; a tab that was away (asleep, offline) asks again
 * when it comes back into view.
 */
export const getAccountBalance = () => call(walletCalls.balances);

export const getAccountBalanceQueryOptions = () =>
  queryOptions({ queryKey: queryKeyOf(walletCalls.balances), queryFn: getAccountBalance, staleTime: 0, refetchOnWindowFocus: true });

export const useAccountBalance = () => useQuery(getAccountBalanceQueryOptions());
