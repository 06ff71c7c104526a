import { eventCalls } from '@portal/contract/api/events';
import { EVENT_TYPES, type StreamEvent } from '@portal/contract/messages';
import type { FastifyPluginAsync } from 'fastify';
import { registerCall } from '../../http/register-call.ts';
import type { StreamReader } from './publisher.ts';
import type { EventHub } from './hub.ts';
import { sessionOf } from '../../http/principal.ts';

/** How many messages and announcements the account has not read: the count a stream opens with (messages). */
export type UnreadCount = (merchantId: string, reader: StreamReader) => Promise<number>;

/**
 * The server-sent event stream of the signed-in account. It opens with the unread count, then carries
 * every new message and announcement, unread-count changes and a heartbeat; it ends when the session ends.
 */
export const eventRoutes: FastifyPluginAsync<{ hub: EventHub; unreadCount: UnreadCount }> = async (app, { hub, unreadCount }) => {
  registerCall(app, eventCalls.stream, async (request, reply) => {
    const { merchant } = request;
    const { account, member, session } = sessionOf(request);
    const count = await unreadCount(merchant.id, { accountId: account.id, memberId: member.id, role: member.role });
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
    const unsubscribe = hub.subscribe({ merchantId: merchant.id, accountId: account.id, memberId: member.id, role: member.role, sessionId: session.id, send, close });
    request.raw.on('close', close);
    raw.on('error', close);
    send({ type: EVENT_TYPES.unread, unread_quantity: count });
  });
};
