import { defineCalls, session } from './call.ts';

/**
 * The signed-in account's stream of server-sent events (each a `StreamEvent` of messages.ts): it
 * opens with the unread count, then carries every new message and announcement, unread-count changes
 * and a heartbeat, and ends when the session ends.
 */
export const eventCalls = defineCalls({
  stream: {
    method: 'GET',
    path: '/events',
    raw: 'event-stream',
    summary: 'Server-sent events: messages, unread count, heartbeat',
    tags: ['messages'],
    who: session(),
  },
});
