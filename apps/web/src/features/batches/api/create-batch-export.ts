import type { BatchExportBody } from '@portal/contract/card-batches';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';
import { cardKeys } from './card-keys.ts';

/** POST /api/v1/card/batch-export → {export_id}: a job writes the chosen cards to an .xlsx file. */
export const createBatchExport = (body: BatchExportBody) => http.post<{ export_id: string }>('/api/v1/card/batch-export', body);

export const useCreateBatchExport = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createBatchExport,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: cardKeys.exportList() }),
  });
};
