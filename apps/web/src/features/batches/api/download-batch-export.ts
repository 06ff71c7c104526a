import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';
import { fileNameFrom, saveBlob } from '../../../lib/save-file.ts';
import { bulkExportText } from '../../../locales/zh-CN/bulk-export.ts';
import { cardKeys } from './card-keys.ts';

/**
 * GET /api/v1/card/batch-export/{id}/file: the raw .xlsx, saved under the name the server gave it (a
 * refusal still arrives as an envelope, no answer as the offline message, both shown like any other).
 */
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
