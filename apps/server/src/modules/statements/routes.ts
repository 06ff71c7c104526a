import { statementCalls } from '@portal/contract/api/statements';
import type { FastifyPluginAsync } from 'fastify';
import { registerCall } from '../../http/register-call.ts';
import type { StatementService } from './service.ts';

/** GET /statements: the signed-in account's own statement, as the raw file. */
export const statementRoutes: FastifyPluginAsync<{ statements: StatementService }> = async (app, { statements }) => {
  registerCall(app, statementCalls.statement, async (request, reply) => {
    const { account } = request.principal;
    const file = await statements.statement(request.merchant, { id: account.id, name: account.name }, request.query);
    return reply
      .type(file.contentType)
      .header('content-disposition', `attachment; filename="${file.asciiName}"; filename*=UTF-8''${encodeURIComponent(file.fileName)}`)
      .header('cache-control', 'no-store')
      .send(file.body);
  });
};
