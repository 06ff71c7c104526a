import type { AutoRechargeBrief } from '@portal/contract/balance-rules';
import type { CardRisk } from '@portal/contract/card-spending';
import type { Db, Tx } from '../../db/engine.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Sealer } from '../../lib/sealed.ts';
import type { CardIssuer } from '../../providers/issuer/port.ts';
import type { CardProductService } from '../card-products/service.ts';
import type { EventPublisher } from '../events/publisher.ts';
import type { BooksService } from '../books/service.ts';
import type { LedgerService } from '../ledger/service.ts';
import type { MessageService } from '../messages/service.ts';
import type { CardRow } from './store.ts';
import type { WebhookService } from '../webhooks/service.ts';

/** What a card's list item says of its spending: this month's, the decline rate and the risk. */
export interface SpendingFigures {
  spentThisMonth: bigint;
  declineRate: number;
  risk: CardRisk;
  riskReason: string | null;
  /** The card's last authorisation (null: none yet) */
  lastUsedAt: Date | null;
}

export const NO_SPENDING: SpendingFigures = { spentThisMonth: 0n, declineRate: 0, risk: 'NORMAL', riskReason: null, lastUsedAt: null };

/** The spending figures of a page of cards, in one read (the spending module answers them). */
export type SpendingFiguresOf = (cardIds: string[], tx?: Tx) => Promise<Map<string, SpendingFigures>>;

/** What each of a page of cards has of an auto top-up rule (null: none on); the balance-rules module answers it. */
export type AutoRechargeOf = (cardIds: string[], tx?: Tx) => Promise<Map<string, AutoRechargeBrief>>;

/** A card's tags were replaced, inside `tx` with the card locked. */
export type TagsChanged = (tx: Tx, card: CardRow) => Promise<void>;

/** A card's opening ended, issued or failed, inside `tx` with the card locked (a batch counts its cards by it). */
export type OpeningSettled = (tx: Tx, card: CardRow) => Promise<void>;

/** What the card service is built from; each part takes the few of these it uses. */
export interface CardDeps {
  db: Db;
  clock: Clock;
  sealer: Sealer;
  ledger: LedgerService;
  /** what the cards and the customer hold */
  books: Pick<BooksService, 'cardBalances' | 'cardAmount'>;
  issuer: CardIssuer;
  events: EventPublisher;
  /** the account's webhooks hear of a card's changes (optional: the demo data and a few tools build cards without them) */
  webhooks?: Pick<WebhookService, 'emit'>;
  messages: Pick<MessageService, 'post'>;
  /** the products and the holder's verification: what an opening is checked against */
  products: Pick<CardProductService, 'find' | 'productToOpen' | 'lockHolder' | 'checkHolder' | 'checkQuota'>;
  spendingFigures: SpendingFiguresOf;
  autoRechargeOf?: AutoRechargeOf;
  /** the card's tags changed, inside `tx` with the card locked (the rules of its tags follow it at once) */
  tagsChanged?: TagsChanged;
  openingSettled: OpeningSettled;
}
