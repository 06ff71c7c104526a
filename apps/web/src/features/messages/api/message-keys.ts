import type { MessageKind } from '@portal/contract/messages';

/** What a list of the message center asks for. */
export interface MessageListParams {
  kind: MessageKind;
  read: 'all' | 'unread';
  page: number;
  pageSize: number;
}

/** Query keys of the message center. */
export const messageKeys = {
  all: ['messages'] as const,
  lists: () => [...messageKeys.all, 'list'] as const,
  list: (params: MessageListParams) => [...messageKeys.lists(), params] as const,
  details: () => [...messageKeys.all, 'detail'] as const,
  detail: (kind: MessageKind, id: string) => [...messageKeys.details(), kind, id] as const,
  unreadQuantity: () => [...messageKeys.all, 'unread-quantity'] as const,
};
