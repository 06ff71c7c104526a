import { CARD_BRANDS } from '@portal/contract/cards';
import { CURRENCIES } from '@portal/contract/enums';
import { AMOUNT_PATTERN, fromMinorUnits, toMinorUnits } from '@portal/contract/money';
import { z } from 'zod';

/**
 * The issuer's HTTP API as the portal calls it (shared/design/cards.md "The issuer port"): every
 * request is a POST with a JSON body signed like the issuer's webhooks (`Issuer-Signature`, HMAC-SHA256
 * of "t.body" with ISSUER_WEBHOOK_SECRET), answered 202 once accepted. The outcome comes later as an
 * event on the portal's webhook. The simulator (simulator-server.ts) serves it, the HTTP adapter
 * (http.ts) calls it, so both read their paths and bodies from here.
 */
export const ISSUER_PATHS = {
  cards: '/v1/cards',
  cardAction: (cardId: string, action: CardAction) => `/v1/cards/${encodeURIComponent(cardId)}/${action}`,
  /** the status query: what the issuer knows of a card now (answered 200, not 202) */
  cardStatus: (cardId: string) => `/v1/cards/${encodeURIComponent(cardId)}/status`,
  failNext: '/v1/simulator/fail-next',
  purchases: '/v1/simulator/purchases',
  followUps: '/v1/simulator/follow-ups',
} as const;

export const CARD_ACTIONS = ['freeze', 'unfreeze', 'close'] as const;
export type CardAction = (typeof CARD_ACTIONS)[number];

/** POST /v1/cards: IssueRequest (port.ts). */
export const issueRequestBody = z.object({
  card_id: z.string().min(1).max(100),
  product: z.object({ bin: z.string().regex(/^\d{6,8}$/), brand: z.enum(CARD_BRANDS), currency: z.enum(CURRENCIES) }),
  holder: z.object({ real_name: z.string().max(100), latin_name: z.string().max(100).nullable() }),
});

/**
 * POST /v1/cards/:id/<action>: the body names the card and the action again, so that a signature,
 * which covers the body only, cannot be carried over to another card or another action.
 */
export const cardActionBody = z.object({ card_id: z.string().min(1).max(100), action: z.enum(CARD_ACTIONS) });

/** POST /v1/cards/:id/status: the body names the card again, so a signature cannot be carried to another card. */
export const cardStatusBody = z.object({ card_id: z.string().min(1).max(100) });

/** A card's lifecycle at the issuer once issued. */
export const ISSUER_CARD_STATES = ['ACTIVE', 'FROZEN', 'CLOSED'] as const;
export type IssuerCardState = (typeof ISSUER_CARD_STATES)[number];

/**
 * The answer to the status query: what the events would have carried. PENDING: accepted, not decided
 * yet; ISSUED: the numbers as card.issued carries them and the card's lifecycle now; FAILED: the reason
 * as card.failed carries it; UNKNOWN: the issuer holds no request for this card id.
 */
export const cardStatusAnswer = z.discriminatedUnion('status', [
  z.object({ status: z.literal('PENDING'), card_id: z.string().min(1).max(100) }),
  z.object({
    status: z.literal('ISSUED'),
    card_id: z.string().min(1).max(100),
    pan: z.string().regex(/^\d{12,19}$/),
    cvv: z.string().regex(/^\d{3,4}$/),
    exp_month: z.string().regex(/^(0[1-9]|1[0-2])$/),
    exp_year: z.string().regex(/^20\d{2}$/),
    state: z.enum(ISSUER_CARD_STATES),
  }),
  z.object({ status: z.literal('FAILED'), card_id: z.string().min(1).max(100), reason: z.string().max(500) }),
  z.object({ status: z.literal('UNKNOWN'), card_id: z.string().min(1).max(100) }),
]);
export type CardStatusAnswer = z.infer<typeof cardStatusAnswer>;

/** POST /v1/simulator/fail-next (the simulator only): the next issuance fails with this reason. */
export const failNextBody = z.object({ reason: z.string().trim().min(1).max(200) });

// ── card spending (shared/design/cards.md "Spending"): the events' data, as the portal checks them ──

/** An amount as the issuer writes it: a decimal string with at most two places, above zero. */
const issuerAmount = z.string().regex(/^(0|[1-9]\d{0,14})(\.\d{1,2})?$/).refine((text) => !/^0(\.0{1,2})?$/.test(text));

/** authorization.request: `id` is the authorisation's own id; the answer is `authorizationAnswer`. */
export const authorizationRequestData = z.object({
  id: z.string().min(1).max(100),
  card_id: z.string().min(1).max(100),
  amount: issuerAmount,
  currency: z.string().min(3).max(3),
  merchant_name: z.string().trim().min(1).max(200),
  mcc: z.string().regex(/^\d{4}$/),
  country: z.string().regex(/^[A-Z]{2}$/),
});

/** The body the portal answers an authorization.request with (the webhook's own response). */
export const authorizationAnswer = z.object({ approved: z.boolean(), decline_code: z.string().optional() });
export type AuthorizationAnswer = z.infer<typeof authorizationAnswer>;

