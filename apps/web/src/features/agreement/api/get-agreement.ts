import type { Agreement } from '@portal/contract/merchant';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';
import { agreementKeys } from './agreement-keys.ts';

/** GET /api/v1/merchant/user-agreement/{id}: one agreement's title and HTML text. */
export const getAgreement = (id: string) => http.get<Agreement>(`/api/v1/merchant/user-agreement/${encodeURIComponent(id)}`);

export const getAgreementQueryOptions = (id: string) =>
  queryOptions({ queryKey: agreementKeys.detail(id), queryFn: () => getAgreement(id), staleTime: 5 * 60_000 });

export const useAgreement = (id: string | null) => useQuery({ ...getAgreementQueryOptions(id ?? ''), enabled: Boolean(id) });
