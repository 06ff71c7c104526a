import { cardBulkCalls } from '@portal/contract/api/card-bulk';
import { type BulkActionBody, bulkMovesMoney } from '@portal/contract/card-bulk';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { ok } from '../../http/envelope.ts';
import { idempotencyKey } from '../../http/idempotency.ts';
import { registerCall } from '../../http/register-call.ts';
import type { SecurityService } from '../security/service.ts';
import type { BulkCaller, BulkService } from './service.ts';

const callerOf = (request: FastifyRequest): BulkCaller => ({
  accountId: request.principal.account.id,
  memberId: request.principal.member.id,
  role: request.principal.member.role,
});

/**
 * Bulk actions on the account's cards: the review, the action (its money confirmed with the trade
 * password first), and its progress. Each sees only the cards, and the actions, the member may.
 */
export const cardBulkRoutes: FastifyPluginAsync<{ bulk: BulkService; tradePassword: Pick<SecurityService, 'tradePasswordHook'> }> = async (app, { bulk, tradePassword }) => {
  registerCall(app, cardBulkCalls.review, async (request) => ok(await bulk.review(request.merchant.id, callerOf(request), request.body)));

  registerCall(app, cardBulkCalls.create, async (request) => ok(await bulk.create(request.merchant.id, callerOf(request), request.body, idempotencyKey(request))), {
    preHandler: tradePassword.tradePasswordHook((body) => bulkMovesMoney((body as BulkActionBody).action), {
      answered: (request, key) => bulk.answeredUnderKey(request.principal.account.id, key),
    }),
  });

  registerCall(app, cardBulkCalls.status, async (request) => ok(await bulk.status(request.merchant.id, callerOf(request), request.params.id)));
};
