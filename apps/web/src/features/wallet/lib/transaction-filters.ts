import { CURRENCIES, type Currency, WALLET_TRANSACTION_TYPES, type WalletTransactionType } from '@portal/contract/enums';
import { DEFAULT_PAGE_SIZE, oneOf, PAGE_SIZES } from '../../../domain/lists/lib/page-location.ts';

/**
 * The wallet list's filters and page, as they live in the address (`?type=&currency=&start=&end=
 * &page=&size=`), so reload, back and a shared link keep them. Anything the address holds that the
 * API would refuse is dropped rather than sent.
 */
export interface TransactionFilters {
  type?: WalletTransactionType;
  currency?: Currency;
  /** first day, YYYY-MM-DD (a day in China Standard Time, as the API reads it) */
  start?: string;
  /** last day, inclusive */
  end?: string;
}

export interface TransactionListLocation {
  filters: TransactionFilters;
  page: number;
  pageSize: number;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

function isDay(text: string): boolean {
  const match = DAY.exec(text);
  if (!match) return false;
  const [, y, m, d] = match.map(Number) as [number, number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

export function readTransactionLocation(search: URLSearchParams): TransactionListLocation {
  const filters: TransactionFilters = {};
  const type = oneOf(WALLET_TRANSACTION_TYPES, search.get('type'));
  if (type) filters.type = type;
  const currency = oneOf(CURRENCIES, search.get('currency'));
  if (currency) filters.currency = currency;
  const start = search.get('start');
  if (start && isDay(start)) filters.start = start;
  const end = search.get('end');
  // a range whose end comes before its start is no range: keep the start alone
  if (end && isDay(end) && !(filters.start && end < filters.start)) filters.end = end;
  const page = Number.parseInt(search.get('page') ?? '', 10);
  const size = Number(search.get('size'));
  return {
    filters,
    page: Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1,
    pageSize: PAGE_SIZES.find((candidate) => candidate === size) ?? DEFAULT_PAGE_SIZE,
  };
}

/** The address after a change; a filter change starts again at the first page. */
export function writeTransactionLocation(
  previous: URLSearchParams,
  change: { filters?: TransactionFilters; page?: number; pageSize?: number },
): URLSearchParams {
  const next = new URLSearchParams(previous);
  const set = (key: string, value: string | undefined) => (value === undefined ? next.delete(key) : next.set(key, value));
  if (change.filters) {
    set('type', change.filters.type);
    set('currency', change.filters.currency);
    set('start', change.filters.start);
    set('end', change.filters.end);
    next.delete('page');
  }
  if (change.pageSize !== undefined) {
    set('size', change.pageSize === DEFAULT_PAGE_SIZE ? undefined : String(change.pageSize));
    next.delete('page');
  }
  if (change.page !== undefined) set('page', change.page > 1 ? String(change.page) : undefined);
  return next;
}

export const hasFilters = (filters: TransactionFilters) =>
  Boolean(filters.type || filters.currency || filters.start || filters.end);

/** The API's names for the filters (GET /balance/transactions and its export). */
export function filterQuery(filters: TransactionFilters) {
  return {
    ...(filters.type ? { type: filters.type } : {}),
    ...(filters.currency ? { currency: filters.currency } : {}),
    ...(filters.start ? { start_time: filters.start } : {}),
    ...(filters.end ? { end_time: filters.end } : {}),
  };
}
