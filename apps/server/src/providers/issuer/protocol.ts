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
