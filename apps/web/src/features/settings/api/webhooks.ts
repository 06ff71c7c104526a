import type { CreateWebhookBody, UpdateWebhookBody, WebhookDeliveryStatus } from '@portal/contract/webhooks';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCan } from '../../../domain/team/lib/use-can.ts';
import { call } from '../../../lib/api-client.ts';
import * as webhookCalls from '../../../lib/generated/webhooks-calls.ts';
import { queryKeyOf } from '../../../lib/query-keys.ts';

/** GET /developer/webhooks: the account's endpoints, never their secrets. */
export const getWebhooksQueryOptions = () => queryOptions({ queryKey: queryKeyOf(webhookCalls.list), queryFn: () => call(webhookCalls.list).then((answer) => answer.items) });

export function useWebhooks() {
  const allowed = useCan('developer.webhooks');
  return useQuery({ ...getWebhooksQueryOptions(), enabled: allowed });
}

export interface DeliveriesInput {
  id: string;
  page: number;
  status?: WebhookDeliveryStatus | undefined;
}

/** GET /developer/webhooks/:id/deliveries: an endpoint's deliveries with their tries, newest first. */
export const getWebhookDeliveriesQueryOptions = ({ id, page, status }: DeliveriesInput) => {
  const query = { page, page_size: 10, ...(status ? { status } : {}) };
  return queryOptions({
    queryKey: queryKeyOf(webhookCalls.deliveries, { params: { id }, query }),
    queryFn: () => call(webhookCalls.deliveries, { params: { id }, query }),
  });
};

export const useWebhookDeliveries = (input: DeliveriesInput | null) =>
  useQuery({ ...getWebhookDeliveriesQueryOptions(input ?? { id: '', page: 1 }), enabled: input !== null, placeholderData: keepPreviousData });

/** A change of the endpoints, after which (answered or refused) the list and the logs are read again. */
function useEndpointChange<Input, Answer>(send: (input: Input) => Promise<Answer>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSettled: () =>
      Promise.all([queryClient.invalidateQueries({ queryKey: queryKeyOf(webhookCalls.list) }), queryClient.invalidateQueries({ queryKey: queryKeyOf(webhookCalls.deliveries) })]),
  });
}

/** POST /developer/webhooks: the endpoint with its secret, answered this once. */
export const useCreateWebhook = () => useEndpointChange((body: CreateWebhookBody) => call(webhookCalls.create, { body }));
/** PUT /developer/webhooks/:id: address, events, description, or enabled. */
export const useUpdateWebhook = () => useEndpointChange(({ id, body }: { id: string; body: UpdateWebhookBody }) => call(webhookCalls.update, { params: { id }, body }));
/** DELETE /developer/webhooks/:id. */
export const useRemoveWebhook = () => useEndpointChange((id: string) => call(webhookCalls.remove, { params: { id } }));
/** POST /developer/webhooks/:id/rotate-secret: a new secret, answered this once. */
export const useRotateWebhookSecret = () => useEndpointChange((id: string) => call(webhookCalls.rotateSecret, { params: { id } }));
/** POST /developer/webhooks/deliveries/:id/redeliver: sent again now, under the same webhook-id. */
export const useRedeliver = () => useEndpointChange((id: string) => call(webhookCalls.redeliver, { params: { id } }));
