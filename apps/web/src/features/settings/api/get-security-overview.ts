import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import * as securityCalls from '../../../lib/generated/security-calls.ts';
import { queryKeyOf } from '../../../lib/query-keys.ts';

/** GET /account/security: contacts (phone masked), manager, trade password set, devices, sessions, last sign-in. */
export const getSecurityOverview = () => call(securityCalls.overview);

export const getSecurityOverviewQueryOptions = () => queryOptions({ queryKey: queryKeyOf(securityCalls.overview), queryFn: getSecurityOverview });

export const useSecurityOverview = () => useQuery(getSecurityOverviewQueryOptions());
