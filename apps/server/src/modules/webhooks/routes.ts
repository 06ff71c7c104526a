import { webhookCalls } from '@portal/contract/api/webhooks';
import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../http/envelope.ts';
import { registerCall } from '../../http/register-call.ts';
import type { WebhookService } from './service.ts';

/** /settings → 开发者: the account's webhook endpoints and their deliveries. */
export const webhookRoutes: FastifyPluginAsync<{ webhooks: WebhookService }> = async (app, { webhooks }) => {
  registerCall(app, webhookCalls.list, async (request) => ok(await webhooks.list(request.principal)));
  registerCall(app, webhookCalls.create, async (request) => ok(await webhooks.create(request.merchant.id, request.principal, request.body)));
  registerCall(app, webhookCalls.update, async (request) => ok(await webhooks.update(request.principal, request.params.id, request.body)));
  registerCall(app, webhookCalls.remove, async (request) => ok(await webhooks.remove(request.principal, request.params.id)));
  registerCall(app, webhookCalls.rotateSecret, async (request) => ok(await webhooks.rotateSecret(request.principal, request.params.id)));
  registerCall(app, webhookCalls.deliveries, async (request) => ok(await webhooks.deliveries(request.principal, request.params.id, request.query)));
  registerCall(app, webhookCalls.redeliver, async (request) => ok(await webhooks.redeliver(request.principal, request.params.id)));
};
