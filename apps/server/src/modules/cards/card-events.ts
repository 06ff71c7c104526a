import { EVENT_TYPES } from '@portal/contract/events';
import type { Tx } from '../../db/engine.ts';
import type { CardDeps } from './deps.ts';
import type { CardRow } from './store.ts';

/** The open portal tabs of the members who see the card hear that its status changed once `tx` commits. */
export const announceStatus = (deps: Pick<CardDeps, 'events'>, tx: Tx, card: Pick<CardRow, 'merchantId' | 'accountId' | 'id' | 'status' | 'holderMemberId'>) =>
  deps.events.toAccount(tx, card.merchantId, card.accountId, EVENT_TYPES.cardStatus, { card_id: card.id, card_status: card.status }, { audience: { card: card.holderMemberId } });
