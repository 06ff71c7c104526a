import type { Db } from '../../db/engine.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Sealer } from '../../lib/sealed.ts';
import type { CardIssuer } from '../../providers/issuer/port.ts';
import type { CardService } from '../cards/service.ts';
import type { EventPublisher } from '../events/publisher.ts';
import type { LedgerService } from '../ledger/service.ts';
import type { MessageService } from '../messages/service.ts';

/** What batches ask of the cards: the checks of an opening, the holder, a card's failure, and the reveal's gate for full numbers. */
export type CardsForBatches = Pick<
  CardService,
  'productToOpen' | 'lockHolder' | 'checkHolder' | 'checkQuota' | 'holderOf' | 'find' | 'failStillOpening' | 'gate'
>;

/** What the batch services are built from; each part takes the few of these it uses. */
export interface BatchDeps {
  db: Db;
  clock: Clock;
  sealer: Sealer;
  ledger: LedgerService;
  issuer: CardIssuer;
  events: EventPublisher;
  messages: Pick<MessageService, 'post'>;
  cards: CardsForBatches;
  jobs: JobQueue;
}
