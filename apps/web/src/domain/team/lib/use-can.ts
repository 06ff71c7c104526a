import { type Action, can, type Role } from '@portal/contract/team';
import { useQuery } from '@tanstack/react-query';
import { getAccountInfoQueryOptions } from '../../account/api/get-account-info.ts';

/** The signed-in member's role, from GET /account/info; undefined until it is known. */
export function useRole(): Role | undefined {
  return useQuery({ ...getAccountInfoQueryOptions(), select: (info) => info.role }).data;
}

/**
 * Whether the signed-in member may take `action`: the one place a screen asks, read from the
 * contract's role table (the same the server decides by). Until the role is known, nothing is
 * offered; what a role may not do is hidden, not disabled.
 */
export function useCan(action: Action): boolean {
  const role = useRole();
  return role !== undefined && can(role, action);
}

/** The same question for several actions at once: `{ 'cards.fund': true, … }`. */
export function useCans<A extends Action>(actions: readonly A[]): Record<A, boolean> {
  const role = useRole();
  return Object.fromEntries(actions.map((action) => [action, role !== undefined && can(role, action)])) as Record<A, boolean>;
}
