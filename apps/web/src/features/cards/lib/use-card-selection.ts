import { useEffect, useState } from 'react';
import { type CardFilters, cardFilterOf } from '../../../domain/cards/lib/card-filters.ts';

/** What the chosen cards are, as an export or a bulk action takes them: some ids, or every card the filter matches. */
export type CardSelection = { card_ids: string[] } | { filter: ReturnType<typeof cardFilterOf> };

/**
 * The cards chosen on /card: ticked one by one (kept across pages), or "all N that match the filter" —
 * then the selection is the filter itself, however many pages it spans. A change of the filter ends the
 * latter, which named the filter before it.
 */
export function useCardSelection(filters: CardFilters, total: number) {
  const [ticked, setTicked] = useState<string[]>([]);
  const [allMatching, setAllMatching] = useState(false);
  const filterKey = JSON.stringify(cardFilterOf(filters));
  // biome-ignore lint/correctness/useExhaustiveDependencies: the filter's text is what changes it
  useEffect(() => setAllMatching(false), [filterKey]);
  const selection: CardSelection | null = allMatching ? { filter: cardFilterOf(filters) } : ticked.length > 0 ? { card_ids: ticked } : null;
  return {
    ticked,
    allMatching,
    selection,
    /** how many cards the selection holds */
    count: allMatching ? total : ticked.length,
    tick: (ids: string[]) => {
      setTicked(ids);
      setAllMatching(false);
    },
    selectAllMatching: () => setAllMatching(true),
    clear: () => {
      setTicked([]);
      setAllMatching(false);
    },
  };
}
