import { developerCalls } from '@portal/contract/api/developer';
import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../http/envelope.ts';
import { registerCall } from '../../http/register-call.ts';
import type { SecurityService } from '../security/service.ts';
import type { ApiKeyService } from './service.ts';

/** /settings → 开发者: the account's API keys. */
export const apiKeyRoutes: FastifyPluginAsync<{ keys: ApiKeyService; tradePassword: Pick<SecurityService, 'tradePasswordHook'> }> = async (app, { keys, tradePassword }) => {
  registerCall(app, developerCalls.apiKeys, async (request) => ok(await keys.list(request.principal)));
  registerCall(app, developerCalls.createApiKey, async (request) => ok(await keys.create(request.merchant.id, request.principal, request.body)), {
    preHandler: tradePassword.tradePasswordHook(),
  });
  registerCall(app, developerCalls.revokeApiKey, async (request) => ok(await keys.revoke(request.principal, request.params.id)));
  registerCall(app, developerCalls.rotateApiKey, async (request) => ok(await keys.rotate(request.principal, request.params.id)));
};
