import type { Currency } from '@portal/contract/enums';
import * as fundingCalls from '../../../lib/generated/funding-calls.ts';
import { answersOf, queryKeyOf } from '../../../lib/query-keys.ts';

/** 钱包充值's answers, keyed by their calls (lib/query-keys.ts). */
export const depositKeys = {
  instructions: (currency: Currency) => queryKeyOf(fundingCalls.instructions, { query: { currency } }),
  list: (page: number, pageSize: number) => queryKeyOf(fundingCalls.list, { query: { page, page_size: pageSize } }),
  receipt: (id: string) => queryKeyOf(fundingCalls.receipt, { params: { id } }),
  /** what a credit or a new notice changes */
  records: () => answersOf(fundingCalls.list),
};
