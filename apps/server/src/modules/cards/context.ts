import type { SendType } from '@portal/contract/enums';
import { EVENT_TYPES } from '@portal/contract/events';
import type { Db, Tx } from '../../db/engine.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Sealer } from '../../lib/sealed.ts';
import type { CardIssuer } from '../../providers/issuer/port.ts';
import type { EventPublisher } from '../events/publisher.ts';
import type { LedgerService } from '../ledger/service.ts';
import type { MessageService } from '../messages/service.ts';
import type { Authenticated } from '../sessions/service.ts';
import type { CardRow } from './store.ts';

/** Checks and uses an access code sent to the account's own phone or e-mail (send/code-auto). */
export type AccessCodeCheck = (merchantId: string, account: Authenticated['account'], channel: SendType, captcha: string) => Promise<void>;

/** What the parts of the card service share. */
export interface CardContext {
  db: Db;
  clock: Clock;
  sealer: Sealer;
  ledger: LedgerService;
  issuer: CardIssuer;
  events: EventPublisher;
  messages: Pick<MessageService, 'post'>;
  useAccessCode: AccessCodeCheck;
}

/** The holder's open portal tabs hear that the card's status changed once `tx` commits. */
export const announceStatus = (context: Pick<CardContext, 'events'>, tx: Tx, card: Pick<CardRow, 'merchantId' | 'accountId' | 'id' | 'status'>) =>
  context.events.toAccount(tx, card.merchantId, card.accountId, EVENT_TYPES.cardStatus, { card_id: card.id, card_status: card.status });

/** The ledger's idempotency keys of the card's own movements: one per step, so a repeated event moves nothing. */
export const ledgerKeys = {
  openHold: (cardId: string) => `card:${cardId}:open-hold`,
  openFeePost: (cardId: string) => `card:${cardId}:open-fee-post`,
  openLoadPost: (cardId: string) => `card:${cardId}:open-load-post`,
  openFeeRelease: (cardId: string) => `card:${cardId}:open-fee-release`,
  openLoadRelease: (cardId: string) => `card:${cardId}:open-load-release`,
  close: (cardId: string) => `card:${cardId}:close`,
  /** a customer's Idempotency-Key, kept apart per account and per call */
  recharge: (accountId: string, key: string) => `card-recharge:${accountId}:${key}`,
  withdraw: (accountId: string, key: string) => `card-withdraw:${accountId}:${key}`,
};
