import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import * as fundingCalls from '../../../lib/generated/funding-calls.ts';
import { depositKeys } from './deposit-keys.ts';

/** GET /wallet/deposits: the account's top-ups, newest first. */
export const getDeposits = (page: number, pageSize: number) => call(fundingCalls.list, { query: { page, page_size: pageSize } });

export const getDepositsQueryOptions = (page: number, pageSize: number) =>
  queryOptions({ queryKey: depositKeys.list(page, pageSize), queryFn: () => getDeposits(page, pageSize), placeholderData: keepPreviousData });

export const useDeposits = (page: number, pageSize: number, enabled = true) => useQuery({ ...getDepositsQueryOptions(page, pageSize), enabled });
