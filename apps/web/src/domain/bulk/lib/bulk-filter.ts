import type { BulkFilter } from '@portal/contract/card-bulk';
import { type CardFilters, cardListQueryOf } from '../../cards/lib/card-filters.ts';

/** The card list's filters as a bulk action takes them: the list's own query, without its paging. */
export function bulkFilterOf(filters: CardFilters): BulkFilter {
  const { page: _page, page_size: _pageSize, ...filter } = cardListQueryOf({ filters, page: 1, pageSize: 1 });
  return filter as BulkFilter;
}
