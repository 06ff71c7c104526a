import type { AccountBalanceItem } from '@portal/contract/wallet';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';
import { cardKeys } from './card-keys.ts';

/**
 * GET /api/v1/balance/account-balance, as the card screens read it: what the wallet can pay an
 * opening or a top-up with, per currency. (The wallet screen reads the same call under its own key;
 * a feature does not import another, and BALANCE_CHANGED refreshes both.)
 */
export const getWalletBalances = () => http.get<AccountBalanceItem[]>('/api/v1/balance/account-balance');

export const getWalletBalancesQueryOptions = () =>
  queryOptions({ queryKey: cardKeys.walletBalances(), queryFn: getWalletBalances, staleTime: 0, refetchOnWindowFocus: true });

export const useWalletBalances = () => useQuery(getWalletBalancesQueryOptions());
