// A card's transaction filters are part of its query keys, which every card feature shares: they live
// in the shared layer, and the spending calls read them through here.
export {
  type CardTransactionFilters,
  type CardTransactionParams,
  cardTransactionFilterQuery,
  cardTransactionQueryOf,
} from '../../../domain/cards/lib/card-transaction-filters.ts';
