import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import * as spendingCalls from '../../../lib/generated/spending-calls.ts';
import { type AnalysisFilters, analysisQueryOf } from '../lib/analysis-location.ts';
import { analysisKeys } from './analysis-keys.ts';

interface RowsParams {
  filters: AnalysisFilters;
  page: number;
  pageSize: number;
}

const rowsQueryOf = ({ filters, page, pageSize }: RowsParams) => ({ ...analysisQueryOf(filters), page, page_size: pageSize });

/** GET /card/transactions: one page of every card's transactions the filters select, newest first. */
export const getAcrossTransactions = (params: RowsParams) => call(spendingCalls.acrossTransactions, { query: rowsQueryOf(params) });

export const getAcrossTransactionsQueryOptions = (params: RowsParams) =>
  queryOptions({ queryKey: analysisKeys.rows(rowsQueryOf(params)), queryFn: () => getAcrossTransactions(params), staleTime: 0 });

export const useAcrossTransactions = (params: RowsParams) => useQuery({ ...getAcrossTransactionsQueryOptions(params), placeholderData: keepPreviousData });
