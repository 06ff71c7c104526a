import { envelope } from '@portal/contract/envelope';
import { MESSAGE_KINDS, messageItem, messageListQuery, messagePage, readStatusAnswer, readStatusBody, unreadQuantity } from '@portal/contract/messages';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../http/envelope.ts';
import type { SessionService } from '../sessions/service.ts';
import type { MessageService } from './service.ts';

const tags = ['messages'];
const security = [{ bearer: [] }];

export const messageRoutes: FastifyPluginAsyncZod<{ messages: MessageService; sessions: SessionService }> = async (app, { messages, sessions }) => {
  app.addHook('onRequest', sessions.guard());

  app.get(
    '/msg-center/station-msg/list',
    {
      schema: {
        tags,
        security,
        summary: 'Station messages (kind=message) or announcements (kind=announcement), newest first, paginated',
        querystring: messageListQuery,
        response: { 200: envelope(messagePage) },
      },
    },
    async (request) => ok(await messages.list(request.merchant.id, request.auth.account.id, request.query)),
  );

  app.get(
    '/msg-center/station-msg/detail',
    {
      schema: {
        tags,
        security,
        summary: 'One station message or announcement',
        querystring: z.object({ id: z.uuid({ error: '消息不存在' }), kind: z.enum(MESSAGE_KINDS).default('message') }),
        response: { 200: envelope(messageItem) },
      },
    },
    async (request) => ok(await messages.detail(request.merchant.id, request.auth.account.id, request.query.kind, request.query.id)),
  );

  app.put(
    '/msg-center/station-msg/read-status',
    {
      schema: {
        tags,
        security,
        summary: 'Mark one message or announcement read ({id}), or every one ({all: true}, optionally of one kind)',
        body: readStatusBody,
        response: { 200: envelope(readStatusAnswer) },
      },
    },
    async (request) => ok(await messages.markRead(request.merchant.id, request.auth.account.id, request.body)),
  );

  app.get(
    '/msg-center/station-msg/unread-quantity',
    {
      schema: { tags, security, summary: 'Unread station messages plus unread announcements', response: { 200: envelope(unreadQuantity) } },
    },
    async (request) => ok({ count: await messages.unreadCount(request.merchant.id, request.auth.account.id) }),
  );
};
