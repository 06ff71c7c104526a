import { useMutation } from '@tanstack/react-query';
import { download } from '../../../lib/api-client.ts';
import * as spendingCalls from '../../../lib/generated/spending-calls.ts';
import { fileNameFrom, saveBlob } from '../../../lib/save-file.ts';
import { spendingAnalysisText } from '../../../locales/zh-CN/spending-analysis.ts';
import { type AnalysisFilters, analysisQueryOf } from '../lib/analysis-location.ts';

/** GET /card/transactions/export: every row the filters select, as the raw .xlsx file. */
export const exportAcrossTransactions = (filters: AnalysisFilters) => download(spendingCalls.exportAcrossTransactions, { query: analysisQueryOf(filters) });

/** Downloads the export and saves it under the name the server gave it. */
export const useExportAcrossTransactions = () =>
  useMutation({
    mutationFn: async (filters: AnalysisFilters) => {
      const response = await exportAcrossTransactions(filters);
      const disposition = response.headers['content-disposition'];
      const name = fileNameFrom(typeof disposition === 'string' ? disposition : null, spendingAnalysisText.rows.exportFileName);
      saveBlob(response.data, name);
      return name;
    },
  });
