import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import * as securityCalls from '../../../lib/generated/security-calls.ts';
import { queryKeyOf } from '../../../lib/query-keys.ts';

/** GET /account/login-history: the newest 50 sign-in attempts. */
export const getLoginHistory = () => call(securityCalls.loginHistory);

export const getLoginHistoryQueryOptions = () => queryOptions({ queryKey: queryKeyOf(securityCalls.loginHistory), queryFn: getLoginHistory });

export const useLoginHistory = () => useQuery(getLoginHistoryQueryOptions());
