import type { Call } from '@portal/contract/api/call';
import { partialMatchKey, type Query, type QueryKey } from '@tanstack/react-query';
import type { CallInput, CallRef } from './api-client.ts';

/**
 * One query key per call: the call's method and path (`GET /card/:id`, one call's alone), then what
 * it was asked with (its path parameters and query, as sent). Every cached answer is keyed here and nowhere else, so two screens that make the
 * same call share one answer, and whatever refreshes it refreshes it for both.
 *
 * A key of fewer parts names more answers: `queryKeyOf(spending.transactions, { params: { id } })`
 * is every page of one card's transactions, whatever its query (the query library matches a key's
 * objects part by part).
 */
export function queryKeyOf<C extends Call>(ref: CallRef<C>, input?: Partial<Pick<CallInput<C>, 'params' | 'query'>>) {
  const asked = {
    ...(input?.params === undefined ? {} : { params: input.params }),
    ...(input?.query === undefined ? {} : { query: input.query }),
  };
  const name = `${ref.method} ${ref.path}`;
  return Object.keys(asked).length > 0 ? ([name, asked] as const) : ([name] as const);
}

/** Every cached answer under any of these keys: for a refresh, or to tell whether any is loading. */
export function answersUnder(...keys: QueryKey[]) {
  return { predicate: (query: Query) => keys.some((key) => partialMatchKey(query.queryKey, key)) };
}

/** Every cached answer of these calls, whatever each was asked with. */
export const answersOf = (...refs: CallRef[]) => answersUnder(...refs.map((ref) => queryKeyOf(ref)));
