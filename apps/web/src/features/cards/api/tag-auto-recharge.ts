import type { AutoRechargeBody } from '@portal/contract/balance-rules';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { cardKeys } from '../../../domain/cards/api/card-keys.ts';
import { call } from '../../../lib/api-client.ts';
import * as balanceRuleCalls from '../../../lib/generated/balance-rules-calls.ts';

/** GET /card/tag-auto-recharge: the account's rules per tag, with the cards each is in force on. */
export const getTagAutoRecharge = () => call(balanceRuleCalls.tagAutoRecharge, {});

export const getTagAutoRechargeQueryOptions = () => queryOptions({ queryKey: cardKeys.tagAutoRecharge(), queryFn: getTagAutoRecharge, staleTime: 0 });

export const useTagAutoRecharge = () => useQuery(getTagAutoRechargeQueryOptions());

/** A tag's rule changed: the list of rules, and every card's rule and list mark, read again. */
function useRefreshRules() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: cardKeys.tagAutoRecharge() }),
      queryClient.invalidateQueries({ queryKey: cardKeys.lists() }),
      queryClient.invalidateQueries({ queryKey: cardKeys.details() }),
    ]);
}

/** PUT /card/tag-auto-recharge/:tag */
export const useSetTagAutoRecharge = () => {
  const refresh = useRefreshRules();
  return useMutation({
    mutationFn: ({ tag, body }: { tag: string; body: AutoRechargeBody }) => call(balanceRuleCalls.setTagAutoRecharge, { params: { tag }, body }),
    onSuccess: refresh,
  });
};

/** DELETE /card/tag-auto-recharge/:tag */
export const useRemoveTagAutoRecharge = () => {
  const refresh = useRefreshRules();
  return useMutation({
    mutationFn: (tag: string) => call(balanceRuleCalls.removeTagAutoRecharge, { params: { tag } }),
    onSuccess: refresh,
  });
};
