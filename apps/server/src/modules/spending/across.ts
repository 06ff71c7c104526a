import {
  type AcrossTransactionExportQuery,
  type AcrossTransactionItem,
  type AcrossTransactionPage,
  type AcrossTransactionQuery,
  declineRateOf,
  type SpendingGroup,
  type SpendingSummary,
  type SpendingSummaryQuery,
  spendingGroupLabels,
  summaryDays,
} from '@portal/contract/card-spending-across';
import { merchantCategoryName } from '@portal/contract/merchant-categories';
import { fromMinorUnits } from '@portal/contract/money';
import { transactionTimeRange } from '@portal/contract/wallet';
import { memberLabel } from '../activity/service.ts';
import { type CardScope, cardName, isUuid } from '../cards/service.ts';
import {
  type AcrossFilter,
  type AcrossRow,
  acrossAfter,
  cardsNamed,
  countAcross,
  membersNamed,
  pageAcross,
  type SpendFigures,
  spendBy,
} from './across-store.ts';
import type { SpendingDeps } from './deps.ts';
import { cardTransactionsWorkbook, transactionItem } from './transactions.ts';

const DAY_MS = 24 * 60 * 60_000;

/** A China-time day counted from 1970-01-01 (as the store groups by it), as YYYY-MM-DD. */
const dayOfNumber = (days: string) => new Date(Number(days) * DAY_MS).toISOString().slice(0, 10);

type SharedQuery = Pick<AcrossTransactionExportQuery, 'currency' | 'card_id' | 'tag' | 'holder_member_id' | 'merchant' | 'category'>;

/** The filter of a caller's query; null when it can match nothing (a holder outside the caller's scope). */
/** The console's scope: every account of the merchant, or one. */
export type AcrossScope = CardScope | { accountId: undefined; heldBy?: undefined };

function filterOf(merchantId: string, scope: AcrossScope, query: SharedQuery, ranges: AcrossFilter['ranges'], more: Partial<AcrossFilter> = {}): AcrossFilter | null {
  if (scope.heldBy && query.holder_member_id && query.holder_member_id !== scope.heldBy) return null;
  return {
    merchantId,
    accountId: scope.accountId,
    heldBy: scope.heldBy,
    cardId: query.card_id,
    tag: query.tag,
    holderMemberId: query.holder_member_id,
    merchant: query.merchant,
    category: query.category,
    currency: query.currency,
    ranges,
    ...more,
  };
}

const listFilterOf = (merchantId: string, scope: AcrossScope, query: AcrossTransactionExportQuery) =>
  filterOf(merchantId, scope, query, [transactionTimeRange(query.date_from, query.date_to), transactionTimeRange(query.from, query.to)], {
    type: query.type,
    status: query.status,
  });

const itemOf = (row: AcrossRow): AcrossTransactionItem => ({ ...transactionItem(row), card_last4: row.cardLast4, card_nickname: row.cardNickname });


interface Totals {
  amount: bigint;
  count: number;
  declined: number;
}
const add = (into: Totals, figures: Totals) => {
  into.amount += figures.amount;
  into.count += figures.count;
  into.declined += figures.declined;
};
const groupOf = (key: string, label: string, figures: Totals): SpendingGroup => ({
  key,
  label,
  amount: fromMinorUnits(figures.amount),
  count: figures.count,
  declined: figures.declined,
});
const largestFirst = (a: SpendingGroup & { minor: bigint }, b: SpendingGroup & { minor: bigint }) =>
  a.minor === b.minor ? b.count - a.count || a.label.localeCompare(b.label) : a.minor > b.minor ? -1 : 1;

