import type { UnreadQuantity } from '@portal/contract/messages';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';
import { messageKeys } from './message-keys.ts';

/** GET /api/v1/msg-center/station-msg/unread-quantity: unread station messages plus unread announcements. */
export const getUnreadQuantity = () => http.get<UnreadQuantity>('/api/v1/msg-center/station-msg/unread-quantity');

export const getUnreadQuantityQueryOptions = () =>
  // the event stream keeps it current; it is fetched again only when the stream says so
  queryOptions({ queryKey: messageKeys.unreadQuantity(), queryFn: getUnreadQuantity, staleTime: Number.POSITIVE_INFINITY });

export const useUnreadQuantity = () => useQuery({ ...getUnreadQuantityQueryOptions(), select: (answer) => answer.count });
