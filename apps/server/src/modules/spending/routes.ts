import { spendingCalls } from '@portal/contract/api/spending';
import { chinaDateTime } from '@portal/contract/date-time';
import { XLSX_CONTENT_TYPE } from '@portal/contract/wallet';
import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../http/envelope.ts';
import { registerCall } from '../../http/register-call.ts';
import { cardScopeOf } from '../cards/service.ts';
import type { SpendingService } from './service.ts';

/** A card's transactions and controls (shared/design/cards.md "Spending"): each sees the cards the signed-in member may see only (cards/scope.ts). */
export const spendingRoutes: FastifyPluginAsync<{ spending: SpendingService }> = async (app, { spending }) => {
  registerCall(app, spendingCalls.acrossTransactions, async (request) =>
    ok(await spending.acrossTransactions(request.merchant.id, cardScopeOf(request.principal), request.query)),
  );

  registerCall(app, spendingCalls.exportAcrossTransactions, async (request, reply) => {
    const stream = await spending.exportAcrossTransactions(request.merchant.id, cardScopeOf(request.principal), request.query);
    const day = chinaDateTime(new Date()).slice(0, 10).replaceAll('-', '');
    const name = `卡片消费-${day}.xlsx`;
    return reply
      .type(XLSX_CONTENT_TYPE)
      .header('content-disposition', `attachment; filename="card-spending-${day}.xlsx"; filename*=UTF-8''${encodeURIComponent(name)}`)
      .header('cache-control', 'no-store')
      .send(stream);
  });

  registerCall(app, spendingCalls.spendingSummary, async (request) =>
    ok(await spending.spendingSummary(request.merchant.id, cardScopeOf(request.principal), request.query)),
  );

  registerCall(app, spendingCalls.transactions, async (request) =>
    ok(await spending.transactions(request.merchant.id, cardScopeOf(request.principal), request.params.id, request.query)),
  );

  registerCall(app, spendingCalls.exportTransactions, async (request, reply) => {
    const { card, stream } = await spending.exportTransactions(request.merchant.id, cardScopeOf(request.principal), request.params.id, request.query);
    const day = chinaDateTime(new Date()).slice(0, 10).replaceAll('-', '');
    const tail = card.last4 ?? 'card';
    const name = `卡片交易-${tail}-${day}.xlsx`;
    return reply
      .type(XLSX_CONTENT_TYPE)
      .header('content-disposition', `attachment; filename="card-transactions-${tail}-${day}.xlsx"; filename*=UTF-8''${encodeURIComponent(name)}`)
      .header('cache-control', 'no-store')
      .send(stream);
  });

  registerCall(app, spendingCalls.controls, async (request) => ok(await spending.controls(request.merchant.id, cardScopeOf(request.principal), request.params.id)));

  registerCall(app, spendingCalls.saveControls, async (request) =>
    ok(await spending.saveControls(request.merchant.id, cardScopeOf(request.principal), request.params.id, request.body)),
  );
};
