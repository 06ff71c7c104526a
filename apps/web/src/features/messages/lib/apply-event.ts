import { EVENT_TYPES } from '@portal/contract/events';
import type { StreamEvent } from '@portal/contract/messages';
import type { QueryClient } from '@tanstack/react-query';
import { messageKeys } from '../api/message-keys.ts';
import { applyUnreadQuantity } from '../api/mark-read.ts';
import { useNoticesStore } from '../stores/notices.ts';

/**
 * What an event of the stream changes in the message center: the bell's count, the lists (fetched
 * again when next shown, at once when on screen), and for a new message a floating notice.
 */
export function applyMessageEvent(queryClient: QueryClient, event: StreamEvent, options: { notice: boolean }) {
  if (typeof event.unread_quantity === 'number') applyUnreadQuantity(queryClient, event.unread_quantity);
  void queryClient.invalidateQueries({ queryKey: messageKeys.lists() });
  if (event.type === EVENT_TYPES.unread || !event.id) return;
  if (options.notice) {
    useNoticesStore.getState().show({
      id: event.id,
      kind: event.kind ?? 'message',
      type: event.type,
      title: event.title ?? '',
      content: event.content ?? '',
      status: event.status ?? 'success',
    });
  }
}
