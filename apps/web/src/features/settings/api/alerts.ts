import type { AlertsBody } from '@portal/contract/balance-rules';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import * as balanceRuleCalls from '../../../lib/generated/balance-rules-calls.ts';
import { queryKeyOf } from '../../../lib/query-keys.ts';

/** GET /account/alerts: the low-balance thresholds of the wallet (per currency) and of every card. */
export const getAlertsQueryOptions = () => queryOptions({ queryKey: queryKeyOf(balanceRuleCalls.alerts), queryFn: () => call(balanceRuleCalls.alerts) });

export const useAlerts = () => useQuery(getAlertsQueryOptions());

/** PUT /account/alerts: the whole set; answers it as it now is. */
export const useSetAlerts = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AlertsBody) => call(balanceRuleCalls.setAlerts, { body }),
    onSuccess: (alerts) => queryClient.setQueryData(queryKeyOf(balanceRuleCalls.alerts), alerts),
  });
};
