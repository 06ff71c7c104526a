import type { StreamEvent } from '@portal/contract/messages';
import { EVENT_TYPES } from '@portal/contract/events';
import type { QueryClient } from '@tanstack/react-query';
import { depositKeys } from '../api/deposit-keys.ts';

/** DEPOSIT_PROGRESS: a USDT deposit was seen or gained confirmations; its records are read again. Answers whether it was one. */
export function applyDepositEvent(queryClient: QueryClient, event: StreamEvent) {
  if (event.type !== EVENT_TYPES.depositProgress) return false;
  void queryClient.invalidateQueries(depositKeys.records());
  return true;
}
