import { messageCalls } from '@portal/contract/api/messages';
import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../http/envelope.ts';
import { registerCall } from '../../http/register-call.ts';
import type { Principal } from '../../http/principal.ts';
import type { MessageService } from './service.ts';

/** The signed-in member as a reader of the account's messages. */
const viewerOf = ({ account, member }: Principal) => ({ accountId: account.id, memberId: member.id, role: member.role });

export const messageRoutes: FastifyPluginAsync<{ messages: MessageService }> = async (app, { messages }) => {
  registerCall(app, messageCalls.list, async (request) => ok(await messages.list(request.merchant.id, viewerOf(request.principal), request.query)));

  registerCall(app, messageCalls.detail, async (request) =>
    ok(await messages.detail(request.merchant.id, viewerOf(request.principal), request.query.kind, request.query.id)),
  );

  registerCall(app, messageCalls.markRead, async (request) =>
    ok(await messages.markRead(request.merchant.id, viewerOf(request.principal), request.body)),
  );

  registerCall(app, messageCalls.unreadQuantity, async (request) =>
    ok({ count: await messages.unreadCount(request.merchant.id, viewerOf(request.principal)) }),
  );
};
