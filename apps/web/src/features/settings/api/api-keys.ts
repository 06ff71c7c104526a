import type { CreateApiKeyBody } from '@portal/contract/developer';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCan } from '../../../domain/team/lib/use-can.ts';
import { call } from '../../../lib/api-client.ts';
import * as developerCalls from '../../../lib/generated/developer-calls.ts';
import { queryKeyOf } from '../../../lib/query-keys.ts';

/** GET /developer/api-keys: the account's keys (a FINANCE member's own), newest first, never their secrets. */
export const getApiKeysQueryOptions = () =>
  queryOptions({ queryKey: queryKeyOf(developerCalls.apiKeys), queryFn: () => call(developerCalls.apiKeys).then((answer) => answer.items) });

export function useApiKeys() {
  const allowed = useCan('developer.keys');
  return useQuery({ ...getApiKeysQueryOptions(), enabled: allowed });
}

/** A change of the keys, after which (answered or refused) the list is read again. */
function useKeyChange<Input, Answer>(send: (input: Input) => Promise<Answer>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: send, onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeyOf(developerCalls.apiKeys) }) });
}

/** POST /developer/api-keys: the new key with its secret, answered this once. */
export const useCreateApiKey = () => useKeyChange((body: CreateApiKeyBody) => call(developerCalls.createApiKey, { body }));
/** DELETE /developer/api-keys/:id. */
export const useRevokeApiKey = () => useKeyChange((id: string) => call(developerCalls.revokeApiKey, { params: { id } }));
/** POST /developer/api-keys/:id/rotate: a new secret, the replaced one kept for 24 hours. */
export const useRotateApiKey = () => useKeyChange((id: string) => call(developerCalls.rotateApiKey, { params: { id } }));
