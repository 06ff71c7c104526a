import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import * as teamCalls from '../../../lib/generated/team-calls.ts';
import { queryKeyOf } from '../../../lib/query-keys.ts';

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
