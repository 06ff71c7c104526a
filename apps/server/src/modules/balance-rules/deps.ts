import type { Db } from '../../db/engine.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { Clock } from '../../lib/clock.ts';
import type { MailSender } from '../../providers/mail/port.ts';
import type { BooksService } from '../books/service.ts';
import type { CardProductService } from '../card-products/service.ts';
import type { CardService } from '../cards/service.ts';
import type { LedgerService } from '../ledger/service.ts';
import type { MessageService } from '../messages/service.ts';
import type { WebhookService } from '../webhooks/service.ts';
import type { TeamService } from '../team/service.ts';

/**
 * What auto top-ups and low-balance alerts are built from: the ledger tells of watched balances, a top-up
 * is the card service's own (its fee, its budget, its checks), messages and e-mails go out from jobs.
 */
export interface BalanceRuleDeps {
  db: Db;
  clock: Clock;
  ledger: Pick<LedgerService, 'setWatch' | 'watchBalances'>;
  books: Pick<BooksService, 'cardBalances' | 'customerBalances' | 'cardsBelow'>;
  cards: Pick<CardService, 'recharge' | 'answeredUnderKey' | 'ownCard' | 'find'>;
  products: Pick<CardProductService, 'find'>;
  messages: Pick<MessageService, 'post'>;
  /** the account's webhooks */
  webhooks?: Pick<WebhookService, 'emit'>;
  mail: MailSender;
  team: Pick<TeamService, 'mailboxesOf'>;
  jobs: JobQueue;
  log: { warn(facts: object, message: string): void; error(facts: object, message: string): void };
}

/** Cards no rule is set on or in force on: cancelled, being cancelled, or never opened. */
export const CLOSED_CARD: ReadonlySet<string> = new Set(['DELETE', 'DELETING', 'FAIL']);

/** The queues: a rule's run (one job per crossing), a paused rule tried again once the wallet is funded, an alert's message and e-mails. */
export const FUNDING_QUEUES = {
  run: 'card-auto-recharge',
  resume: 'card-auto-recharge-resume',
  alert: 'balance-alert',
  pauseMail: 'card-auto-recharge-pause-mail',
} as const;

/** A watch's key in the ledger (ledger_watches): the rule of a card, the resume of paused rules, the alerts. */
export const watchKeys = {
  rule: (cardId: string) => `auto-recharge:${cardId}`,
  resume: (currency: string) => `auto-recharge-resume:${currency}`,
  wallet: (currency: string) => `alert:wallet:${currency}`,
  cards: 'alert:cards',
} as const;

/** A balance the ledger watches for every movement: the wallet of paused rules, whose credits try them again. */
export const EVERY_MOVEMENT = 9_000_000_000_000_000_000n;

/** The account's mark of a balance already below a threshold when it was set. */
export const markOf = { wallet: (currency: string) => `WALLET:${currency}`, card: (cardId: string) => `CARD:${cardId}` } as const;

/** A threshold crossed by a movement: from at or above it to below, or below it while marked (set above the balance). */
export const crossed = (before: bigint, after: bigint, threshold: bigint, marked: boolean) => after < threshold && (before >= threshold || marked);
