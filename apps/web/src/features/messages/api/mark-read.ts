import type { MessageKind, UnreadQuantity } from '@portal/contract/messages';
import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import * as messageCalls from '../../../lib/generated/messages-calls.ts';
import { messageKeys } from './message-keys.ts';

export type MarkReadBody = { id: string } | { all: true; kind?: MessageKind };

/** PUT /msg-center/station-msg/read-status: one item ({id}) or every one ({all: true, kind?}) read. */
export const markRead = (body: MarkReadBody) => call(messageCalls.markRead, { body });

/** After a change of read state: the new count, and every list and detail fetched again. */
export function applyUnreadQuantity(queryClient: QueryClient, count: number) {
  queryClient.setQueryData<UnreadQuantity>(messageKeys.unreadQuantity(), { count });
}

export async function markReadAndRefresh(queryClient: QueryClient, body: MarkReadBody) {
  const answer = await markRead(body);
  applyUnreadQuantity(queryClient, answer.unread_quantity);
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: messageKeys.lists() }),
    queryClient.invalidateQueries({ queryKey: messageKeys.details() }),
  ]);
  return answer;
}

export const useMarkRead = () => {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: (body: MarkReadBody) => markReadAndRefresh(queryClient, body) });
};
