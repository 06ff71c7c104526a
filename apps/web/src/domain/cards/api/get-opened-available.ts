import type { OpenedAvailableAnswer } from '@portal/contract/cards';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import * as cardCalls from '../../../lib/generated/cards-calls.ts';
import { cardKeys } from './card-keys.ts';

/** A product as the account may open it: the merchant's product and how many more of it this account may open. */
export type AvailableProduct = OpenedAvailableAnswer['products'][number];

/**
 * GET /card/opened-available: whether the account has given its verification data (basic,
 * and the secondary some products need), and the products with how many more it may open.
 */
export const getOpenedAvailable = () => call(cardCalls.openedAvailable);

export const getOpenedAvailableQueryOptions = () =>
  queryOptions({ queryKey: cardKeys.openedAvailable(), queryFn: getOpenedAvailable, staleTime: 0, refetchOnWindowFocus: true });

export const useOpenedAvailable = () => useQuery(getOpenedAvailableQueryOptions());
