import {
  cardAmountBody,
  cardItem,
  cardListQuery,
  cardPage,
  cardStatusBody,
  cardSummaryAnswer,
  deleteCardBody,
  openCardBody,
  patchCardBody,
  rechargeAnswer,
  withdrawAnswer,
} from '@portal/contract/cards';
import { envelope } from '@portal/contract/envelope';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../http/envelope.ts';
import { idempotencyKey } from '../../http/idempotency.ts';
import type { AccountService } from '../accounts/service.ts';
import type { SessionService } from '../sessions/service.ts';
import type { CardService } from './service.ts';

const tags = ['cards'];
const security = [{ bearer: [] }];
const idParams = z.object({ id: z.string().max(100) });
const keyed = z.object({ 'idempotency-key': z.string().optional() }).passthrough();

/** The trade password's one rule (accounts): what a call that moves money out of the wallet or a card asks first. */
export type TradePasswordGuard = Pick<AccountService, 'tradePasswordHook' | 'confirmTradePassword'>;

/**
 * The card calls (shared/design/cards.md): each sees the signed-in account's own cards only. Opening,
 * top-up, withdrawal and cancelling a card that holds money confirm the trade password before anything moves.
 */
export const cardRoutes: FastifyPluginAsyncZod<{ cards: CardService; sessions: SessionService; tradePassword: TradePasswordGuard }> = async (
  app,
  { cards, sessions, tradePassword },
) => {
  app.addHook('onRequest', sessions.guard());
  // each of them keyed: a key is its call's alone, and the same request again, once the call kept its
  // first answer under the key, is answered without asking anew
  const moneyOut = (call: 'open' | 'recharge' | 'withdraw') =>
    tradePassword.tradePasswordHook(() => true, {
      answered: (request, key) => cards.answeredUnderKey(request.merchant.id, request.auth.account.id, call, key),
    });

  app.get(
    '/card',
    { schema: { tags, security, summary: "A page of the account's cards, newest first", querystring: cardListQuery, response: { 200: envelope(cardPage) } } },
    async (request) => ok(await cards.list(request.merchant.id, request.auth.account.id, request.query)),
  );

  app.get(
    '/card/summary',
    { schema: { tags, security, summary: 'Cards per status and what they hold per currency', response: { 200: envelope(cardSummaryAnswer) } } },
    async (request) => ok(await cards.summary(request.merchant.id, request.auth.account.id)),
  );

  app.post(
    '/card',
    {
      schema: {
        tags,
        security,
        summary: 'Open a card: its cost is held on the wallet until the issuer answers (Idempotency-Key; trx_password once set)',
        headers: keyed,
        body: openCardBody,
        response: { 200: envelope(cardItem) },
      },
      preHandler: moneyOut('open'),
    },
    async (request) => ok(await cards.open(request.merchant.id, request.auth.account.id, request.body, idempotencyKey(request))),
  );

  app.get(
    '/card/:id',
    { schema: { tags, security, summary: 'One card', params: idParams, response: { 200: envelope(cardItem) } } },
    async (request) => ok(await cards.detail(request.merchant.id, request.auth.account.id, request.params.id)),
  );

  app.patch(
    '/card/:id',
    { schema: { tags, security, summary: "Change a card's nickname", params: idParams, body: patchCardBody, response: { 200: envelope(cardItem) } } },
    async (request) => ok(await cards.rename(request.merchant.id, request.auth.account.id, request.params.id, request.body.nickname)),
  );

  app.put(
    '/card/:id/status',
    { schema: { tags, security, summary: 'Freeze or unfreeze a card', params: idParams, body: cardStatusBody, response: { 200: envelope(cardItem) } } },
    async (request) => ok(await cards.changeStatus(request.merchant.id, request.auth.account.id, request.params.id, request.body.action)),
  );

  app.delete(
    '/card/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Cancel a card: its balance goes back to the wallet when the issuer confirms (trx_password once set, for a card that holds money)',
        params: idParams,
        body: deleteCardBody,
        response: { 200: envelope(cardItem) },
      },
    },
    async (request) => {
      const accountId = request.auth.account.id;
      const confirmMoneyOut = () => tradePassword.confirmTradePassword(accountId, request.body?.trx_password);
      return ok(await cards.remove(request.merchant.id, accountId, request.params.id, confirmMoneyOut));
    },
  );

  app.post(
    '/card/:id/recharge',
    {
      schema: {
        tags,
        security,
        summary: 'Top up a card from the wallet, with the top-up fee (Idempotency-Key; trx_password once set)',
        headers: keyed,
        params: idParams,
        body: cardAmountBody,
        response: { 200: envelope(rechargeAnswer) },
      },
      preHandler: moneyOut('recharge'),
    },
    async (request) =>
      ok(await cards.recharge(request.merchant.id, request.auth.account.id, request.params.id, request.body.amount, idempotencyKey(request))),
  );

  app.post(
    '/card/:id/withdraw',
    {
      schema: {
        tags,
        security,
        summary: 'Take money from a card back to the wallet (Idempotency-Key; trx_password once set)',
        headers: keyed,
        params: idParams,
        body: cardAmountBody,
        response: { 200: envelope(withdrawAnswer) },
      },
      preHandler: moneyOut('withdraw'),
    },
    async (request) =>
      ok(await cards.withdraw(request.merchant.id, request.auth.account.id, request.params.id, request.body.amount, idempotencyKey(request))),
  );
};
