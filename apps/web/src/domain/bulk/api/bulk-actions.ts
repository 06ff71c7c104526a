import type { BulkActionAnswer, BulkActionBody } from '@portal/contract/card-bulk';
import { IDEMPOTENCY_HEADER } from '@portal/contract/cards';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import * as cardBulkCalls from '../../../lib/generated/card-bulk-calls.ts';
import { queryKeyOf } from '../../../lib/query-keys.ts';
import { refreshAroundCard } from '../../cards/api/card-cache.ts';

export const bulkKeys = {
  detail: (id: string) => queryKeyOf(cardBulkCalls.status, { params: { id } }),
};

/** POST /card/bulk-actions/review: how many cards, and for money the whole cost and the wallet after. */
export const reviewBulkAction = (body: BulkActionBody) => call(cardBulkCalls.review, { body });

export const useReviewBulkAction = () => useMutation({ mutationFn: reviewBulkAction });

/** POST /card/bulk-actions: answers the action's id at once; a job acts on each card. */
export const createBulkAction = (body: BulkActionBody, idempotencyKey: string) =>
  call(cardBulkCalls.create, { body, headers: { [IDEMPOTENCY_HEADER]: idempotencyKey } });

export const useCreateBulkAction = () =>
  useMutation({ mutationFn: ({ body, idempotencyKey }: { body: BulkActionBody; idempotencyKey: string }) => createBulkAction(body, idempotencyKey) });

/** the event stream moves the figures as they change; asked again now and then in case it lapsed */
const POLL_MS = 15_000;

/** GET /card/bulk-actions/{id}: BULK_ACTION_PROGRESS events keep it current, and it is asked again while not done. */
export const getBulkActionQueryOptions = (id: string) =>
  queryOptions({
    queryKey: bulkKeys.detail(id),
    queryFn: () => call(cardBulkCalls.status, { params: { id } }),
    staleTime: 0,
    refetchInterval: (query) => (query.state.data?.status === 'DONE' ? false : POLL_MS),
    refetchIntervalInBackground: true,
  });

/** The bulk action's progress; once it is done, the cards and the wallet are read again. */
export function useBulkAction(id: string | null) {
  const queryClient = useQueryClient();
  return useQuery({
    ...getBulkActionQueryOptions(id ?? ''),
    enabled: id !== null,
    select: (answer: BulkActionAnswer) => {
      if (answer.status === 'DONE' && !refreshed.has(answer.id)) {
        refreshed.add(answer.id);
        queueMicrotask(() => refreshAroundCard(queryClient, null));
      }
      return answer;
    },
  });
}

/** The actions whose end has had the card screens read again (once each per page load). */
const refreshed = new Set<string>();
