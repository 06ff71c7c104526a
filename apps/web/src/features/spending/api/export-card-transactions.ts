import { useMutation } from '@tanstack/react-query';
import { download } from '../../../lib/api-client.ts';
import * as spendingCalls from '../../../lib/generated/spending-calls.ts';
import { fileNameFrom, saveBlob } from '../../../lib/save-file.ts';
import { cardSpendingText } from '../../../locales/zh-CN/card-spending.ts';
import { type CardTransactionFilters, cardTransactionFilterQuery } from '../../../domain/cards/lib/card-transaction-filters.ts';

/**
 * GET /card/:id/transactions/export: every transaction of the card the filters select, as the
 * raw .xlsx file (the HTTP module hands spreadsheets back unopened; a refusal still arrives as an
 * envelope, and no answer at all as the offline message, both shown like any other).
 */
export const exportCardTransactions = (id: string, filters: CardTransactionFilters) =>
  download(spendingCalls.exportTransactions, { params: { id }, query: cardTransactionFilterQuery(filters) });

/** Downloads the export and saves it under the name the server gave it. */
export const useExportCardTransactions = (id: string) =>
  useMutation({
    mutationFn: async (filters: CardTransactionFilters) => {
      const response = await exportCardTransactions(id, filters);
      const disposition = response.headers['content-disposition'];
      const name = fileNameFrom(typeof disposition === 'string' ? disposition : null, cardSpendingText.transactions.exportFileName);
      saveBlob(response.data, name);
      return name;
    },
  });
