import { CARD_TRANSACTION_STATUSES, CARD_TRANSACTION_TYPES, type CardTransactionStatus, type CardTransactionType } from '@portal/contract/enums';
import { oneOf, readPage, writePage } from './page-location.ts';

/** A card's transactions as its page keeps them in the address, beside the card's id (`&type=&status=&page=&size=`). */
export interface CardTransactionFilters {
  type?: CardTransactionType;
  status?: CardTransactionStatus;
}

export interface CardTransactionParams {
  filters: CardTransactionFilters;
  page: number;
  pageSize: number;
}

export function readCardTransactionLocation(search: URLSearchParams): CardTransactionParams {
  const filters: CardTransactionFilters = {};
  const type = oneOf(CARD_TRANSACTION_TYPES, search.get('type'));
  if (type) filters.type = type;
  const status = oneOf(CARD_TRANSACTION_STATUSES, search.get('status'));
  if (status) filters.status = status;
  return { filters, ...readPage(search) };
}

export function writeCardTransactionLocation(
  previous: URLSearchParams,
  change: { filters?: CardTransactionFilters; page?: number; pageSize?: number },
) {
  const next = new URLSearchParams(previous);
  if (change.filters) {
    const set = (key: string, value: string | undefined) => (value ? next.set(key, value) : next.delete(key));
    set('type', change.filters.type);
    set('status', change.filters.status);
    next.delete('page');
  }
  writePage(next, change);
  return next;
}

export const hasTransactionFilters = (filters: CardTransactionFilters) => Boolean(filters.type || filters.status);

/** GET /card/{id}/transactions' query (cardTransactionQuery). */
export function cardTransactionQueryOf({ filters, page, pageSize }: CardTransactionParams) {
  return {
    page,
    page_size: pageSize,
    ...(filters.type ? { type: filters.type } : {}),
    ...(filters.status ? { status: filters.status } : {}),
  };
}
