import type { SpendingGroupBy } from '@portal/contract/card-spending-across';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import * as spendingCalls from '../../../lib/generated/spending-calls.ts';
import { type AnalysisFilters, analysisQueryOf } from '../lib/analysis-location.ts';
import { analysisKeys } from './analysis-keys.ts';

/** GET /card/spending-summary: what the cards the filters select spent, grouped one way. */
export const getSpendingSummary = (filters: AnalysisFilters, groupBy: SpendingGroupBy) =>
  call(spendingCalls.spendingSummary, { query: { ...analysisQueryOf(filters), group_by: groupBy } });

export const getSpendingSummaryQueryOptions = (filters: AnalysisFilters, groupBy: SpendingGroupBy) =>
  queryOptions({
    queryKey: analysisKeys.summary({ ...analysisQueryOf(filters), group_by: groupBy }),
    queryFn: () => getSpendingSummary(filters, groupBy),
    staleTime: 30_000,
  });

/** A filter's change keeps the figures drawn until the new ones arrive. */
export const useSpendingSummary = (filters: AnalysisFilters, groupBy: SpendingGroupBy) =>
  useQuery({ ...getSpendingSummaryQueryOptions(filters, groupBy), placeholderData: keepPreviousData });
