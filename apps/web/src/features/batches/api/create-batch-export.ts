import type { BatchExportRequest } from '@portal/contract/card-batches';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import * as cardBatchCalls from '../../../lib/generated/card-batches-calls.ts';
import { cardKeys } from '../../../domain/cards/api/card-keys.ts';

/** POST /card/batch-export → {export_id}: a job writes the chosen cards to an .xlsx file. */
export const createBatchExport = (body: BatchExportRequest) => call(cardBatchCalls.createExport, { body });

export const useCreateBatchExport = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createBatchExport,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: cardKeys.exportList() }),
  });
};
