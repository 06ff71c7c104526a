import { cardLimits } from '@portal/contract/cards';
import { CARD_STATUSES, type CardStatus } from '@portal/contract/enums';
import { oneOf, readPage, writePage } from '../../lists/lib/page-location.ts';

/**
 * The card list's filters and page, as they live in the address (`?status=&product=&keyword=&holder=
 * &page=&size=`), so reload, back and a shared link keep them. What the API would refuse is dropped.
 */
export interface CardFilters {
  status?: CardStatus;
  product?: string;
  /** part of a nickname, or the last four digits */
  keyword?: string;
  /** the member who holds the cards (持卡成员) */
  holder?: string;
}

export interface CardListParams {
  filters: CardFilters;
  page: number;
  pageSize: number;
}

export function readCardLocation(search: URLSearchParams): CardListParams {
  const filters: CardFilters = {};
  const status = oneOf(CARD_STATUSES, search.get('status'));
  if (status) filters.status = status;
  const product = search.get('product')?.trim();
  if (product && product.length <= 100) filters.product = product;
  const keyword = search.get('keyword')?.trim().slice(0, cardLimits.keywordMax);
  if (keyword) filters.keyword = keyword;
  const holder = search.get('holder')?.trim();
  if (holder && holder.length <= 100) filters.holder = holder;
  return { filters, ...readPage(search) };
}

/** The address after a change; a filter change starts again at the first page. */
export function writeCardLocation(previous: URLSearchParams, change: { filters?: CardFilters; page?: number; pageSize?: number }) {
  const next = new URLSearchParams(previous);
  if (change.filters) {
    const set = (key: string, value: string | undefined) => (value ? next.set(key, value) : next.delete(key));
    set('status', change.filters.status);
    set('product', change.filters.product);
    set('keyword', change.filters.keyword?.trim());
    set('holder', change.filters.holder);
    next.delete('page');
  }
  writePage(next, change);
  return next;
}

export const hasCardFilters = (filters: CardFilters) => Boolean(filters.status || filters.product || filters.keyword || filters.holder);

/** GET /card's query (cardListQuery): the API's names, unset filters left out. */
export function cardListQueryOf({ filters, page, pageSize }: CardListParams) {
  return {
    page,
    page_size: pageSize,
    ...(filters.status ? { status: filters.status } : {}),
    ...(filters.product ? { product_id: filters.product } : {}),
    ...(filters.keyword ? { keyword: filters.keyword } : {}),
    ...(filters.holder ? { holder_member_id: filters.holder } : {}),
  };
}
