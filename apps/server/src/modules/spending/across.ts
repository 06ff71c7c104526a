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
import { CARD_TRANSACTIONS_EXPORT_MAX, countryName, type DeclineCode, declineReasons } from '@portal/contract/card-spending';
import { type CardTransactionStatus, type CardTransactionType, cardTransactionStatusLabel, cardTransactionTypeLabel } from '@portal/contract/enums';
import { ErrorCode } from '@portal/contract/errors';
import { merchantCategoryName } from '@portal/contract/merchant-categories';
import { fromMinorUnits } from '@portal/contract/money';
import { transactionTimeRange } from '@portal/contract/wallet';
import { AppError } from '../../http/errors.ts';
import { type XlsxCell, xlsxStream } from '../../lib/xlsx-stream.ts';
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
import { transactionItem } from './transactions.ts';

const EXPORT_BATCH = 1_000;
const DAY_MS = 24 * 60 * 60_000;

/** A China-time day counted from 1970-01-01 (as the store groups by it), as YYYY-MM-DD. */
const dayOfNumber = (days: string) => new Date(Number(days) * DAY_MS).toISOString().slice(0, 10);

type SharedQuery = Pick<AcrossTransactionExportQuery, 'currency' | 'card_id' | 'tag' | 'holder_member_id' | 'merchant' | 'category'>;

/** The filter of a caller's query; null when it can match nothing (a holder outside the caller's scope). */
function filterOf(merchantId: string, scope: CardScope, query: SharedQuery, ranges: AcrossFilter['ranges'], more: Partial<AcrossFilter> = {}): AcrossFilter | null {
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

const listFilterOf = (merchantId: string, scope: CardScope, query: AcrossTransactionExportQuery) =>
  filterOf(merchantId, scope, query, [transactionTimeRange(query.date_from, query.date_to), transactionTimeRange(query.from, query.to)], {
    type: query.type,
    status: query.status,
  });

const itemOf = (row: AcrossRow): AcrossTransactionItem => ({ ...transactionItem(row), card_last4: row.cardLast4, card_nickname: row.cardNickname });

interface ExportRow extends Record<string, XlsxCell> {
  time: Date;
  card: string;
  type: string;
  status: string;
  currency: string;
  amount: number;
  merchant: string;
  category: string;
  country: string;
  reason: string;
  authorization: string;
}

function exportRowOf(row: AcrossRow): ExportRow {
  const code = (row.declineCode as DeclineCode | null) ?? null;
  return {
    time: row.createdAt,
    card: cardName({ nickname: row.cardNickname, last4: row.cardLast4 }),
    type: cardTransactionTypeLabel[row.type as CardTransactionType] ?? row.type,
    status: cardTransactionStatusLabel[row.status as CardTransactionStatus] ?? row.status,
    currency: row.currency,
    // two-decimal amounts are exact in a spreadsheet number; the text is what the portal shows
    amount: Number(fromMinorUnits(row.amount)),
    merchant: row.merchantName ?? row.memo ?? '',
    category: row.mcc ? merchantCategoryName(row.mcc) : '',
    country: row.country ? countryName(row.country) : '',
    reason: row.declineReason ?? (code ? declineReasons[code].reason : ''),
    authorization: row.authorizationId ?? '',
  };
}

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
    async page(merchantId: string, scope: CardScope, query: AcrossTransactionQuery): Promise<AcrossTransactionPage> {
      const filter = listFilterOf(merchantId, scope, query);
      if (!filter) return { items: [], total: 0, page: query.page, page_size: query.page_size };
      const { rows, total } = await pageAcross(db, filter, query.page_size, (query.page - 1) * query.page_size);
      return { items: rows.map(itemOf), total, page: query.page, page_size: query.page_size };
    },

    /** The filtered rows as an .xlsx stream, written while it is read; too many rows are refused before anything is sent. */
    async export(merchantId: string, scope: CardScope, query: AcrossTransactionExportQuery) {
      const filter = listFilterOf(merchantId, scope, query);
      const total = filter ? await countAcross(db, filter) : 0;
      if (total > CARD_TRANSACTIONS_EXPORT_MAX) {
        throw new AppError(ErrorCode.EXPORT_TOO_LARGE, { params: { limit: CARD_TRANSACTIONS_EXPORT_MAX }, data: { limit: CARD_TRANSACTIONS_EXPORT_MAX, total } });
      }
      async function* rows() {
        if (!filter) return;
        let after: { createdAt: Date; id: string } | null = null;
        // rows written after the export began are left out: the file is the list as it was asked for
        let left = total;
        while (left > 0) {
          const batch = await acrossAfter(db, filter, after, Math.min(EXPORT_BATCH, left));
          if (batch.length === 0) break;
          for (const row of batch) yield exportRowOf(row);
          left -= batch.length;
          const last = batch[batch.length - 1] as AcrossRow;
          after = { createdAt: last.createdAt, id: last.id };
        }
      }
      return xlsxStream<ExportRow>({
        name: '卡片消费',
        columns: [
          { header: '时间', key: 'time', width: 21, kind: 'time' },
          { header: '卡片', key: 'card', width: 26 },
          { header: '类型', key: 'type', width: 10 },
          { header: '状态', key: 'status', width: 10 },
          { header: '币种', key: 'currency', width: 8 },
          { header: '金额', key: 'amount', width: 14, kind: 'amount' },
          { header: '商户', key: 'merchant', width: 28 },
          { header: '商户类别', key: 'category', width: 24 },
          { header: '国家或地区', key: 'country', width: 12 },
          { header: '拒绝原因', key: 'reason', width: 24 },
          { header: '授权编号', key: 'authorization', width: 28 },
        ],
        rows: rows(),
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
