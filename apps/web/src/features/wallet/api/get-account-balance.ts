import type { AccountBalanceItem } from '@portal/contract/wallet';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';
import { walletKeys } from './wallet-keys.ts';

/**
 * GET /api/v1/balance/account-balance: per currency, what is spendable (available) and what is held
 * (anew). Every movement also arrives as a BALANCE_CHANGED event on the stream; a tab that was
 * away (asleep, offline) asks again when it comes back into view.
 */
export const getAccountBalance = () => http.get<AccountBalanceItem[]>('/api/v1/balance/account-balance');

export const getAccountBalanceQueryOptions = () =>
  queryOptions({ queryKey: walletKeys.balances(), queryFn: getAccountBalance, staleTime: 0, refetchOnWindowFocus: true });

export const useAccountBalance = () => useQuery(getAccountBalanceQueryOptions());
