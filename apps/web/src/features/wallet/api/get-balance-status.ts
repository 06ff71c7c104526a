import { BALANCE_STATUS_AVAILABLE } from '@portal/contract/enums';
import type { BalanceStatusAnswer } from '@portal/contract/wallet';
import { http } from '../../../lib/http.ts';
import { useWalletStatusStore } from '../../../stores/wallet-status.ts';

/** GET /api/v1/balance/account-balance-status: BALANCE_STATUS_AVAILABLE, or frozen with a reason. */
export const getBalanceStatus = () => http.get<BalanceStatusAnswer>('/api/v1/balance/account-balance-status');

/** Asks for the wallet's status and keeps it in the wallet-status store. */
export async function checkWalletStatus() {
  const answer = await getBalanceStatus();
  useWalletStatusStore.getState().setStatus({ isWalletFreeze: answer.status !== BALANCE_STATUS_AVAILABLE, reason: answer.reason ?? '' });
  return answer;
}
