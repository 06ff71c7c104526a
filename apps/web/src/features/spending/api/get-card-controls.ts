import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import * as spendingCalls from '../../../lib/generated/spending-calls.ts';
import { cardKeys } from '../../../domain/cards/api/card-keys.ts';

/** GET /card/:id/controls: the card's limits, blocked categories and allowed countries, and what was spent today and this month. */
export const getCardControls = (id: string) => call(spendingCalls.controls, { params: { id } });

export const getCardControlsQueryOptions = (id: string) =>
  queryOptions({ queryKey: cardKeys.controls(id), queryFn: () => getCardControls(id), staleTime: 0, refetchOnWindowFocus: true });

export const useCardControls = (id: string, enabled = true) => useQuery({ ...getCardControlsQueryOptions(id), enabled });
