import { consoleCalls } from '@portal/contract/api/console';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { ok } from '../../http/envelope.ts';
import { idempotencyKey } from '../../http/idempotency.ts';
import { registerCall } from '../../http/register-call.ts';
import type { ConsoleMoneyService } from './service.ts';

const callerOf = (request: FastifyRequest) => ({ ip: request.ip, userAgent: String(request.headers['user-agent'] ?? '') });
const merchantOf = (request: FastifyRequest) => ({ id: request.merchant.id, name: request.merchant.name });

/** /api/console/v1: the customers' deposits, the bank statement, and money requests under four eyes. */
export const consoleMoneyRoutes: FastifyPluginAsync<{ money: ConsoleMoneyService }> = async (app, { money }) => {
  registerCall(app, consoleCalls.deposits, async (request) => ok(await money.deposits(request.merchant.id, request.query)));
  registerCall(app, consoleCalls.depositReceipt, async (request, reply) => {
    const { type, bytes } = await money.receipt(request.merchant.id, request.params.id);
    return reply.type(type).header('cache-control', 'private, no-store').header('content-disposition', 'inline').send(bytes);
  });
  registerCall(app, consoleCalls.confirmDeposit, async (request) =>
    ok(await money.confirmDeposit(merchantOf(request), request.operator.operator, request.params.id, request.body, callerOf(request))),
  );
  registerCall(app, consoleCalls.rejectDeposit, async (request) =>
    ok(await money.rejectDeposit(merchantOf(request), request.operator.operator, request.params.id, request.body.reason, callerOf(request))),
  );
  registerCall(app, consoleCalls.importStatement, async (request) => ok(await money.importStatement(merchantOf(request), request.operator.operator, request.body, callerOf(request))));
  registerCall(app, consoleCalls.unmatchedLines, async (request) => ok(await money.unmatchedLines(request.merchant.id)));
  registerCall(app, consoleCalls.creditLine, async (request) =>
    ok(await money.creditLine(merchantOf(request), request.operator.operator, request.params.bank_txn_id, request.body, idempotencyKey(request), callerOf(request))),
  );
  registerCall(app, consoleCalls.moneyRequests, async (request) => ok(await money.list(request.merchant.id, request.query)));
  registerCall(app, consoleCalls.proposeMoney, async (request) =>
    ok(await money.propose(merchantOf(request), request.operator.operator, request.body, idempotencyKey(request), callerOf(request))),
  );
  registerCall(app, consoleCalls.approveMoney, async (request) =>
    ok(await money.approve(merchantOf(request), request.operator.operator, request.params.id, request.body.totp, callerOf(request))),
  );
  registerCall(app, consoleCalls.rejectMoney, async (request) =>
    ok(await money.reject(merchantOf(request), request.operator.operator, request.params.id, request.body.reason, callerOf(request))),
  );
};