/** transaction.settled: the final amount of an earlier authorisation. */
export const settlementData = z.object({ id: z.string().min(1).max(100), authorization_id: z.string().min(1).max(100), amount: issuerAmount });

/** authorization.reversed: the merchant let the authorisation go before it settled. */
export const reversalData = z.object({ id: z.string().min(1).max(100), authorization_id: z.string().min(1).max(100) });

/** transaction.refund: money back to the card; `original_id` names the authorisation refunded, when known. */
export const refundData = z.object({
  id: z.string().min(1).max(100),
  card_id: z.string().min(1).max(100),
  amount: issuerAmount,
  merchant_name: z.string().trim().min(1).max(200),
  original_id: z.string().min(1).max(100).optional(),
});

/** transaction.adjust: the issuer credits the card (ADJUST_IN). */
export const adjustmentData = z.object({
  id: z.string().min(1).max(100),
  card_id: z.string().min(1).max(100),
  amount: issuerAmount,
  memo: z.string().trim().max(200).default(''),
});

/** 3ds.otp: a 3-D Secure code for the holder to type at the merchant. */
export const threeDsData = z.object({
  id: z.string().min(1).max(100),
  card_id: z.string().min(1).max(100),
  code: z.string().regex(/^[0-9A-Za-z]{4,10}$/),
  merchant_name: z.string().trim().min(1).max(200),
  amount: issuerAmount,
  currency: z.string().min(3).max(3),
  expires_at: z.string().refine((text) => !Number.isNaN(Date.parse(text))),
});


/** A money amount above zero, with at most two decimals, as the events carry it: always two ("12.50"). */
export const eventAmount = z
  .string()
  .trim()
  .regex(AMOUNT_PATTERN, 'an amount such as 12.34')
  .refine((value) => toMinorUnits(value) > 0n, 'an amount above zero')
  .transform((value) => fromMinorUnits(toMinorUnits(value)));

/** What follows a decision on an authorisation: its settlement (by default for the authorised amount), its reversal, or a refund (after settling it). */
export const followUp = z.discriminatedUnion('action', [
  z.object({ action: z.literal('settle'), amount: eventAmount.optional() }),
  z.object({ action: z.literal('reverse') }),
  z.object({ action: z.literal('refund'), amount: eventAmount }),
]);
export type FollowUp = z.input<typeof followUp>;

/**
 * POST /v1/simulator/purchases (the simulator only): a purchase on a card. The simulator asks the
 * portal (authorization.request, answered in the webhook's own response), optionally first sends a
 * 3-D Secure code (3ds.otp), and when approved sends what `follow_up` says.
 */
export const purchaseBody = z.object({
  card_id: z.string().min(1).max(100),
  amount: eventAmount,
  /** ISO 4217; any three capitals, so that a purchase in another currency than the card's can be tried */
  currency: z.string().regex(/^[A-Z]{3}$/),
  merchant_name: z.string().trim().min(1).max(100),
  mcc: z.string().regex(/^\d{4}$/),
  country: z.string().regex(/^[A-Z]{2}$/),
  three_ds: z.boolean().optional(),
  follow_up: followUp.optional(),
  /** false: answer once decided, the follow-up only queued (load); else wait a little for its delivery */
  wait: z.boolean().optional(),
});
export type PurchaseRequest = z.input<typeof purchaseBody>;

/** POST /v1/simulator/follow-ups (the simulator only): settle, reverse or refund an earlier authorisation. */
export const followUpBody = z.object({
  authorization_id: z.string().min(1).max(100),
  follow_up: followUp,
  wait: z.boolean().optional(),
});
export type FollowUpRequest = z.input<typeof followUpBody>;

/** How a delivery after the decision went by the time the simulator answered. */
export const DELIVERY_STATES = ['delivered', 'retrying', 'given_up'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/** One event sent after the decision (or a 3-D Secure code before it). */
export interface SentEvent {
  id: string;
  type: string;
  amount?: string;
  delivery: DeliveryState;
}

/** The simulator's answer to a purchase. */
export interface PurchaseAnswer {
  authorization_id: string;
  card_id: string;
  amount: string;
  currency: string;
  approved: boolean;
  decline_code: string | null;
  /**
   * who decided: the portal (its webhook answered a decision), or the issuer itself, when the portal
   * gave no decision within AUTHORIZATION_TIMEOUT_MS (then declined as ISSUER_DECLINED, `reason` says why)
   */
  decided_by: 'portal' | 'issuer';
  reason: string | null;
  /** from sending the request to the portal's answer */
  latency_ms: number;
  three_ds: { code: string; expires_at: string; delivery: DeliveryState } | null;
  followed: SentEvent[];
}

/** The simulator's answer to a follow-up. */
export interface FollowUpAnswer {
  authorization_id: string;
  card_id: string;
  followed: SentEvent[];
}

/** How long the portal has to answer an authorisation request; after that the issuer declines it. */
export const AUTHORIZATION_TIMEOUT_MS = 2_000;
