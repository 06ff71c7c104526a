import type { Db } from '../../db/engine.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { Clock } from '../../lib/clock.ts';
import type { BalanceRuleService } from '../balance-rules/service.ts';
import type { BooksService } from '../books/service.ts';
import type { CardProductService } from '../card-products/service.ts';
import type { CardService } from '../cards/service.ts';
import type { EventPublisher } from '../events/publisher.ts';
import type { LedgerService } from '../ledger/service.ts';
import type { MessageService } from '../messages/service.ts';
import type { WebhookService } from '../webhooks/service.ts';
import type { SpendingService } from '../spending/service.ts';
import type { TeamService } from '../team/service.ts';

/**
 * What bulk actions are built from: each card is acted on through the one-card services (their rules
 * stay theirs), the money through the ledger, the job through the queue.
 */
export interface BulkDeps {
  db: Db;
  clock: Clock;
  ledger: LedgerService;
  books: Pick<BooksService, 'cardBalances' | 'customerBalances'>;
  products: Pick<CardProductService, 'find'>;
  cards: Pick<CardService, 'changeStatus' | 'remove' | 'recharge' | 'withdraw' | 'answeredUnderKey'>;
  spending: Pick<SpendingService, 'saveControls'>;
  team: Pick<TeamService, 'giveCard'>;
  /** auto top-up rules: set on a card as its own form sets them, and following a card's tags */
  rules: Pick<BalanceRuleService, 'setRule' | 'switchOff' | 'tagsChanged'>;
  events: EventPublisher;
  messages: Pick<MessageService, 'post'>;
  /** the account's webhooks */
  webhooks?: Pick<WebhookService, 'emit'>;
  jobs: JobQueue;
  /** where a card tried again for an error no rule names is told (the operator's log) */
  log: { warn(facts: object, message: string): void };
}

export interface BulkOptions {
  /** seconds a worker may hold a card before another takes it as lost */
  leaseSeconds: number;
  /** jobs sent per bulk action: each takes cards until none is left, so as many processes share it */
  workers: number;
}
