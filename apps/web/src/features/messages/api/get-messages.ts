import type { MessagePage } from '@portal/contract/messages';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';
import { type MessageListParams, messageKeys } from './message-keys.ts';

/** GET /api/v1/msg-center/station-msg/list: one page of station messages or announcements, newest first. */
export const getMessages = ({ kind, read, page, pageSize }: MessageListParams) =>
  http.get<MessagePage>('/api/v1/msg-center/station-msg/list', { params: { kind, read, page, page_size: pageSize } });

export const getMessagesQueryOptions = (params: MessageListParams) =>
  queryOptions({ queryKey: messageKeys.list(params), queryFn: () => getMessages(params), staleTime: 0 });

/** The page keeps showing the previous page while the next one loads. */
export const useMessages = (params: MessageListParams) => useQuery({ ...getMessagesQueryOptions(params), placeholderData: keepPreviousData });

/** How many unread items one kind has: the total of its unread list. */
export const useUnreadTotal = (kind: MessageListParams['kind']) =>
  useQuery({ ...getMessagesQueryOptions({ kind, read: 'unread', page: 1, pageSize: 1 }), select: (page) => page.total });
