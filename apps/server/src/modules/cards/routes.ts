import { cardCalls } from '@portal/contract/api/cards';
import { spendingCalls } from '@portal/contract/api/spending';
import { chinaDateTime } from '@portal/contract/date-time';
import { XLSX_CONTENT_TYPE } from '@portal/contract/wallet';
import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../http/envelope.ts';
import { idempotencyKey } from '../../http/idempotency.ts';
import { registerCall } from '../../http/register-call.ts';
import type { AccountService } from '../accounts/service.ts';
import type { CardService } from './service.ts';

/** The trade password's one rule (accounts): what a call that moves money out of the wallet or a card asks first. */
export type TradePasswordGuard = Pick<AccountService, 'tradePasswordHook' | 'confirmTradePassword'>;

/**
 * The card calls (shared/design/cards.md): each sees the signed-in account's own cards only. Opening,
 * top-up, withdrawal and cancelling a card that holds money confirm the trade password before anything moves.
 */
export const cardRoutes: FastifyPluginAsync<{ cards: CardService; tradePassword: TradePasswordGuard }> = async (app, { cards, tradePassword }) => {
  // each of them keyed: a key is its call's alone, and the same request again, once the call kept its
  // first answer under the key, is answered without asking anew
  const moneyOut = (call: 'open' | 'recharge' | 'withdraw') =>
    tradePassword.tradePasswordHook(() => true, {
      answered: (request, key) => cards.answeredUnderKey(request.merchant.id, request.principal.account.id, call, key),
    });

  registerCall(app, cardCalls.verification, async (request) => ok(await cards.verification(request.merchant.id, request.principal.account.id)));

  registerCall(app, cardCalls.saveVerification, async (request) =>
    ok(await cards.saveVerification(request.merchant.id, request.principal.account.id, request.body)),
  );

  registerCall(app, cardCalls.openedAvailable, async (request) => ok(await cards.openedAvailable(request.merchant.id, request.principal.account.id)));

  registerCall(app, cardCalls.list, async (request) => ok(await cards.list(request.merchant.id, request.principal.account.id, request.query)));

  registerCall(app, cardCalls.summary, async (request) => ok(await cards.summary(request.merchant.id, request.principal.account.id)));

  registerCall(
    app,
    cardCalls.open,
    async (request) => ok(await cards.open(request.merchant.id, request.principal.account.id, request.body, idempotencyKey(request))),
    { preHandler: moneyOut('open') },
  );

  registerCall(app, cardCalls.detail, async (request) => ok(await cards.detail(request.merchant.id, request.principal.account.id, request.params.id)));

  registerCall(app, cardCalls.rename, async (request) =>
    ok(await cards.rename(request.merchant.id, request.principal.account.id, request.params.id, request.body.nickname)),
  );

  registerCall(app, cardCalls.changeStatus, async (request) =>
    ok(await cards.changeStatus(request.merchant.id, request.principal.account.id, request.params.id, request.body.action)),
  );

  registerCall(app, cardCalls.remove, async (request) => {
    const accountId = request.principal.account.id;
    const confirmMoneyOut = () => tradePassword.confirmTradePassword(accountId, request.body?.trx_password);
    return ok(await cards.remove(request.merchant.id, accountId, request.params.id, confirmMoneyOut));
  });

  registerCall(
    app,
    cardCalls.recharge,
    async (request) =>
      ok(await cards.recharge(request.merchant.id, request.principal.account.id, request.params.id, request.body.amount, idempotencyKey(request))),
    { preHandler: moneyOut('recharge') },
  );

  registerCall(
    app,
    cardCalls.withdraw,
    async (request) =>
      ok(await cards.withdraw(request.merchant.id, request.principal.account.id, request.params.id, request.body.amount, idempotencyKey(request))),
    { preHandler: moneyOut('withdraw') },
  );

  registerCall(app, cardCalls.reveal, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return ok(
      await cards.reveal(request.merchant.id, request.principal, request.params.id, request.body ?? {}, {
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? '',
      }),
    );
  });

  registerCall(app, spendingCalls.transactions, async (request) =>
    ok(await cards.transactions(request.merchant.id, request.principal.account.id, request.params.id, request.query)),
  );

  registerCall(app, spendingCalls.exportTransactions, async (request, reply) => {
    const { card, stream } = await cards.exportTransactions(request.merchant.id, request.principal.account.id, request.params.id, request.query);
    const day = chinaDateTime(new Date()).slice(0, 10).replaceAll('-', '');
    const tail = card.last4 ?? 'card';
    const name = `卡片交易-${tail}-${day}.xlsx`;
    return reply
      .type(XLSX_CONTENT_TYPE)
      .header('content-disposition', `attachment; filename="card-transactions-${tail}-${day}.xlsx"; filename*=UTF-8''${encodeURIComponent(name)}`)
      .header('cache-control', 'no-store')
      .send(stream);
  });

  registerCall(app, spendingCalls.controls, async (request) => ok(await cards.controls(request.merchant.id, request.principal.account.id, request.params.id)));

  registerCall(app, spendingCalls.saveControls, async (request) =>
    ok(await cards.saveControls(request.merchant.id, request.principal.account.id, request.params.id, request.body)),
  );
};
