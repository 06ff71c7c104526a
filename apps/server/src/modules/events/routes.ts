import { EVENT_TYPES, type StreamEvent } from '@portal/contract/messages';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { MessageService } from '../messages/service.ts';
import type { SessionService } from '../sessions/service.ts';
import type { EventHub } from './hub.ts';

/**
 * GET /api/v1/events: a server-sent event stream for the signed-in account. It opens with the
 * unread count, then carries every new message and announcement, unread-count changes and a
 * heartbeat; it ends when the session ends.
 */
export const eventRoutes: FastifyPluginAsyncZod<{ hub: EventHub; messages: Pick<MessageService, 'unreadCount'>; sessions: SessionService }> = async (
  app,
  { hub, messages, sessions },
) => {
  app.get(
    '/events',
    {
      onRequest: sessions.guard(),
      schema: { tags: ['messages'], security: [{ bearer: [] }], summary: 'Server-sent events: messages, unread count, heartbeat' },
    },
    async (request, reply) => {
      const { merchant } = request;
      const { account, session } = request.auth;
      const count = await messages.unreadCount(merchant.id, account.id);
      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, {
        ...(reply.getHeaders() as Record<string, string>),
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      raw.socket?.setNoDelay(true);
      let open = true;
      const send = (event: StreamEvent) => {
        if (open) raw.write(`data: ${JSON.stringify(event)}\n\n`);
      };
      const close = () => {
        if (!open) return;
        open = false;
        unsubscribe();
        raw.end();
      };
      const unsubscribe = hub.subscribe({ merchantId: merchant.id, accountId: account.id, sessionId: session.id, send, close });
      request.raw.on('close', close);
      raw.on('error', close);
      send({ type: EVENT_TYPES.unread, unread_quantity: count });
    },
  );
};
