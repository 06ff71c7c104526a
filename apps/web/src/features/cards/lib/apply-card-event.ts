import { EVENT_TYPE_FREEZE } from '@portal/contract/enums';
import { EVENT_TYPES } from '@portal/contract/events';
import type { StreamEvent } from '@portal/contract/messages';
import type { QueryClient } from '@tanstack/react-query';
import { refreshAroundCard } from '../../../domain/cards/api/card-cache.ts';
import { cardAnswers } from '../../../domain/cards/api/card-keys.ts';

/**
 * What the event stream changes on the card screens, read again at once where shown, else when next
 * shown: CARD_STATUS (the issuer answered, the operator froze a card) the card, its list, the summary
 * and the quotas; BALANCE_CHANGED (money moved in or out of the wallet or a card) every card's balance
 * and the wallet the screens pay from; FREEZE (the wallet's status changed) whether the wallet can
 * pay. Answers whether the event was one of these.
 */
export function applyCardEvent(queryClient: QueryClient, event: StreamEvent): boolean {
  if (event.type === EVENT_TYPES.cardStatus) refreshAroundCard(queryClient, event.card_id ?? null);
  else if (event.type === EVENT_TYPES.balance) refreshAroundCard(queryClient, null);
  else if (event.type === EVENT_TYPE_FREEZE) void queryClient.invalidateQueries(cardAnswers.wallet());
  else return false;
  return true;
}
