import type { CardAmountItem } from '@portal/contract/wallet';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';
import { walletKeys } from './wallet-keys.ts';

/** GET /api/v1/balance/card-amount: the total on the account's cards, per currency. */
export const getCardAmount = () => http.get<CardAmountItem[]>('/api/v1/balance/card-amount');

export const getCardAmountQueryOptions = () => queryOptions({ queryKey: walletKeys.cardAmount(), queryFn: getCardAmount, staleTime: 0, refetchOnWindowFocus: true });

export const useCardAmount = () => useQuery(getCardAmountQueryOptions());
