import type { Db } from '../../db/engine.ts';
import type { Clock } from '../../lib/clock.ts';
import type { CardService } from '../cards/service.ts';
import type { EventPublisher } from '../events/publisher.ts';
import type { LedgerService } from '../ledger/service.ts';
import type { MessageService } from '../messages/service.ts';
import type { WebhookService } from '../webhooks/service.ts';

/** What spending asks of the cards: the holder's own card, a card locked for an event, its decline fee, and money reaching a cancelled one. */
export type CardsForSpending = Pick<CardService, 'ownCard' | 'lockForEvent' | 'returnFromClosedCard'>;

/** What the spending service is built from; each part takes the few of these it uses. */
export interface SpendingDeps {
  db: Db;
  clock: Clock;
  ledger: LedgerService;
  events: EventPublisher;
  /** the account's webhooks hear of transactions and 3-D Secure codes */
  webhooks?: Pick<WebhookService, 'emit'>;
  messages: Pick<MessageService, 'post' | 'postMany'>;
  cards: CardsForSpending;
}
