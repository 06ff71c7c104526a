import type { BatchExportStatus } from '@portal/contract/card-batches';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import * as cardBatchCalls from '../../../lib/generated/card-batches-calls.ts';
import { cardKeys } from '../../../domain/cards/api/card-keys.ts';

/** While an export is written its status is asked this often (its EXPORT_PROGRESS events move it in between). */
export const EXPORT_POLL_MS = 2_000;

export const isExportActive = (status: Pick<BatchExportStatus, 'status'> | null | undefined) => status?.status === 'PENDING' || status?.status === 'RUNNING';

/** GET /card/batch-export-status?export_id=: one export's progress. */
export const getBatchExportStatus = (id: string) => call(cardBatchCalls.exportStatus, { query: { export_id: id } });

export const useBatchExportStatus = (id: string | null) =>
  useQuery({
    queryKey: cardKeys.exportStatus(id ?? ''),
    queryFn: () => getBatchExportStatus(id as string),
    enabled: id !== null,
    staleTime: 0,
    refetchInterval: (query) => (isExportActive(query.state.data) ? EXPORT_POLL_MS : false),
  });
