import { BALANCE_STATUS_AVAILABLE } from '@portal/contract/enums';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import * as walletCalls from '../../../lib/generated/wallet-calls.ts';
import { queryKeyOf } from '../../../lib/query-keys.ts';
import { useWalletStatusStore } from '../../../stores/wallet-status.ts';

/**
 * GET /balance/account-balance-status: BALANCE_STATUS_AVAILABLE, or frozen with a reason. Every
 * answer is kept in the wallet-status store, so the whole portal agrees with what a screen was told:
 * the signed-in layout and the wallet ask at start and on a FREEZE event, the card screens before
 * money leaves the wallet (a frozen wallet opens no card and tops up none).
 */
export async function checkWalletStatus() {
  const answer = await call(walletCalls.status);
  useWalletStatusStore.getState().setStatus({ isWalletFreeze: answer.status !== BALANCE_STATUS_AVAILABLE, reason: answer.reason ?? '' });
  return answer;
}

export const getBalanceStatusQueryOptions = () =>
  queryOptions({ queryKey: queryKeyOf(walletCalls.status), queryFn: checkWalletStatus, staleTime: 0, refetchOnWindowFocus: true });

export const useWalletStatus = () => useQuery(getBalanceStatusQueryOptions());
