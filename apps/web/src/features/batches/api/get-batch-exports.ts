import { useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import * as cardBatchCalls from '../../../lib/generated/card-batches-calls.ts';
import { cardKeys } from '../../../domain/cards/api/card-keys.ts';
import { EXPORT_POLL_MS, isExportActive } from './get-batch-export-status.ts';

/** GET /card/batch-exports: the account's recent exports, newest first. */
export const getBatchExports = () => call(cardBatchCalls.exports);

export const useBatchExports = () =>
  useQuery({
    queryKey: cardKeys.exportList(),
    queryFn: getBatchExports,
    staleTime: 0,
    refetchInterval: (query) => (query.state.data?.items.some(isExportActive) ? EXPORT_POLL_MS : false),
  });
