import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import * as walletCalls from '../../../lib/generated/wallet-calls.ts';
import { walletKeys } from './wallet-keys.ts';

/** GET /balance/card-amount: the total on the account's cards, per currency. */
export const getCardAmount = () => call(walletCalls.cardAmount);

export const getCardAmountQueryOptions = () => queryOptions({ queryKey: walletKeys.cardAmount(), queryFn: getCardAmount, staleTime: 0, refetchOnWindowFocus: true });

export const useCardAmount = () => useQuery(getCardAmountQueryOptions());
