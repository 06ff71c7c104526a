import { CARD_TRANSACTIONS_EXPORT_MAX, countryName, type DeclineCode, declineReasons } from '@portal/contract/card-spending';
import { merchantCategoryName } from '@portal/contract/merchant-categories';
import type { CardTransactionExportQuery, CardTransactionItem, CardTransactionPage, CardTransactionQuery } from '@portal/contract/cards';
import {
  type CardTransactionStatus,
  type CardTransactionType,
  type Currency,
  cardTransactionStatusLabel,
  cardTransactionTypeLabel,
} from '@portal/contract/enums';
import { ErrorCode } from '@portal/contract/errors';
import { fromMinorUnits } from '@portal/contract/money';
import { transactionTimeRange } from '@portal/contract/wallet';
import { AppError } from '../../http/errors.ts';
import { rowsInParts, type XlsxCell, type XlsxColumn, xlsxStream } from '../../lib/xlsx-stream.ts';
import type { CardRow } from '../cards/service.ts';
import type { SpendingDeps } from './deps.ts';
import { type CardTransactionRow, countSpending, pageSpending, spendingAfter } from './store.ts';

const EXPORT_BATCH = 1_000;

/** A card transaction as the API answers it, with the decline's reason and fix. */
export function transactionItem(row: CardTransactionRow): CardTransactionItem {
  const code = (row.declineCode as DeclineCode | null) ?? null;
  return {
    id: row.id,
    card_id: row.cardId,
    type: row.type as CardTransactionType,
    status: row.status as CardTransactionStatus,
    amount: fromMinorUnits(row.amount),
    currency: row.currency as Currency,
    merchant_name: row.merchantName,
    mcc: row.mcc,
    country: row.country,
    decline_reason: row.declineReason,
    authorization_id: row.authorizationId,
    decline_code: code,
    decline_fix: code ? declineReasons[code].fix : null,
    created_at: row.createdAt.toISOString(),
    settled_at: row.settledAt?.toISOString() ?? null,
  };
}

/** A row of a card transactions export, by column; `card` only where the file holds several cards. */
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
  fix: string;
  authorization: string;
}

function exportRowOf(row: CardTransactionRow, card: string): ExportRow {
  const code = (row.declineCode as DeclineCode | null) ?? null;
  return {
    time: row.createdAt,
    card,
    type: cardTransactionTypeLabel[row.type as CardTransactionType] ?? row.type,
    status: cardTransactionStatusLabel[row.status as CardTransactionStatus] ?? row.status,
    currency: row.currency,
    // two-decimal amounts are exact in a spreadsheet number; the text is what the portal shows
    amount: Number(fromMinorUnits(row.amount)),
    merchant: row.merchantName ?? row.memo ?? '',
    category: row.mcc ? merchantCategoryName(row.mcc) : '',
    country: row.country ? countryName(row.country) : '',
    reason: row.declineReason ?? (code ? declineReasons[code].reason : ''),
    fix: code ? declineReasons[code].fix : '',
    authorization: row.authorizationId ?? '',
  };
}

/**
 * Card transactions as an .xlsx stream, written while they are read: `total` rows (refused before anything
 * is sent when there are more than an export holds), a 卡片 column when `cardOf` names each row's card.
 */
export async function cardTransactionsWorkbook<Row extends CardTransactionRow>(options: {
  name: string;
  total: number;
  read: (after: { createdAt: Date; id: string } | null, limit: number) => Promise<Row[]>;
  cardOf?: (row: Row) => string;
}) {
  const { total, read, cardOf } = options;
  if (total > CARD_TRANSACTIONS_EXPORT_MAX) {
    throw new AppError(ErrorCode.EXPORT_TOO_LARGE, { params: { limit: CARD_TRANSACTIONS_EXPORT_MAX }, data: { limit: CARD_TRANSACTIONS_EXPORT_MAX, total } });
  }
  const columns: Array<XlsxColumn<ExportRow>> = [
    { header: '时间', key: 'time', width: 21, kind: 'time' },
    ...(cardOf ? [{ header: '卡片', key: 'card', width: 26 } as const] : []),
    { header: '类型', key: 'type', width: 10 },
    { header: '状态', key: 'status', width: 10 },
    { header: '币种', key: 'currency', width: 8 },
    { header: '金额', key: 'amount', width: 14, kind: 'amount' },
    { header: '商户', key: 'merchant', width: 28 },
    { header: '商户类别', key: 'category', width: 24 },
    { header: '国家或地区', key: 'country', width: 12 },
    { header: '拒绝原因', key: 'reason', width: 24 },
    { header: '处理建议', key: 'fix', width: 36 },
    { header: '授权编号', key: 'authorization', width: 28 },
  ];
  const rows = rowsInParts(total, EXPORT_BATCH, (after: Row | null, limit) => read(after ? { createdAt: after.createdAt, id: after.id } : null, limit), (row) =>
    exportRowOf(row, cardOf ? cardOf(row) : ''),
  );
  return xlsxStream<ExportRow>({ name: options.name, columns, rows });
}

const filterOf = (query: CardTransactionExportQuery) => ({ type: query.type, status: query.status, ...transactionTimeRange(query.date_from, query.date_to) });

/** A card's transactions: a page of them, or all of them as an .xlsx. */
export function transactionsPart({ db }: Pick<SpendingDeps, 'db'>) {
  return {
    async page(card: CardRow, query: CardTransactionQuery): Promise<CardTransactionPage> {
      const { rows, total } = await pageSpending(db, card.id, filterOf(query), query.page_size, (query.page - 1) * query.page_size);
      return { items: rows.map(transactionItem), total, page: query.page, page_size: query.page_size };
    },

    /** The filtered list as an .xlsx stream, written while it is read; too many rows are refused before anything is sent. */
    async export(card: CardRow, query: CardTransactionExportQuery) {
      const filter = filterOf(query);
      const total = await countSpending(db, card.id, filter);
      return cardTransactionsWorkbook({ name: '卡片交易', total, read: (after, limit) => spendingAfter(db, card.id, filter, after, limit) });
    },
  };
}