/** Spending across the account's cards: every card's transactions (a page, or a spreadsheet) and the summary. */
export function acrossPart({ db, clock }: Pick<SpendingDeps, 'db' | 'clock'>) {
  /** Groups of `figures` by a card's own key (the card, its holder, each of its tags), named. */
  async function byCard(accountId: string, groupBy: 'card' | 'tag' | 'holder', figures: SpendFigures[]) {
    const cards = await cardsNamed(db, accountId, figures.map((f) => f.key));
    const groups = new Map<string, Totals>();
    for (const card of figures) {
      const named = cards.get(card.key);
      const keys = groupBy === 'card' ? [card.key] : groupBy === 'holder' ? [named?.holderMemberId ?? ''] : named?.tags.length ? named.tags : [''];
      for (const key of keys) {
        const into = groups.get(key) ?? { amount: 0n, count: 0, declined: 0 };
        add(into, card);
        groups.set(key, into);
      }
    }
    const members = groupBy === 'holder' ? await membersNamed(db, accountId, [...groups.keys()].filter(isUuid)) : new Map();
    const label = (key: string) => {
      if (groupBy === 'card') {
        const card = cards.get(key);
        return card ? cardName(card) : key;
      }
      if (groupBy === 'holder') {
        const holder = members.get(key);
        return holder ? memberLabel(holder) : key;
      }
      return key === '' ? spendingGroupLabels.noTag : key;
    };
    return [...groups].map(([key, totals]) => ({ ...groupOf(key, label(key), totals), minor: totals.amount }));
  }

  return {
    async page(merchantId: string, scope: AcrossScope, query: AcrossTransactionQuery): Promise<AcrossTransactionPage & { accountIds: string[] }> {
      const filter = listFilterOf(merchantId, scope, query);
      if (!filter) return { items: [], total: 0, page: query.page, page_size: query.page_size, accountIds: [] };
      const { rows, total } = await pageAcross(db, filter, query.page_size, (query.page - 1) * query.page_size);
      // the account of each row, for the merchant's console (the portal's answer leaves it out)
      return { items: rows.map(itemOf), total, page: query.page, page_size: query.page_size, accountIds: rows.map((row) => row.accountId) };
    },

    /** The filtered rows as an .xlsx stream, written while it is read; too many rows are refused before anything is sent. */
    async export(merchantId: string, scope: CardScope, query: AcrossTransactionExportQuery) {
      const filter = listFilterOf(merchantId, scope, query);
      const total = filter ? await countAcross(db, filter) : 0;
      return cardTransactionsWorkbook({
        name: '卡片消费',
        total,
        read: (after, limit) => (filter ? acrossAfter(db, filter, after, limit) : Promise.resolve([])),
        cardOf: (row: AcrossRow) => cardName({ nickname: row.cardNickname, last4: row.cardLast4 }),
      });
    },


    /** GET /card/spending-summary: the totals and the groups, from one pass over the authorisations. */
    async summary(merchantId: string, scope: CardScope, query: SpendingSummaryQuery): Promise<SpendingSummary> {
      const days = summaryDays(query, clock.now());
      const range = transactionTimeRange(days.from, days.to);
      const base = { from: days.from, to: days.to, currency: query.currency, group_by: query.group_by };
      const filter = filterOf(merchantId, scope, query, [range]);
      if (!filter) return { ...base, total: { amount: '0.00', count: 0, declined: 0, decline_rate: 0 }, groups: [] };
      const cardWise = query.group_by === 'card' || query.group_by === 'tag' || query.group_by === 'holder';
      const read = await spendBy(db, filter, cardWise ? 'card' : (query.group_by as 'day' | 'merchant' | 'category'));
      const figures = query.group_by === 'day' ? read.map((row) => ({ ...row, key: dayOfNumber(row.key) })) : read;
      // every authorisation falls in exactly one row of `figures` (a card's tags may share it, its total not)
      const total: Totals = { amount: 0n, count: 0, declined: 0 };
      for (const row of figures) add(total, row);
      let groups: Array<SpendingGroup & { minor: bigint }>;
      if (cardWise) groups = await byCard(scope.accountId, query.group_by as 'card' | 'tag' | 'holder', figures);
      else {
        const label = (key: string) =>
          query.group_by === 'category'
            ? key === ''
              ? spendingGroupLabels.noCategory
              : merchantCategoryName(key)
            : query.group_by === 'merchant' && key === ''
              ? spendingGroupLabels.noMerchant
              : key;
        groups = figures.map((row) => ({ ...groupOf(row.key, label(row.key), row), minor: row.amount }));
      }
      if (query.group_by === 'day') groups.sort((a, b) => a.key.localeCompare(b.key));
      else groups.sort(largestFirst);
      return {
        ...base,
        total: { amount: fromMinorUnits(total.amount), count: total.count, declined: total.declined, decline_rate: declineRateOf(total.declined, total.count) },
        groups: groups.map(({ minor: _minor, ...group }) => group),
      };
    },
  };
}
