import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import * as securityCalls from '../../../lib/generated/security-calls.ts';
import { queryKeyOf } from '../../../lib/query-keys.ts';

/** GET /account/sessions: the live sessions, the most recently active first; this one marked current. */
export const getSessions = () => call(securityCalls.sessions);

export const getSessionsQueryOptions = () => queryOptions({ queryKey: queryKeyOf(securityCalls.sessions), queryFn: getSessions });

export const useSessions = () => useQuery(getSessionsQueryOptions());
