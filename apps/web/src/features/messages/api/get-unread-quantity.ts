import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import * as messageCalls from '../../../lib/generated/messages-calls.ts';
import { messageKeys } from './message-keys.ts';

/** GET /msg-center/station-msg/unread-quantity: unread station messages plus unread announcements. */
export const getUnreadQuantity = () => call(messageCalls.unreadQuantity);

export const getUnreadQuantityQueryOptions = () =>
  // the event stream keeps it current; it is fetched again only when the stream says so
  queryOptions({ queryKey: messageKeys.unreadQuantity(), queryFn: getUnreadQuantity, staleTime: Number.POSITIVE_INFINITY });

export const useUnreadQuantity = () => useQuery({ ...getUnreadQuantityQueryOptions(), select: (answer) => answer.count });
