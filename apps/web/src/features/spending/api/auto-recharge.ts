import type { AutoRechargeBody } from '@portal/contract/balance-rules';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { cardKeys } from '../../../domain/cards/api/card-keys.ts';
import { call } from '../../../lib/api-client.ts';
import * as balanceRuleCalls from '../../../lib/generated/balance-rules-calls.ts';

/** GET /card/:id/auto-recharge: the rule, what it put on the card today and its latest run. */
export const getAutoRecharge = (id: string) => call(balanceRuleCalls.autoRecharge, { params: { id } });

export const getAutoRechargeQueryOptions = (id: string) =>
  queryOptions({ queryKey: cardKeys.autoRecharge(id), queryFn: () => getAutoRecharge(id), staleTime: 0, refetchOnWindowFocus: true });

export const useAutoRecharge = (id: string) => useQuery(getAutoRechargeQueryOptions(id));

/** PUT /card/:id/auto-recharge: the whole rule; answers it as it now is. */
export const useSetAutoRecharge = (id: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AutoRechargeBody) => call(balanceRuleCalls.setAutoRecharge, { params: { id }, body }),
    onSuccess: (rule) => queryClient.setQueryData(cardKeys.autoRecharge(id), rule),
  });
};

/** DELETE /card/:id/auto-recharge: the card's own rule gone; answers the rule now in force (its tags', or none). */
export const useRemoveAutoRecharge = (id: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call(balanceRuleCalls.removeAutoRecharge, { params: { id } }),
    onSuccess: (rule) => {
      queryClient.setQueryData(cardKeys.autoRecharge(id), rule);
      void queryClient.invalidateQueries({ queryKey: cardKeys.lists() });
    },
  });
};
