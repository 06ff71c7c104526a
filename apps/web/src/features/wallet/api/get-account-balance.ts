import type { AccountBalanceItem } from '@portal/contract/wallet';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';
import { walletKeys } from './wallet-keys.ts';

/**
 * GET /api/v1/balance/account-balance: per currency, what is spendable (available) and what is held
 * (anew). Money comes in without an event (an operator's recharge), so the wallet asks again when
 * its tab comes back into view.
 */
export const getAccountBalance = () => http.get<AccountBalanceItem[]>('/api/v1/balance/account-balance');

export const getAccountBalanceQueryOptions = () =>
  queryOptions({ queryKey: walletKeys.balances(), queryFn: getAccountBalance, staleTime: 0, refetchOnWindowFocus: true });

export const useAccountBalance = () => useQuery(getAccountBalanceQueryOptions());
