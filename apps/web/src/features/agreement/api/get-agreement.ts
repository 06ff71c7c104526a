import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import * as merchantCalls from '../../../lib/generated/merchant-calls.ts';
import { queryKeyOf } from '../../../lib/query-keys.ts';

/** GET /merchant/user-agreement/:id: one agreement's title and HTML text. */
export const getAgreement = (id: string) => call(merchantCalls.agreement, { params: { id } });

export const getAgreementQueryOptions = (id: string) =>
  queryOptions({ queryKey: queryKeyOf(merchantCalls.agreement, { params: { id } }), queryFn: () => getAgreement(id), staleTime: 5 * 60_000 });

export const useAgreement = (id: string | null) => useQuery({ ...getAgreementQueryOptions(id ?? ''), enabled: Boolean(id) });
