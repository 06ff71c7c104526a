import type { LoginAttempt } from '@portal/contract/account';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';
import { settingsKeys } from './settings-keys.ts';

/** GET /api/v1/account/login-history: the newest 50 sign-in attempts. */
export const getLoginHistory = () => http.get<LoginAttempt[]>('/api/v1/account/login-history');

export const getLoginHistoryQueryOptions = () => queryOptions({ queryKey: settingsKeys.loginHistory(), queryFn: getLoginHistory });

export const useLoginHistory = () => useQuery(getLoginHistoryQueryOptions());
