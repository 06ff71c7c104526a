import { EVENT_TYPES } from '@portal/contract/events';
import type { Tx } from '../../db/engine.ts';
import type { CardDeps } from './deps.ts';
import type { CardRow } from './store.ts';

type AnnouncedCard = Pick<CardRow, 'merchantId' | 'accountId' | 'id' | 'status' | 'holderMemberId'> & Partial<Pick<CardRow, 'nickname' | 'currency' | 'last4' | 'failureReason' | 'batchId'>>;

/**
 * The open portal tabs of the members who see the card hear that its status changed once `tx`
 * commits; the account's webhooks hear it in the same transaction: an opening's end as card.created or
 * card.failed, any later change as card.status_changed.
 */
export async function announceStatus(deps: Pick<CardDeps, 'events' | 'webhooks'>, tx: Tx, card: AnnouncedCard, opening = false) {
  await deps.events.toAccount(tx, card.merchantId, card.accountId, EVENT_TYPES.cardStatus, { card_id: card.id, card_status: card.status }, { audience: { card: card.holderMemberId } });
  if (!deps.webhooks) return;
  const data = {
    card_id: card.id,
    status: card.status,
    nickname: card.nickname ?? null,
    currency: card.currency ?? null,
    last4: card.last4 ?? null,
    holder_member_id: card.holderMemberId,
    batch_id: card.batchId ?? null,
  };
  const type = opening ? (card.status === 'FAIL' ? 'card.failed' : 'card.created') : 'card.status_changed';
  await deps.webhooks.emit(tx, {
    merchantId: card.merchantId,
    accountId: card.accountId,
    type,
    cardId: card.id,
    data: type === 'card.failed' ? { ...data, reason: card.failureReason ?? null } : data,
  });
}
