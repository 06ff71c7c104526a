import type { SecurityOverview } from '@portal/contract/account';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';
import { settingsKeys } from './settings-keys.ts';

/** GET /api/v1/account/security: contacts (phone masked), manager, trade password set, devices, sessions, last sign-in. */
export const getSecurityOverview = () => http.get<SecurityOverview>('/api/v1/account/security');

export const getSecurityOverviewQueryOptions = () => queryOptions({ queryKey: settingsKeys.overview(), queryFn: getSecurityOverview });

export const useSecurityOverview = () => useQuery(getSecurityOverviewQueryOptions());
