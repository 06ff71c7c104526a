import { messageCalls } from '@portal/contract/api/messages';
import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../http/envelope.ts';
import { registerCall } from '../../http/register-call.ts';
import type { MessageService } from './service.ts';

export const messageRoutes: FastifyPluginAsync<{ messages: MessageService }> = async (app, { messages }) => {
  registerCall(app, messageCalls.list, async (request) => ok(await messages.list(request.merchant.id, request.principal.account.id, request.query)));

  registerCall(app, messageCalls.detail, async (request) =>
    ok(await messages.detail(request.merchant.id, request.principal.account.id, request.query.kind, request.query.id)),
  );

  registerCall(app, messageCalls.markRead, async (request) =>
    ok(await messages.markRead(request.merchant.id, request.principal.account.id, request.body)),
  );

  registerCall(app, messageCalls.unreadQuantity, async (request) =>
    ok({ count: await messages.unreadCount(request.merchant.id, request.principal.account.id) }),
  );
};
