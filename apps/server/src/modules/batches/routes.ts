import {
  batchCreateCardAnswer,
  batchCreateCardBody,
  batchExportAnswer,
  batchExportBody,
  batchExportList,
  batchExportStatusAnswer,
  batchExportStatusQuery,
  batchStatusAnswer,
  type BatchExportBody,
  exportsSensitive,
} from '@portal/contract/card-batches';
import { envelope } from '@portal/contract/envelope';
import { XLSX_CONTENT_TYPE } from '@portal/contract/wallet';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../http/envelope.ts';
import { idempotencyKey } from '../../http/idempotency.ts';
import type { AccountService } from '../accounts/service.ts';
import type { SessionService } from '../sessions/service.ts';
import type { BatchService, CardExportService } from './service.ts';

const tags = ['cards'];
const security = [{ bearer: [] }];
const keyed = z.object({ 'idempotency-key': z.string().optional() }).passthrough();

/** The trade password's one rule (accounts): what a batch, or an export with full numbers, confirms first. */
type TradePasswordGuard = Pick<AccountService, 'tradePasswordHook'>;

/**
 * Batch opening and bulk export (issue 14): each sees the signed-in account's own batches, exports and
 * cards only. A batch, and an export with full numbers, confirm the trade password first.
 */
export const cardBatchRoutes: FastifyPluginAsyncZod<{
  batches: BatchService;
  exports: CardExportService;
  sessions: SessionService;
  tradePassword: TradePasswordGuard;
}> = async (app, { batches, exports, sessions, tradePassword }) => {
  app.addHook('onRequest', sessions.guard());

  app.post(
    '/batch-create-card',
    {
      schema: {
        tags,
        security,
        summary: 'Open 2–500 cards of a product at once: the whole cost is held, a job opens them (Idempotency-Key; trx_password once set)',
        headers: keyed,
        body: batchCreateCardBody,
        response: { 200: envelope(batchCreateCardAnswer) },
      },
      preHandler: tradePassword.tradePasswordHook(() => true, {
        answered: (request, key) => batches.answeredUnderKey(request.merchant.id, request.auth.account.id, key),
      }),
    },
    async (request) => ok(await batches.create(request.merchant.id, request.auth.account.id, request.body, idempotencyKey(request))),
  );

  app.get(
    '/card/batch-create-card-status',
    { schema: { tags, security, summary: "The account's running batch (exist), else its latest", response: { 200: envelope(batchStatusAnswer) } } },
    async (request) => ok(await batches.status(request.merchant.id, request.auth.account.id)),
  );

  app.post(
    '/card/batch-export',
    {
      schema: {
        tags,
        security,
        summary: 'Export the chosen cards to an .xlsx file (full numbers only with an access code, and trx_password once set)',
        body: batchExportBody,
        response: { 200: envelope(batchExportAnswer) },
      },
      preHandler: tradePassword.tradePasswordHook((body) => exportsSensitive(body as BatchExportBody)),
    },
    async (request) =>
      ok(await exports.create(request.merchant.id, request.auth, request.body, { ip: request.ip, userAgent: request.headers['user-agent'] ?? '' })),
  );

  app.get(
    '/card/batch-export-status',
    {
      schema: {
        tags,
        security,
        summary: "An export's progress (without export_id: the account's latest; null when there is none)",
        querystring: batchExportStatusQuery,
        response: { 200: envelope(batchExportStatusAnswer) },
      },
    },
    async (request) => ok(await exports.status(request.merchant.id, request.auth, request.query.export_id)),
  );

  app.get(
    '/card/batch-exports',
    { schema: { tags, security, summary: "The account's recent exports, newest first", response: { 200: envelope(batchExportList) } } },
    async (request) => ok(await exports.list(request.merchant.id, request.auth)),
  );

  app.get(
    '/card/batch-export/:export_id/file',
    {
      schema: {
        tags,
        security,
        summary: "An export's .xlsx file, raw (kept 24 hours; one with full numbers only to the session that made it)",
        params: z.object({ export_id: z.string().max(100) }),
      },
    },
    async (request, reply) => {
      const { stream, fileName, size } = await exports.file(request.merchant.id, request.auth, request.params.export_id);
      return reply
        .type(XLSX_CONTENT_TYPE)
        .header('content-length', size)
        .header('content-disposition', `attachment; filename="cards-export.xlsx"; filename*=UTF-8''${encodeURIComponent(fileName)}`)
        .header('cache-control', 'no-store')
        .send(stream);
    },
  );
};
