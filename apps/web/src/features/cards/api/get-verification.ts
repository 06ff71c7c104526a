import type { VerificationAnswer } from '@portal/contract/cards';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';
import { cardKeys } from './card-keys.ts';

/**
 * GET /api/v1/card/verification: what the account has given before its first card, the real name
 * with the ID number masked, and the Latin name and website some products need; null where not given.
 */
export const getVerification = () => http.get<VerificationAnswer>('/api/v1/card/verification');

export const getVerificationQueryOptions = () => queryOptions({ queryKey: cardKeys.verification(), queryFn: getVerification });

export const useVerification = () => useQuery(getVerificationQueryOptions());
