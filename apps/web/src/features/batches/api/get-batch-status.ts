import { type BatchStatusAnswer, batchLimits } from '@portal/contract/card-batches';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import * as cardBatchCalls from '../../../lib/generated/card-batches-calls.ts';
import { cardKeys } from '../../../domain/cards/api/card-keys.ts';

/** GET /card/batch-create-card-status: the running batch (exist), else the latest, else zeros. */
export const getBatchStatus = () => call(cardBatchCalls.status);

export const isBatchRunning = (status: Pick<BatchStatusAnswer, 'exist' | 'status'> | undefined) => Boolean(status && (status.exist || status.status === 'RUNNING'));

/** Asked again every 3 s while a batch runs (spec §4); the stream's BATCH_PROGRESS moves it in between. */
export const getBatchStatusQueryOptions = () =>
  queryOptions({
    queryKey: cardKeys.batchStatus(),
    queryFn: getBatchStatus,
    staleTime: 0,
    refetchInterval: (query) => (isBatchRunning(query.state.data) ? batchLimits.pollSeconds * 1000 : false),
    refetchIntervalInBackground: true,
  });

export const useBatchStatus = () => useQuery(getBatchStatusQueryOptions());
