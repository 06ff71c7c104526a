import type { AgreementTitle } from '@portal/contract/merchant';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';
import { agreementKeys } from './agreement-keys.ts';

/** GET /api/v1/merchant/user-agreement/title: the merchant's published agreements, newest first. */
export const getAgreementTitles = () => http.get<AgreementTitle[]>('/api/v1/merchant/user-agreement/title');

export const getAgreementTitlesQueryOptions = () =>
  queryOptions({ queryKey: agreementKeys.titles(), queryFn: getAgreementTitles, staleTime: 5 * 60_000 });

export const useAgreementTitles = () => useQuery(getAgreementTitlesQueryOptions());
