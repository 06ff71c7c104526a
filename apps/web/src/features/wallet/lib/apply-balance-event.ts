import type { StreamEvent } from '@portal/contract/messages';
import type { QueryClient } from '@tanstack/react-query';
import { getAccountBalanceQueryOptions } from '../../../domain/wallet/api/get-account-balance.ts';
import { depositKeys } from '../api/deposit-keys.ts';
import { walletKeys } from '../api/wallet-keys.ts';

/**
 * A BALANCE_CHANGED event: money moved in or out of the wallet or a card. The balances it carries
 * show at once; the list of records (and the figures, to be sure of the order events came in) are
 * read again, at once when on screen, else when next shown.
 */
export function applyBalanceEvent(queryClient: QueryClient, event: StreamEvent) {
  if (event.balances) queryClient.setQueryData(getAccountBalanceQueryOptions().queryKey, event.balances);
  if (event.card_amount) queryClient.setQueryData(walletKeys.cardAmount(), event.card_amount);
  void queryClient.invalidateQueries(walletKeys.moved());
  // a credited top-up changes its record's state
  void queryClient.invalidateQueries(depositKeys.records());
}
