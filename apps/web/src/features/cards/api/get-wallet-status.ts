import { BALANCE_STATUS_AVAILABLE } from '@portal/contract/enums';
import type { BalanceStatusAnswer } from '@portal/contract/wallet';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';
import { useWalletStatusStore } from '../../../stores/wallet-status.ts';
import { cardKeys } from './card-keys.ts';

/**
 * GET /api/v1/balance/account-balance-status, asked by the card screens before money leaves the
 * wallet (a frozen wallet opens no card and tops up none). The answer also updates the wallet-status
 * store, so the rest of the portal agrees with what this screen was told.
 */
export async function getWalletStatus() {
  const answer = await http.get<BalanceStatusAnswer>('/api/v1/balance/account-balance-status');
  useWalletStatusStore.getState().setStatus({ isWalletFreeze: answer.status !== BALANCE_STATUS_AVAILABLE, reason: answer.reason ?? '' });
  return answer;
}

export const getWalletStatusQueryOptions = () =>
  queryOptions({ queryKey: cardKeys.walletStatus(), queryFn: getWalletStatus, staleTime: 0, refetchOnWindowFocus: true });

export const useWalletStatus = () => useQuery(getWalletStatusQueryOptions());
