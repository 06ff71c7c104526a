import { cardBatchCalls } from '@portal/contract/api/card-batches';
import { type BatchExportBody, exportsSensitive } from '@portal/contract/card-batches';
import { XLSX_CONTENT_TYPE } from '@portal/contract/wallet';
import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../http/envelope.ts';
import { idempotencyKey } from '../../http/idempotency.ts';
import { registerCall } from '../../http/register-call.ts';
import { cardScopeOf } from '../cards/service.ts';
import type { SecurityService } from '../security/service.ts';
import type { BatchService, CardExportService } from './service.ts';
import { sessionOf } from '../../http/principal.ts';

/** The trade password's one rule (accounts): what a batch, or an export with full numbers, confirms first. */
type TradePasswordGuard = Pick<SecurityService, 'tradePasswordHook'>;

/**
 * Batch opening and bulk export: each sees the signed-in account's own batches, exports and
 * cards only. A batch, and an export with full numbers, confirm the trade password first.
 */
export const cardBatchRoutes: FastifyPluginAsync<{ batches: BatchService; exports: CardExportService; tradePassword: TradePasswordGuard }> = async (
  app,
  { batches, exports, tradePassword },
) => {
  registerCall(
    app,
    cardBatchCalls.create,
    async (request) =>
      ok(await batches.create(request.merchant.id, sessionOf(request).account.id, request.body, idempotencyKey(request), sessionOf(request).member.id)),
    {
      preHandler: tradePassword.tradePasswordHook(() => true, {
        answered: (request, key) => batches.answeredUnderKey(request.merchant.id, sessionOf(request).account.id, key),
      }),
    },
  );

  registerCall(app, cardBatchCalls.status, async (request) => ok(await batches.status(request.merchant.id, cardScopeOf(sessionOf(request)))));

  registerCall(
    app,
    cardBatchCalls.createExport,
    async (request) =>
      ok(await exports.create(request.merchant.id, sessionOf(request), request.body, { ip: request.ip, userAgent: request.headers['user-agent'] ?? '' })),
    { preHandler: tradePassword.tradePasswordHook((body) => exportsSensitive(body as BatchExportBody)) },
  );

  registerCall(app, cardBatchCalls.exportStatus, async (request) => ok(await exports.status(request.merchant.id, sessionOf(request), request.query.export_id)));

  registerCall(app, cardBatchCalls.exports, async (request) => ok(await exports.list(request.merchant.id, sessionOf(request))));

  registerCall(app, cardBatchCalls.exportFile, async (request, reply) => {
    const { stream, fileName, size } = await exports.file(request.merchant.id, sessionOf(request), request.params.export_id);
    return reply
      .type(XLSX_CONTENT_TYPE)
      .header('content-length', size)
      .header('content-disposition', `attachment; filename="cards-export.xlsx"; filename*=UTF-8''${encodeURIComponent(fileName)}`)
      .header('cache-control', 'no-store')
      .send(stream);
  });
};
