import type { AccountSession } from '@portal/contract/account';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';
import { settingsKeys } from './settings-keys.ts';

/** GET /api/v1/account/sessions: the live sessions, the most recently active first; this one marked current. */
export const getSessions = () => http.get<AccountSession[]>('/api/v1/account/sessions');

export const getSessionsQueryOptions = () => queryOptions({ queryKey: settingsKeys.sessions(), queryFn: getSessions });

export const useSessions = () => useQuery(getSessionsQueryOptions());
