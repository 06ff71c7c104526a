import { useMutation } from '@tanstack/react-query';
import { download } from '../../../lib/api-client.ts';
import * as walletCalls from '../../../lib/generated/wallet-calls.ts';
import { walletText } from '../../../locales/zh-CN/wallet.ts';
import { fileNameFrom, saveBlob } from '../../../lib/save-file.ts';
import { filterQuery, type TransactionFilters } from '../lib/transaction-filters.ts';

/**
 * GET /balance/transactions/export: every transaction the filters select, as the raw .xlsx
 * file (the HTTP module hands spreadsheets back unopened; a refusal still arrives as an envelope and
 * is shown like any other).
 */
export const exportWalletTransactions = (filters: TransactionFilters) =>
  download(walletCalls.exportTransactions, { query: filterQuery(filters) });

/** Downloads the export and saves it under the name the server gave it. */
export const useExportWalletTransactions = () =>
  useMutation({
    mutationFn: async (filters: TransactionFilters) => {
      const response = await exportWalletTransactions(filters);
      const disposition = response.headers['content-disposition'];
      const name = fileNameFrom(typeof disposition === 'string' ? disposition : null, walletText.exportFileName);
      saveBlob(response.data, name);
      return name;
    },
  });
