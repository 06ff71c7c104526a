import { consoleCalls } from '@portal/contract/api/console';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { ok } from '../../http/envelope.ts';
import { registerCall } from '../../http/register-call.ts';
import { type MerchantRow, toMerchantView } from '../merchants/service.ts';
import type { OperatorService } from './service.ts';

const callerOf = (request: FastifyRequest) => ({ ip: request.ip, userAgent: String(request.headers['user-agent'] ?? '') });
const consoleMerchant = (merchant: MerchantRow) => ({ id: merchant.id, name: merchant.name });

/** /api/console/v1: the console's sign-in, overview, audit log and operators. */
export const consoleRoutes: FastifyPluginAsync<{ operators: OperatorService }> = async (app, { operators }) => {
  registerCall(app, consoleCalls.merchant, async (request) => ok(toMerchantView(request.merchant)));
  registerCall(app, consoleCalls.login, async (request) => ok(await operators.login(consoleMerchant(request.merchant), request.body, callerOf(request))));
  registerCall(app, consoleCalls.totp, async (request) =>
    ok(await operators.giveCode(consoleMerchant(request.merchant), request.operator, request.body.code, callerOf(request))),
  );
  registerCall(app, consoleCalls.logout, async (request) => {
    await operators.logout(request.operator, callerOf(request));
    return ok(null);
  });
  registerCall(app, consoleCalls.me, async (request) => ok(await operators.me(request.operator)));
  registerCall(app, consoleCalls.overview, async (request) => ok(await operators.overview(request.merchant.id)));
  registerCall(app, consoleCalls.audit, async (request) => ok(await operators.audit(request.merchant.id, request.query)));
  registerCall(app, consoleCalls.exportAudit, async (request, reply) => {
    const actor = { channel: 'CONSOLE' as const, operator: request.operator.operator, ip: request.ip };
    const { csv, day } = await operators.exportAudit(request.merchant.id, request.query, actor);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="audit-${day}.csv"; filename*=UTF-8''${encodeURIComponent(`审计日志-${day}.csv`)}`)
      .header('cache-control', 'no-store')
      .send(csv);
  });
  registerCall(app, consoleCalls.auditOperators, async (request) => ok({ items: (await operators.list(request.merchant.id)).map(({ id, email, name }) => ({ id, email, name })) }));
  registerCall(app, consoleCalls.operators, async (request) => ok({ items: await operators.list(request.merchant.id) }));
  registerCall(app, consoleCalls.createOperator, async (request) =>
    ok(await operators.createByAdmin(consoleMerchant(request.merchant), request.operator, request.body, callerOf(request))),
  );
  registerCall(app, consoleCalls.disableOperator, async (request) =>
    ok(await operators.disableById(consoleMerchant(request.merchant), request.operator, request.params.id, request.body.totp, callerOf(request))),
  );
  registerCall(app, consoleCalls.resetOperator, async (request) =>
    ok(await operators.resetById(consoleMerchant(request.merchant), request.operator, request.params.id, request.body.totp, callerOf(request))),
  );
  registerCall(app, consoleCalls.changePassword, async (request) => {
    await operators.changePassword(consoleMerchant(request.merchant), request.operator, request.body, callerOf(request));
    return ok(null);
  });
};
