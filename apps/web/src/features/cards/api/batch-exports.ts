import type { BatchExportBody, BatchExportList, BatchExportStatus } from '@portal/contract/card-batches';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';
import { fileNameFrom, saveBlob } from '../../../lib/save-file.ts';
import { bulkExportText } from '../../../locales/zh-CN/bulk-export.ts';
import { cardKeys } from './card-keys.ts';

/** While an export is written its status is asked this often (its EXPORT_PROGRESS events move it in between). */
const EXPORT_POLL_MS = 2_000;

export const isExportActive = (status: Pick<BatchExportStatus, 'status'> | null | undefined) => status?.status === 'PENDING' || status?.status === 'RUNNING';

/** POST /api/v1/card/batch-export → {export_id}: a job writes the chosen cards to an .xlsx file. */
export const createBatchExport = (body: BatchExportBody) => http.post<{ export_id: string }>('/api/v1/card/batch-export', body);

export const useCreateBatchExport = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createBatchExport,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: cardKeys.exportList() }),
  });
};

/** GET /api/v1/card/batch-export-status?export_id=: one export's progress. */
export const getBatchExportStatus = (id: string) => http.get<BatchExportStatus | null>('/api/v1/card/batch-export-status', { params: { export_id: id } });

export const useBatchExportStatus = (id: string | null) =>
  useQuery({
    queryKey: cardKeys.exportStatus(id ?? ''),
    queryFn: () => getBatchExportStatus(id as string),
    enabled: id !== null,
    staleTime: 0,
    refetchInterval: (query) => (isExportActive(query.state.data) ? EXPORT_POLL_MS : false),
  });

/** GET /api/v1/card/batch-exports: the account's recent exports, newest first. */
export const getBatchExports = () => http.get<BatchExportList>('/api/v1/card/batch-exports');

export const useBatchExports = () =>
  useQuery({
    queryKey: cardKeys.exportList(),
    queryFn: getBatchExports,
    staleTime: 0,
    refetchInterval: (query) => (query.state.data?.items.some(isExportActive) ? EXPORT_POLL_MS : false),
  });

/** GET /api/v1/card/batch-export/{id}/file: the raw .xlsx, saved under the name the server gave it. */
export const downloadBatchExport = async (id: string) => {
  const response = await http.download(`/api/v1/card/batch-export/${encodeURIComponent(id)}/file`);
  const disposition = response.headers['content-disposition'];
  const name = fileNameFrom(typeof disposition === 'string' ? disposition : null, bulkExportText.fileName);
  saveBlob(response.data, name);
  return name;
};

export const useDownloadBatchExport = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: downloadBatchExport,
    // a refusal (expired, not ready) means the list is behind: read it again
    onError: () => void queryClient.invalidateQueries({ queryKey: cardKeys.exports() }),
  });
};
