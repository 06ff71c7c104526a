import { z } from 'zod';
import { MESSAGE_KINDS, messageItem, messageListQuery, messagePage, readStatusAnswer, readStatusBody, unreadQuantity } from '../messages.ts';
import { defineCalls, member } from './call.ts';

const tags = ['messages'];

/** The message centre: station messages and announcements of the signed-in account. */
export const messageCalls = defineCalls({
  list: {
    method: 'GET',
    path: '/msg-center/station-msg/list',
    query: messageListQuery,
    answer: messagePage,
    summary: 'Station messages (kind=message) or announcements (kind=announcement), newest first, paginated',
    tags,
    who: member('messages.read'),
  },
  detail: {
    method: 'GET',
    path: '/msg-center/station-msg/detail',
    query: z.object({ id: z.uuid({ error: '消息不存在' }), kind: z.enum(MESSAGE_KINDS).default('message') }),
    answer: messageItem,
    summary: 'One station message or announcement',
    tags,
    who: member('messages.read'),
  },
  markRead: {
    method: 'PUT',
    path: '/msg-center/station-msg/read-status',
    body: readStatusBody,
    answer: readStatusAnswer,
    summary: 'Mark one message or announcement read ({id}), or every one ({all: true}, optionally of one kind)',
    tags,
    who: member('messages.read'),
  },
  unreadQuantity: {
    method: 'GET',
    path: '/msg-center/station-msg/unread-quantity',
    answer: unreadQuantity,
    summary: 'Unread station messages plus unread announcements',
    tags,
    who: member('messages.read'),
  },
});
