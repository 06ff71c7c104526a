import { TRANSITIONAL_STATUSES } from '@portal/contract/cards';
import { CardErrorCode } from '@portal/contract/card-errors';
import { ErrorCode } from '@portal/contract/errors';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import * as cardCalls from '../../../lib/generated/cards-calls.ts';
import { isApiError, markShownInPlace } from '../../../lib/http.ts';
import { cardKeys } from '../../../domain/cards/api/card-keys.ts';

/** The server knows no such card of this account (another account's card answers the same). */
export const isCardNotFound = (error: unknown) =>
  isApiError(error) && (error.code === CardErrorCode.CARD_NOT_FOUND || error.code === ErrorCode.NOT_FOUND || (error.kind === 'http' && error.status === 404));

/** GET /card/:id: one card, with what its status allows now. */
export async function getCard(id: string) {
  try {
    return await call(cardCalls.detail, { params: { id } });
  } catch (error) {
    // the card's page says it in place (卡片不存在), with a way back
    if (isCardNotFound(error)) markShownInPlace(error);
    throw error;
  }
}

/** How often a card waiting on the issuer is asked for again, should the event stream be down. */
const WAITING_REFRESH_MS = 15_000;

export const getCardQueryOptions = (id: string) =>
  queryOptions({
    queryKey: cardKeys.detail(id),
    queryFn: () => getCard(id),
    staleTime: 0,
    refetchOnWindowFocus: true,
    // CARD_STATUS events show the issuer's answer at once; this is only the fallback
    refetchInterval: (query) => (query.state.data && TRANSITIONAL_STATUSES.includes(query.state.data.status) ? WAITING_REFRESH_MS : false),
  });

export const useCard = (id: string) => useQuery(getCardQueryOptions(id));
