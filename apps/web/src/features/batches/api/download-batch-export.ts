import { useMutation, useQueryClient } from '@tanstack/react-query';
import { download } from '../../../lib/api-client.ts';
import * as cardBatchCalls from '../../../lib/generated/card-batches-calls.ts';
import { fileNameFrom, saveBlob } from '../../../lib/save-file.ts';
import { bulkExportText } from '../../../locales/zh-CN/bulk-export.ts';
import { cardAnswers } from '../../../domain/cards/api/card-keys.ts';

/**
 * GET /card/batch-export/:export_id/file: the raw .xlsx, saved under the name the server gave it (a
 * refusal still arrives as an envelope, no answer as the offline message, both shown like any other).
 */
export const downloadBatchExport = async (id: string) => {
  const response = await download(cardBatchCalls.exportFile, { params: { export_id: id } });
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
    onError: () => void queryClient.invalidateQueries(cardAnswers.exports()),
  });
};
