import type { MessageKind } from '@portal/contract/messages';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import * as messageCalls from '../../../lib/generated/messages-calls.ts';
import { messageKeys, messageQueryOf } from './message-keys.ts';

/** GET /msg-center/station-msg/detail: one station message or announcement. */
export const getMessage = (kind: MessageKind, id: string) => call(messageCalls.detail, { query: messageQueryOf(kind, id) });

export const getMessageQueryOptions = (kind: MessageKind, id: string) =>
  queryOptions({ queryKey: messageKeys.detail(kind, id), queryFn: () => getMessage(kind, id) });

export const useMessage = (kind: MessageKind, id: string | null) =>
  useQuery({ ...getMessageQueryOptions(kind, id ?? ''), enabled: Boolean(id) });
