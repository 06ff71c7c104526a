import type { CardItem } from '@portal/contract/cards';
import type { QueryClient } from '@tanstack/react-query';
import { cardAnswers, cardKeys } from './card-keys.ts';

/** What a change to any card moves besides the card: the list, the summary, the quotas, the wallet. */
function refreshAroundCards(queryClient: QueryClient) {
  for (const queryKey of [cardKeys.lists(), cardKeys.summary(), cardKeys.tags(), cardKeys.openedAvailable()]) {
    void queryClient.invalidateQueries({ queryKey });
  }
  void queryClient.invalidateQueries(cardAnswers.wallet());
}

/**
 * A card call answered the card: it shows at once, and what the change moves (the list, the summary,
 * the card's transactions, the wallet it paid from or into, the quota a closed card gives back) is
 * read again, at once where it is on screen, else when next shown.
 */
export function storeCardChange(queryClient: QueryClient, card: CardItem) {
  queryClient.setQueryData(cardKeys.detail(card.id), card);
  refreshAroundCards(queryClient);
  void queryClient.invalidateQueries({ queryKey: cardKeys.transactionLists(card.id) });
}

/**
 * A card may have changed without its answer at hand (a refusal, no answer at all, an event): read it
 * again with its transactions and controls, and everything around it. Without an id, every card.
 */
export function refreshAroundCard(queryClient: QueryClient, id: string | null) {
  refreshAroundCards(queryClient);
  void queryClient.invalidateQueries(id ? cardAnswers.ofCard(id) : cardAnswers.everyCard());
}
