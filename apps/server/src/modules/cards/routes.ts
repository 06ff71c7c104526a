import { cardCalls } from '@portal/contract/api/cards';
import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../http/envelope.ts';
import { idempotencyKey } from '../../http/idempotency.ts';
import { registerCall } from '../../http/register-call.ts';
import type { SecurityService } from '../security/service.ts';
import { cardScopeOf } from './scope.ts';
import type { CardService } from './service.ts';

/** The trade password's one rule (security): what a call that moves money out of the wallet or a card asks first. */
export type TradePasswordGuard = Pick<SecurityService, 'tradePasswordHook' | 'confirmTradePassword'>;

/**
 * The card calls (shared/design/cards.md): each sees the account's cards the signed-in member may see
 * (scope.ts: a MEMBER only those they hold), any other as none. Opening,
 * top-up, withdrawal and cancelling a card that holds money confirm the trade password before anything moves.
 */
export const cardRoutes: FastifyPluginAsync<{ cards: CardService; tradePassword: TradePasswordGuard }> = async (app, { cards, tradePassword }) => {
  // each of them keyed: a key is its call's alone, and the same request again, once the call kept its
  // first answer under the key, is answered without asking anew
  const moneyOut = (call: 'open' | 'recharge' | 'withdraw') =>
    tradePassword.tradePasswordHook(() => true, {
      answered: (request, key) => cards.answeredUnderKey(request.merchant.id, request.principal.account.id, call, key),
    });

  registerCall(app, cardCalls.list, async (request) => ok(await cards.list(request.merchant.id, cardScopeOf(request.principal), request.query)));

  registerCall(app, cardCalls.tagCounts, async (request) => ok(await cards.tagCounts(request.merchant.id, cardScopeOf(request.principal))));

  registerCall(app, cardCalls.setTags, async (request) =>
    ok(await cards.setTags(request.merchant.id, cardScopeOf(request.principal), request.params.id, request.body.tags)),
  );

  registerCall(app, cardCalls.summary, async (request) => ok(await cards.summary(request.merchant.id, cardScopeOf(request.principal))));

  registerCall(
    app,
    cardCalls.open,
    async (request) =>
      ok(await cards.open(request.merchant.id, request.principal.account.id, request.body, idempotencyKey(request), request.principal.member.id)),
    { preHandler: moneyOut('open') },
  );

  registerCall(app, cardCalls.detail, async (request) => ok(await cards.detail(request.merchant.id, cardScopeOf(request.principal), request.params.id)));

  registerCall(app, cardCalls.rename, async (request) =>
    ok(await cards.rename(request.merchant.id, cardScopeOf(request.principal), request.params.id, request.body.nickname)),
  );

  registerCall(app, cardCalls.changeStatus, async (request) =>
    ok(await cards.changeStatus(request.merchant.id, cardScopeOf(request.principal), request.params.id, request.body.action)),
  );

  registerCall(app, cardCalls.remove, async (request) => {
    const confirmMoneyOut = () => tradePassword.confirmTradePassword(request.principal.member.id, request.body?.trx_password);
    return ok(await cards.remove(request.merchant.id, cardScopeOf(request.principal), request.params.id, confirmMoneyOut));
  });

  registerCall(
    app,
    cardCalls.recharge,
    async (request) =>
      ok(await cards.recharge(request.merchant.id, cardScopeOf(request.principal), request.params.id, request.body.amount, idempotencyKey(request))),
    { preHandler: moneyOut('recharge') },
  );

  registerCall(
    app,
    cardCalls.withdraw,
    async (request) =>
      ok(await cards.withdraw(request.merchant.id, cardScopeOf(request.principal), request.params.id, request.body.amount, idempotencyKey(request))),
    { preHandler: moneyOut('withdraw') },
  );
};
