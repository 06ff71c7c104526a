import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import * as merchantCalls from '../../../lib/generated/merchant-calls.ts';
import { queryKeyOf } from '../../../lib/query-keys.ts';

/** GET /merchant/user-agreement/title: the merchant's published agreements, newest first. */
export const getAgreementTitles = () => call(merchantCalls.agreementTitles);

export const getAgreementTitlesQueryOptions = () =>
  queryOptions({ queryKey: queryKeyOf(merchantCalls.agreementTitles), queryFn: getAgreementTitles, staleTime: 5 * 60_000 });

export const useAgreementTitles = () => useQuery(getAgreementTitlesQueryOptions());

/** The first agreement is the one a new customer agrees to (spec §3); null when the merchant has published none. */
export const useSignUpAgreement = () => useQuery({ ...getAgreementTitlesQueryOptions(), select: (titles) => titles[0] ?? null });
