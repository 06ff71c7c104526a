import { cardTransactionExportQuery, cardTransactionPage, cardTransactionQuery } from '@portal/contract/cards';
import { cardControls, cardControlsBody } from '@portal/contract/card-spending';
import { chinaDateTime } from '@portal/contract/date-time';
import { envelope } from '@portal/contract/envelope';
import { XLSX_CONTENT_TYPE } from '@portal/contract/wallet';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../http/envelope.ts';
import type { SessionService } from '../sessions/service.ts';
import type { SpendingService } from './service.ts';

const tags = ['cards'];
const security = [{ bearer: [] }];
const idParams = z.object({ id: z.string().max(100) });

/** A card's transactions and controls (shared/design/cards.md "Spending"): each sees the signed-in account's own cards only. */
export const spendingRoutes: FastifyPluginAsyncZod<{ spending: SpendingService; sessions: SessionService }> = async (app, { spending, sessions }) => {
  app.addHook('onRequest', sessions.guard());

  app.get(
    '/card/:id/transactions',
    {
      schema: { tags, security, summary: "A card's transactions, newest first", params: idParams, querystring: cardTransactionQuery, response: { 200: envelope(cardTransactionPage) } },
    },
    async (request) => ok(await spending.transactions(request.merchant.id, request.auth.account.id, request.params.id, request.query)),
  );

  app.get(
    '/card/:id/transactions/export',
    {
      schema: {
        tags,
        security,
        summary: "A card's filtered transactions as an .xlsx spreadsheet (the raw file, not an envelope)",
        params: idParams,
        querystring: cardTransactionExportQuery,
      },
    },
    async (request, reply) => {
      const { card, stream } = await spending.exportTransactions(request.merchant.id, request.auth.account.id, request.params.id, request.query);
      const day = chinaDateTime(new Date()).slice(0, 10).replaceAll('-', '');
      const tail = card.last4 ?? 'card';
      const name = `卡片交易-${tail}-${day}.xlsx`;
      return reply
        .type(XLSX_CONTENT_TYPE)
        .header('content-disposition', `attachment; filename="card-transactions-${tail}-${day}.xlsx"; filename*=UTF-8''${encodeURIComponent(name)}`)
        .header('cache-control', 'no-store')
        .send(stream);
    },
  );

  app.get(
    '/card/:id/controls',
    { schema: { tags, security, summary: "A card's limits, blocked categories and allowed countries, with what was spent today and this month", params: idParams, response: { 200: envelope(cardControls) } } },
    async (request) => ok(await spending.controls(request.merchant.id, request.auth.account.id, request.params.id)),
  );

  app.put(
    '/card/:id/controls',
    {
      schema: { tags, security, summary: "Replace a card's controls; the next authorisation obeys them", params: idParams, body: cardControlsBody, response: { 200: envelope(cardControls) } },
    },
    async (request) => ok(await spending.saveControls(request.merchant.id, request.auth.account.id, request.params.id, request.body)),
  );
};
