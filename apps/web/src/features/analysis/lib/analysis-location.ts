import { CURRENCIES, type Currency } from '@portal/contract/enums';
import { cardTagRules } from '@portal/contract/cards';
import type { ListChange } from '../../../domain/lists/lib/use-list-location.ts';
import { oneOf, readPage, writePage } from '../../../domain/lists/lib/page-location.ts';

/** The filters of 消费分析, each absent when not chosen; the days are China-time YYYY-MM-DD. */
export interface AnalysisFilters {
  from?: string;
  to?: string;
  currency?: Currency;
  card?: string;
  tag?: string;
  holder?: string;
}

/** The tab of the groups below the chart. */
export const GROUP_TABS = ['card', 'tag', 'holder'] as const;
export type GroupTab = (typeof GROUP_TABS)[number];

export interface AnalysisLocation {
  filters: AnalysisFilters;
  tab: GroupTab;
  page: number;
  pageSize: number;
}

const DAY = /^\d{4}-\d\d-\d\d$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What the address says; anything it cannot mean is left out. */
export function readAnalysisLocation(search: URLSearchParams): AnalysisLocation {
  const filters: AnalysisFilters = {};
  const from = search.get('from');
  const to = search.get('to');
  if (from && DAY.test(from)) filters.from = from;
  if (to && DAY.test(to)) filters.to = to;
  if (filters.from && filters.to && filters.from > filters.to) delete filters.to;
  const currency = oneOf(CURRENCIES, search.get('currency'));
  if (currency) filters.currency = currency;
  const card = search.get('card');
  if (card && UUID.test(card)) filters.card = card;
  const tag = search.get('tag')?.trim();
  if (tag && tag.length <= cardTagRules.maxLength) filters.tag = tag;
  const holder = search.get('holder');
  if (holder && UUID.test(holder)) filters.holder = holder;
  return { filters, tab: oneOf(GROUP_TABS, search.get('tab')) ?? 'card', ...readPage(search) };
}

export type AnalysisChange = ListChange<AnalysisFilters> & { tab?: GroupTab };

/** The address after a change: new filters start again at the first page. */
export function writeAnalysisLocation(previous: URLSearchParams, change: AnalysisChange): URLSearchParams {
  const next = new URLSearchParams(previous);
  if (change.filters) {
    for (const name of ['from', 'to', 'currency', 'card', 'tag', 'holder'] as const) {
      const value = change.filters[name];
      if (value) next.set(name, value);
      else next.delete(name);
    }
    next.delete('page');
  }
  if (change.tab) next.set('tab', change.tab);
  writePage(next, change);
  return next;
}

export const hasAnalysisFilters = (filters: AnalysisFilters) => Object.values(filters).some(Boolean);

/** The query both calls share. */
export function analysisQueryOf(filters: AnalysisFilters) {
  return {
    ...(filters.from ? { from: filters.from } : {}),
    ...(filters.to ? { to: filters.to } : {}),
    ...(filters.currency ? { currency: filters.currency } : {}),
    ...(filters.card ? { card_id: filters.card } : {}),
    ...(filters.tag ? { tag: filters.tag } : {}),
    ...(filters.holder ? { holder_member_id: filters.holder } : {}),
  };
}
