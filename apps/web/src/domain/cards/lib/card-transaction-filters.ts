import { CARD_TRANSACTION_STATUSES, CARD_TRANSACTION_TYPES, type CardTransactionStatus, type CardTransactionType } from '@portal/contract/enums';
import { oneOf, readPage, writePage } from '../../lists/lib/page-location.ts';

/**
 * A card's transactions as its page keeps them in the address, beside the card's id
 * (`&type=&status=&start=&end=&page=&size=`). Anything the API would refuse is dropped rather than sent.
 */
export interface CardTransactionFilters {
  type?: CardTransactionType;
  status?: CardTransactionStatus;
  /** first day, YYYY-MM-DD (China time, as the API reads it) */
  start?: string;
  /** last day, inclusive */
  end?: string;
}

export interface CardTransactionParams {
  filters: CardTransactionFilters;
  page: number;
  pageSize: number;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real day of the calendar written YYYY-MM-DD. */
export function isDay(text: string): boolean {
  const match = DAY.exec(text);
  if (!match) return false;
  const [, y, m, d] = match.map(Number) as [number, number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

export function readCardTransactionLocation(search: URLSearchParams): CardTransactionParams {
  const filters: CardTransactionFilters = {};
  const type = oneOf(CARD_TRANSACTION_TYPES, search.get('type'));
  if (type) filters.type = type;
  const status = oneOf(CARD_TRANSACTION_STATUSES, search.get('status'));
  if (status) filters.status = status;
  const start = search.get('start');
  if (start && isDay(start)) filters.start = start;
  const end = search.get('end');
  // a range whose end comes before its start is no range: keep the start alone
  if (end && isDay(end) && !(filters.start && end < filters.start)) filters.end = end;
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
    set('start', change.filters.start);
    set('end', change.filters.end);
    next.delete('page');
  }
  writePage(next, change);
  return next;
}

export const hasTransactionFilters = (filters: CardTransactionFilters) => Boolean(filters.type || filters.status || filters.start || filters.end);

/** The API's names for the filters (GET /card/{id}/transactions and its export). */
export function cardTransactionFilterQuery(filters: CardTransactionFilters) {
  return {
    ...(filters.type ? { type: filters.type } : {}),
    ...(filters.status ? { status: filters.status } : {}),
    ...(filters.start ? { date_from: filters.start } : {}),
    ...(filters.end ? { date_to: filters.end } : {}),
  };
}

/** GET /card/{id}/transactions' query (cardTransactionQuery). */
export function cardTransactionQueryOf({ filters, page, pageSize }: CardTransactionParams) {
  return { page, page_size: pageSize, ...cardTransactionFilterQuery(filters) };
}
