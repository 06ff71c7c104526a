import type { ThreeDsOtp } from '@portal/contract/card-spending';
import { EVENT_TYPE_FREEZE } from '@portal/contract/enums';
import { EVENT_TYPES } from '@portal/contract/events';
import type { StreamEvent } from '@portal/contract/messages';
import { BATCH_STATUSES, type BatchStatusAnswer } from '@portal/contract/card-batches';
import type { QueryClient } from '@tanstack/react-query';
import { cardKeys } from '../../../domain/cards/api/card-keys.ts';
import { refreshAroundCard } from '../../../domain/cards/api/card-cache.ts';
import { useThreeDsStore } from '../../spending/stores/three-ds.ts';

/**
 * A card's transaction was written or changed: the event names the card and the transaction. (Told by
 * its fields too: a payload's own `type`, the transaction's, would stand in the event's place.)
 */
export const isCardTransactionEvent = (event: StreamEvent) =>
  event.type === EVENT_TYPES.cardTransaction || (typeof event.transaction_id === 'string' && typeof event.card_id === 'string');

/** The 3-D Secure code an event carries, when it carries a whole one (the stream's text is not trusted blindly). */
export function threeDsOf(event: StreamEvent): ThreeDsOtp | null {
  if (event.type !== EVENT_TYPES.threeDs) return null;
  const { card_id, code, merchant_name, amount, currency, expires_at } = event;
  if (typeof card_id !== 'string' || typeof code !== 'string' || typeof amount !== 'string' || typeof currency !== 'string' || typeof expires_at !== 'string') {
    return null;
  }
  return {
    card_id,
    code,
    merchant_name: typeof merchant_name === 'string' ? merchant_name : '',
    amount,
    currency,
    expires_at,
    last4: typeof event.last4 === 'string' ? event.last4 : null,
    nickname: typeof event.nickname === 'string' ? event.nickname : '',
  };
}

/**
 * What the event stream changes on the card screens, read again at once where shown, else when next
 * shown: CARD_STATUS (the issuer answered, the operator froze a card) the card, its list, the summary
 * and the quotas; CARD_TRANSACTION (an authorisation approved or declined, settled, reversed, refunded,
 * adjusted) the card with its transactions and controls' spending, and the list's figures;
 * BALANCE_CHANGED (money moved in or out of the wallet or a card) every card's balance and the wallet
 * the screens pay from; FREEZE (the wallet's status changed) whether the wallet can pay; THREE_DS_OTP
 * (the issuer asks for a 3-D Secure code) the code's dialog, on whatever page is open.
 */
export function applyCardEvent(queryClient: QueryClient, event: StreamEvent) {
  if (event.type === EVENT_TYPES.batchProgress) applyBatchProgress(queryClient, event);
  else if (event.type === EVENT_TYPES.exportProgress) void queryClient.invalidateQueries({ queryKey: cardKeys.exports() });
  else if (event.type === EVENT_TYPES.cardStatus) refreshAroundCard(queryClient, event.card_id ?? null);
  else if (isCardTransactionEvent(event)) {
    // the card, and below it in the cache its transactions and controls
    refreshAroundCard(queryClient, event.card_id ?? null);
  } else if (event.type === EVENT_TYPES.balance) refreshAroundCard(queryClient, null);
  else if (event.type === EVENT_TYPE_FREEZE) void queryClient.invalidateQueries({ queryKey: cardKeys.wallet() });
  else {
    const otp = threeDsOf(event);
    if (otp) useThreeDsStore.getState().receive(otp);
  }
}

/** The events of batches and exports: no station messages, the widget and the export page show them. */
export const isBatchOrExportEvent = (event: StreamEvent) => event.type === EVENT_TYPES.batchProgress || event.type === EVENT_TYPES.exportProgress;

const count = (value: unknown) => (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null);

/**
 * BATCH_PROGRESS: the batch's figures move the widget at once (the status call answers the same
 * figures, so they are written into its cache); the cards it opened and the wallet are read again.
 * Figures of another batch than the one shown, or that are not whole, make the status be asked again.
 */
function applyBatchProgress(queryClient: QueryClient, event: StreamEvent) {
  const payload = event as StreamEvent & Record<string, unknown>;
  const success = count(payload.success_count);
  const fail = count(payload.fail_count);
  const total = count(payload.total_count);
  const status = BATCH_STATUSES.find((candidate) => candidate === payload.status) ?? null;
  const batchId = typeof payload.batch_id === 'string' ? payload.batch_id : null;
  const current = queryClient.getQueryData<BatchStatusAnswer>(cardKeys.batchStatus());
  if (current && batchId && current.batch_id === batchId && success !== null && fail !== null && total !== null && status) {
    // never backwards: a late event of an earlier moment leaves the newer figures
    if (success + fail >= current.success_count + current.fail_count) {
      queryClient.setQueryData<BatchStatusAnswer>(cardKeys.batchStatus(), {
        ...current,
        success_count: success,
        fail_count: fail,
        total_count: total,
        status,
        exist: status === 'RUNNING',
        message_id: typeof payload.message_id === 'string' ? payload.message_id : current.message_id,
      });
    }
    if (status !== 'RUNNING') void queryClient.invalidateQueries({ queryKey: cardKeys.batchStatus() });
  } else void queryClient.invalidateQueries({ queryKey: cardKeys.batchStatus() });
  refreshAroundCard(queryClient, null);
}
