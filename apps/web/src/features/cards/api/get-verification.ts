import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import * as cardCalls from '../../../lib/generated/cards-calls.ts';
import { cardKeys } from '../../../domain/cards/api/card-keys.ts';

/**
 * GET /card/verification: what the account has given before its first card, the real name
 * with the ID number masked, and the Latin name and website some products need; null where not given.
 */
export const getVerification = () => call(cardCalls.verification);

export const getVerificationQueryOptions = () => queryOptions({ queryKey: cardKeys.verification(), queryFn: getVerification });

export const useVerification = () => useQuery(getVerificationQueryOptions());
