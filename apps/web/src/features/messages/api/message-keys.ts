import type { MessageKind } from '@portal/contract/messages';
import * as messageCalls from '../../../lib/generated/messages-calls.ts';
import { queryKeyOf } from '../../../lib/query-keys.ts';

/** What a list of the message center asks for. */
export interface MessageListParams {
  kind: MessageKind;
  read: 'all' | 'unread';
  page: number;
  pageSize: number;
}

/** The query of GET /msg-center/station-msg/list for one page. */
export const messageListQueryOf = ({ kind, read, page, pageSize }: MessageListParams) => ({ kind, read, page, page_size: pageSize });

/** The query of GET /msg-center/station-msg/detail. */
export const messageQueryOf = (kind: MessageKind, id: string) => ({ id, kind });

/** The message center's answers, each keyed by its call (lib/query-keys.ts); a key without its query names every list or detail. */
export const messageKeys = {
  lists: () => queryKeyOf(messageCalls.list),
  list: (params: MessageListParams) => queryKeyOf(messageCalls.list, { query: messageListQueryOf(params) }),
  details: () => queryKeyOf(messageCalls.detail),
  detail: (kind: MessageKind, id: string) => queryKeyOf(messageCalls.detail, { query: messageQueryOf(kind, id) }),
  unreadQuantity: () => queryKeyOf(messageCalls.unreadQuantity),
};
