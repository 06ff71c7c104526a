import type { ThreeDsOtp } from '@portal/contract/card-spending';
import { EVENT_TYPES } from '@portal/contract/events';
import type { StreamEvent } from '@portal/contract/messages';
import type { QueryClient } from '@tanstack/react-query';
import { refreshAroundCard } from '../../../domain/cards/api/card-cache.ts';
import { useThreeDsStore } from '../stores/three-ds.ts';

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
 * CARD_TRANSACTION (an authorisation approved or declined, settled, reversed, refunded, adjusted)
 * reads again the card with its transactions and controls' spending, and the list's figures;
 * THREE_DS_OTP (the issuer asks for a 3-D Secure code) opens the code's dialog, on whatever page is
 * open. Answers whether the event was one of these.
 */
export function applySpendingEvent(queryClient: QueryClient, event: StreamEvent): boolean {
  if (isCardTransactionEvent(event)) {
    // the card, and below it in the cache its transactions and controls
    refreshAroundCard(queryClient, event.card_id ?? null);
    return true;
  }
  const otp = threeDsOf(event);
  if (!otp) return false;
  useThreeDsStore.getState().receive(otp);
  return true;
}
