import type { Db } from '../../db/engine.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Sealer } from '../../lib/sealed.ts';
import type { CardIssuer } from '../../providers/issuer/port.ts';
import type { CardProductService } from '../card-products/service.ts';
import type { CardRevealService } from '../card-reveal/service.ts';
import type { CardService } from '../cards/service.ts';
import type { EventPublisher } from '../events/publisher.ts';
import type { BooksService } from '../books/service.ts';
import type { LedgerService } from '../ledger/service.ts';
import type { MessageService } from '../messages/service.ts';
import type { WebhookService } from '../webhooks/service.ts';

/** What batches ask of the cards: a card, and its failure when the issuer would not take it. */
export type CardsForBatches = Pick<CardService, 'find' | 'failStillOpening'>;

/** What batches ask of the products: the checks every opening passes, and the holder as the issuer is told. */
export type ProductsForBatches = Pick<CardProductService, 'productToOpen' | 'lockHolder' | 'checkHolder' | 'checkQuota' | 'holderOf'>;

/** What the batch services are built from; each part takes the few of these it uses. */
export interface BatchDeps {
  db: Db;
  clock: Clock;
  sealer: Sealer;
  ledger: LedgerService;
  /** what the cards hold, for an export's balance column */
  books: Pick<BooksService, 'cardBalances'>;
  issuer: CardIssuer;
  events: EventPublisher;
  messages: Pick<MessageService, 'post'>;
  /** the account's webhooks */
  webhooks?: Pick<WebhookService, 'emit'>;
  cards: CardsForBatches;
  products: ProductsForBatches;
  /** the reveal's gate, which an export with full numbers passes */
  gate: CardRevealService['gate'];
  jobs: JobQueue;
}
