import type { BatchExportList } from '@portal/contract/card-batches';
import { useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';
import { cardKeys } from './card-keys.ts';
import { EXPORT_POLL_MS, isExportActive } from './get-batch-export-status.ts';

/** GET /api/v1/card/batch-exports: the account's recent exports, newest first. */
export const getBatchExports = () => http.get<BatchExportList>('/api/v1/card/batch-exports');

export const useBatchExports = () =>
  useQuery({
    queryKey: cardKeys.exportList(),
    queryFn: getBatchExports,
    staleTime: 0,
    refetchInterval: (query) => (query.state.data?.items.some(isExportActive) ? EXPORT_POLL_MS : false),
  });
