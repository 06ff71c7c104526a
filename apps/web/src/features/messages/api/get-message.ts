import type { MessageItem, MessageKind } from '@portal/contract/messages';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';
import { messageKeys } from './message-keys.ts';

/** GET /api/v1/msg-center/station-msg/detail: one station message or announcement. */
export const getMessage = (kind: MessageKind, id: string) =>
  http.get<MessageItem>('/api/v1/msg-center/station-msg/detail', { params: { id, kind } });

export const getMessageQueryOptions = (kind: MessageKind, id: string) =>
  queryOptions({ queryKey: messageKeys.detail(kind, id), queryFn: () => getMessage(kind, id) });

export const useMessage = (kind: MessageKind, id: string | null) =>
  useQuery({ ...getMessageQueryOptions(kind, id ?? ''), enabled: Boolean(id) });
