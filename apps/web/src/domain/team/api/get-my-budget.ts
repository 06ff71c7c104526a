import { holdsOwnCardsOnly } from '@portal/contract/team';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import * as teamCalls from '../../../lib/generated/team-calls.ts';
import { queryKeyOf } from '../../../lib/query-keys.ts';
import { useRole } from '../lib/use-can.ts';

/** GET /team/budget: the signed-in member's own monthly budget, used and left this month. */
const getMyBudget = () => call(teamCalls.budget);

/**
 * The budget of a member who opens and funds only the cards they hold (成员); read afresh on each
 * screen that shows it, since opening or topping up a card spends it.
 */
export function useMyBudget() {
  const role = useRole();
  return useQuery({
    queryKey: queryKeyOf(teamCalls.budget),
    queryFn: getMyBudget,
    enabled: role !== undefined && holdsOwnCardsOnly(role),
    staleTime: 0,
  });
}
