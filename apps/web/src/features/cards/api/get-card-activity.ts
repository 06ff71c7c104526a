import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import * as teamCalls from '../../../lib/generated/team-calls.ts';
import { queryKeyOf } from '../../../lib/query-keys.ts';

/** Every page of what members did to a card (its 操作记录), for a refresh of the card's page. */
export const cardActivityKey = (id: string) => queryKeyOf(teamCalls.cardActivity, { params: { id } });

/** GET /card/:id/activity: one page of what members did to the card, newest first. */
export function useCardActivity(id: string, page: number, pageSize: number) {
  const query = { page, page_size: pageSize };
  return useQuery({
    queryKey: queryKeyOf(teamCalls.cardActivity, { params: { id }, query }),
    queryFn: () => call(teamCalls.cardActivity, { params: { id }, query }),
    placeholderData: keepPreviousData,
    staleTime: 0,
    refetchOnWindowFocus: true,
  });
}
