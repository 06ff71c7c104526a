import type { CardControls } from '@portal/contract/card-spending';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';
import { cardKeys } from './card-keys.ts';

/** GET /api/v1/card/{id}/controls: the card's limits, blocked categories and allowed countries, and what was spent today and this month. */
export const getCardControls = (id: string) => http.get<CardControls>(`/api/v1/card/${encodeURIComponent(id)}/controls`);

export const getCardControlsQueryOptions = (id: string) =>
  queryOptions({ queryKey: cardKeys.controls(id), queryFn: () => getCardControls(id), staleTime: 0, refetchOnWindowFocus: true });

export const useCardControls = (id: string, enabled = true) => useQuery({ ...getCardControlsQueryOptions(id), enabled });
