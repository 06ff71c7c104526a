import type { CardBrand } from '@portal/contract/cards';
import type { Currency } from '@portal/contract/enums';
import type { CardStatusAnswer } from './protocol.ts';

/**
 * The card issuer, as the portal asks it for things (shared/design/cards.md "The issuer port"). Each call
 * answers once the issuer has accepted the request; the outcome arrives later as a signed event on
 * POST /api/v1/issuer/webhook (card.issued, card.failed, card.frozen, card.unfrozen, card.closed).
 * A call that throws was not accepted: the caller undoes what it changed. `getCard` asks what the
 * issuer knows of a card now, for when its events were lost (modules/card-reconcile/reconcile.ts).
 */
export interface IssueRequest {
  /** the portal's card id: every event about the card names it */
  card_id: string;
  product: { bin: string; brand: CardBrand; currency: Currency };
  holder: { real_name: string; latin_name: string | null };
}

export interface CardIssuer {
  openCard(request: IssueRequest): Promise<void>;
  freeze(cardId: string): Promise<void>;
  unfreeze(cardId: string): Promise<void>;
  close(cardId: string): Promise<void>;
  /** what the issuer knows of the card now; throws IssuerUnavailable when it does not answer */
  getCard(cardId: string): Promise<CardStatusAnswer>;
}

export type { CardStatusAnswer };

/** Thrown by an adapter when the issuer did not accept a request (unreachable, refused, timed out). */
export class IssuerUnavailable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'IssuerUnavailable';
  }
}

/** The events an issuer sends about cards, and what each carries besides card_id. */
export const ISSUER_CARD_EVENTS = {
  issued: 'card.issued',
  failed: 'card.failed',
  frozen: 'card.frozen',
  unfrozen: 'card.unfrozen',
  closed: 'card.closed',
} as const;

/**
 * The events an issuer sends about spending on a card (shared/design/cards.md "Spending"). An
 * authorization.request is answered in the webhook's own response: `{approved, decline_code?}`.
 */
export const ISSUER_SPENDING_EVENTS = {
  authorizationRequest: 'authorization.request',
  settled: 'transaction.settled',
  reversed: 'authorization.reversed',
  refund: 'transaction.refund',
  adjust: 'transaction.adjust',
  threeDsOtp: '3ds.otp',
} as const;
