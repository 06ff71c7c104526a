import { CARD_BRANDS } from '@portal/contract/cards';
import { CURRENCIES } from '@portal/contract/enums';
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
  failNext: '/v1/simulator/fail-next',
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

/** The spending events' types. */
export const ISSUER_SPENDING_EVENTS = {
  authorization: 'authorization.request',
  settled: 'transaction.settled',
  reversed: 'authorization.reversed',
  refund: 'transaction.refund',
  adjust: 'transaction.adjust',
  threeDs: '3ds.otp',
} as const;
