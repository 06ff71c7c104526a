import type { AgreementTitle } from '@portal/contract/merchant';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';
import { authKeys } from './auth-keys.ts';

/**
 * GET /api/v1/merchant/user-agreement/title, read for sign-up: the first agreement is the one a new
 * customer agrees to (spec §3); null when the merchant has published none.
 */
export const getSignUpAgreement = async (): Promise<AgreementTitle | null> =>
  (await http.get<AgreementTitle[]>('/api/v1/merchant/user-agreement/title'))[0] ?? null;

export const getSignUpAgreementQueryOptions = () =>
  queryOptions({ queryKey: authKeys.signUpAgreement(), queryFn: getSignUpAgreement, staleTime: 5 * 60_000 });

export const useSignUpAgreement = () => useQuery(getSignUpAgreementQueryOptions());
