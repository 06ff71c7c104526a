import * as spendingCalls from '../../../lib/generated/spending-calls.ts';
import { queryKeyOf } from '../../../lib/query-keys.ts';

/** The query keys of 消费分析, from the calls they read. */
export const analysisKeys = {
  summary: (query: Record<string, string>) => queryKeyOf(spendingCalls.spendingSummary, { query }),
  rows: (query: Record<string, string | number>) => queryKeyOf(spendingCalls.acrossTransactions, { query }),
};
