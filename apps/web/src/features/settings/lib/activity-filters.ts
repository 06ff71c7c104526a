import { ACTIVITY_KINDS, type ActivityKind } from '@portal/contract/team';
import { isDay } from '../../../domain/cards/lib/card-transaction-filters.ts';
import { oneOf, readPage, writePage } from '../../../domain/lists/lib/page-location.ts';

/**
 * The activity log's filters and page, as they live in the address of /settings (`?member=&kind=
 * &start=&end=&page=&size=`), so reload, back and a shared link keep them. What the API would refuse
 * is dropped rather than sent.
 */
export interface ActivityFilters {
  member?: string;
  kind?: ActivityKind;
  /** first day, YYYY-MM-DD, China time (as the API reads it) */
  start?: string;
  /** last day, inclusive */
  end?: string;
}

export interface ActivityListLocation {
  filters: ActivityFilters;
  page: number;
  pageSize: number;
}

const MEMBER_ID = /^\S{1,100}$/;

export function readActivityLocation(search: URLSearchParams): ActivityListLocation {
  const filters: ActivityFilters = {};
  const member = search.get('member');
  if (member && MEMBER_ID.test(member)) filters.member = member;
  const kind = oneOf(ACTIVITY_KINDS, search.get('kind'));
  if (kind) filters.kind = kind;
  const start = search.get('start');
  if (start && isDay(start)) filters.start = start;
  const end = search.get('end');
  // a range whose end comes before its start is no range: keep the start alone
  if (end && isDay(end) && !(filters.start && end < filters.start)) filters.end = end;
  return { filters, ...readPage(search) };
}

/** The address after a change; a filter change starts again at the first page. */
export function writeActivityLocation(previous: URLSearchParams, change: { filters?: ActivityFilters; page?: number; pageSize?: number }): URLSearchParams {
  const next = new URLSearchParams(previous);
  const set = (key: string, value: string | undefined) => (value === undefined ? next.delete(key) : next.set(key, value));
  if (change.filters) {
    set('member', change.filters.member);
    set('kind', change.filters.kind);
    set('start', change.filters.start);
    set('end', change.filters.end);
    next.delete('page');
  }
  writePage(next, change);
  return next;
}

export const hasActivityFilters = (filters: ActivityFilters) => Boolean(filters.member || filters.kind || filters.start || filters.end);

/** The API's names for the filters (GET /team/activity and its export). */
export function activityFilterQuery(filters: ActivityFilters) {
  return {
    ...(filters.member ? { member_id: filters.member } : {}),
    ...(filters.kind ? { kind: filters.kind } : {}),
    ...(filters.start ? { from: filters.start } : {}),
    ...(filters.end ? { to: filters.end } : {}),
  };
}
