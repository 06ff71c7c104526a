import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import * as messageCalls from '../../../lib/generated/messages-calls.ts';
import { type MessageListParams, messageKeys, messageListQueryOf } from './message-keys.ts';

/** GET /msg-center/station-msg/list: one page of station messages or announcements, newest first. */
export const getMessages = (params: MessageListParams) => call(messageCalls.list, { query: messageListQueryOf(params) });

export const getMessagesQueryOptions = (params: MessageListParams) =>
  queryOptions({ queryKey: messageKeys.list(params), queryFn: () => getMessages(params), staleTime: 0 });

/** The page keeps showing the previous page while the next one loads. */
export const useMessages = (params: MessageListParams) => useQuery({ ...getMessagesQueryOptions(params), placeholderData: keepPreviousData });

/** How many unread items one kind has: the total of its unread list. */
export const useUnreadTotal = (kind: MessageListParams['kind']) =>
  useQuery({ ...getMessagesQueryOptions({ kind, read: 'unread', page: 1, pageSize: 1 }), select: (page) => page.total });
