import { cardLimits, cardTagRules } from '@portal/contract/cards';
import { CARD_SORTS, type CardListFilter, type CardSort, cardFilterQuery, DEFAULT_CARD_SORT } from '@portal/contract/card-list';
import { CARD_STATUSES, type CardStatus } from '@portal/contract/enums';
import { oneOf, readPage, writePage } from '../../lists/lib/page-location.ts';

/**
 * The card list's filters, sort and page, as they live in the address (`?status=NORMAL,FREEZE&product=
 * &keyword=&tag=&holder=&sort=-balance&page=&size=`), so reload, back and a shared link keep them. What
 * the API would refuse is dropped.
 */
export interface CardFilters {
  /** several statuses at once; none: every status */
  statuses?: CardStatus[];
  product?: string;
  /** part of a nickname, the last four digits, the BIN's first 6–8 digits, or a whole tag */
  keyword?: string;
  /** the member who holds the cards (持卡成员) */
  holder?: string;
  tag?: string;
}

export interface CardListParams {
  filters: CardFilters;
  sort: CardSort;
  page: number;
  pageSize: number;
}

export function readCardLocation(search: URLSearchParams): CardListParams {
  const filters: CardFilters = {};
  const statuses = (search.get('status') ?? '')
    .split(',')
    .map((part) => oneOf(CARD_STATUSES, part.trim()))
    .filter((status): status is CardStatus => status !== undefined);
  if (statuses.length > 0) filters.statuses = [...new Set(statuses)];
  const product = search.get('product')?.trim();
  if (product && product.length <= 100) filters.product = product;
  const keyword = search.get('keyword')?.trim().slice(0, cardLimits.keywordMax);
  if (keyword) filters.keyword = keyword;
  const holder = search.get('holder')?.trim();
  if (holder && holder.length <= 100) filters.holder = holder;
  const tag = search.get('tag')?.trim();
  if (tag && [...tag].length <= cardTagRules.maxLength) filters.tag = tag;
  const sort = oneOf(CARD_SORTS, search.get('sort')) ?? DEFAULT_CARD_SORT;
  return { filters, sort, ...readPage(search) };
}

/** The address after a change; a filter or sort change starts again at the first page. */
export function writeCardLocation(previous: URLSearchParams, change: { filters?: CardFilters; sort?: CardSort; page?: number; pageSize?: number }) {
  const next = new URLSearchParams(previous);
  const set = (key: string, value: string | undefined) => (value ? next.set(key, value) : next.delete(key));
  if (change.filters) {
    set('status', change.filters.statuses?.join(','));
    set('product', change.filters.product);
    set('keyword', change.filters.keyword?.trim());
    set('tag', change.filters.tag);
    set('holder', change.filters.holder);
    next.delete('page');
  }
  if (change.sort) {
    set('sort', change.sort === DEFAULT_CARD_SORT ? undefined : change.sort);
    next.delete('page');
  }
  writePage(next, change);
  return next;
}

export const hasCardFilters = (filters: CardFilters) =>
  Boolean((filters.statuses && filters.statuses.length > 0) || filters.product || filters.keyword || filters.holder || filters.tag);

/** The filter in the API's words (CardListFilter), as GET /card, an export and a bulk action take it. */
export function cardFilterOf(filters: CardFilters) {
  const filter: CardListFilter = {
    ...(filters.statuses && filters.statuses.length > 0 ? { status: filters.statuses } : {}),
    ...(filters.product ? { product_id: filters.product } : {}),
    ...(filters.keyword ? { keyword: filters.keyword } : {}),
    ...(filters.tag ? { tag: filters.tag } : {}),
    ...(filters.holder ? { holder_member_id: filters.holder } : {}),
  };
  return cardFilterQuery(filter);
}

/** GET /card's query (cardListQuery): the API's names, unset filters and the default sort left out. */
export function cardListQueryOf({ filters, sort, page, pageSize }: CardListParams) {
  return { page, page_size: pageSize, ...(sort === DEFAULT_CARD_SORT ? {} : { sort }), ...cardFilterOf(filters) };
}
