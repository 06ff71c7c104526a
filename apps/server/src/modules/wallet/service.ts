import {
  BALANCE_STATUS_AVAILABLE,
  BALANCE_STATUS_FROZEN,
  EVENT_TYPE_FREEZE,
  FREEZE_MESSAGE_STATUS,
  type WalletTransactionType,
} from '@portal/contract/enums';
import { ErrorCode } from '@portal/contract/errors';
import { fromMinorUnits } from '@portal/contract/money';
import {
  type AccountBalanceItem,
  type BalanceStatusAnswer,
  type CardAmountItem,
  EXPORT_ROW_LIMIT,
  transactionTimeRange,
  type WalletTransactionExportQuery,
  type WalletTransactionItem,
  type WalletTransactionPage,
  type WalletTransactionQuery,
  WALLET_GROUP_KINDS,
} from '@portal/contract/wallet';
import { walletGroupKindOfPrefix, walletGroupKinds, walletRowLabel } from '@portal/contract/wallet-groups';
import type { Db, Tx } from '../../db/engine.ts';
import { AppError } from '../../http/errors.ts';
import { escapeHtml } from '../../lib/html.ts';
import { rowsInParts, type XlsxCell, xlsxStream } from '../../lib/xlsx-stream.ts';
import type { BooksService, WalletListRow, WalletPostingFilter } from '../books/service.ts';
import type { MessageService } from '../messages/service.ts';

const filterOf = (query: { type?: string | undefined; currency?: string | undefined; start_time?: string | undefined; end_time?: string | undefined }): WalletPostingFilter => ({
  type: query.type,
  currency: query.currency,
  ...transactionTimeRange(query.start_time, query.end_time),
});

/** The holds' reference prefixes whose postings the list shows as one row each. */
const GROUP_PREFIXES = WALLET_GROUP_KINDS.map((kind) => walletGroupKinds[kind].prefix);

/** A group's kind and id from the reference its postings share (`batch:<id>`). */
function groupOf(row: WalletListRow): WalletTransactionItem['group'] {
  if (!row.groupRef) return null;
  const [prefix = '', id = ''] = row.groupRef.split(':');
  const kind = walletGroupKindOfPrefix(prefix);
  return kind ? { kind, id, count: row.groupCards, parts: row.groupParts } : null;
}

const itemOf = (row: WalletListRow): WalletTransactionItem => {
  const group = groupOf(row);
  const item: WalletTransactionItem = {
    id: row.id,
    transaction_id: row.transactionId,
    type: group ? walletGroupKinds[group.kind].type : (row.type as WalletTransactionType),
    currency: row.currency as WalletTransactionItem['currency'],
    amount: fromMinorUnits(row.amount),
    balance_after: fromMinorUnits(row.balanceAfter),
    created_at: row.createdAt.toISOString(),
    reference: row.reference || row.transactionId,
    memo: row.memo,
    reverses: row.reversesId,
    first_load: row.firstLoad,
    group,
  };
  // a group's note is its name: what its postings were for is in its parts
  return group ? { ...item, memo: walletRowLabel(item) } : item;
};

const EXPORT_BATCH = 1_000;

/** A row of the export, by column. */
interface ExportRow extends Record<string, XlsxCell> {
  time: Date;
  type: string;
  currency: string;
  amount: number;
  balance: number;
  transaction: string;
  memo: string;
}

const exportRowOf = (row: WalletListRow): ExportRow => ({
  time: row.createdAt,
  type: walletRowLabel(itemOf(row)),
  currency: row.currency,
  // two-decimal amounts are exact in a spreadsheet number; the text is what the portal shows
  amount: Number(fromMinorUnits(row.amount)),
  balance: Number(fromMinorUnits(row.balanceAfter)),
  transaction: row.transactionId,
  memo: row.reversesId ? `冲正 ${row.reversesId}${row.memo ? `：${row.memo}` : ''}` : row.memo,
});

/** The station messages of a wallet's freeze and unfreeze (HTML, every value escaped). */
export const walletNotices = {
  frozen: (v: { reason: string }) => ({
    title: '钱包已冻结',
    content:
      '<p>您的钱包已被冻结。冻结期间资金不能转出：不能开卡、不能向卡片转账，运营扣款也将暂停。</p>' +
      `${v.reason ? `<p>原因：${escapeHtml(v.reason)}</p>` : ''}<p>如有疑问，请联系客服。</p>`,
  }),
  unfrozen: () => ({ title: '钱包已解冻', content: '<p>您的钱包已解冻，可以正常使用。</p>' }),
};

/**
 * The customer's wallet: what it holds, its status, its transaction list and export (all read from
 * the books), and freezing it.
 */
export function createWalletService({
  db,
  books,
  messages,
  exportRowLimit = EXPORT_ROW_LIMIT,
}: {
  db: Db;
  books: BooksService;
  messages: Pick<MessageService, 'post'>;
  /** the most rows one export writes */
  exportRowLimit?: number;
}) {
  /** In the caller's transaction (the console's, which takes the operator's code in it), or one of its own. */
  const inside = <T>(within: Tx | undefined, work: (tx: Tx) => Promise<T>) => (within ? work(within) : db.transaction(work));
  return {
    async balances(merchantId: string, accountId: string): Promise<AccountBalanceItem[]> {
      return (await books.customerBalances(merchantId, accountId)).balances;
    },

    async status(merchantId: string, accountId: string): Promise<BalanceStatusAnswer> {
      const row = await books.walletStatus(merchantId, accountId);
      const frozen = row !== undefined && row.status !== BALANCE_STATUS_AVAILABLE;
      return {
        status: frozen ? BALANCE_STATUS_FROZEN : BALANCE_STATUS_AVAILABLE,
        reason: frozen ? (row?.reason ?? '') : '',
        changed_at: row?.changedAt ? row.changedAt.toISOString() : null,
      };
    },

    /** What the account's cards hold; with `heldBy`, only the cards that member holds. */
    async cardAmount(merchantId: string, accountId: string, heldBy?: string): Promise<CardAmountItem[]> {
      return books.cardAmount(merchantId, accountId, heldBy);
    },

    async transactions(merchantId: string, accountId: string, query: WalletTransactionQuery): Promise<WalletTransactionPage> {
      const offset = (query.page - 1) * query.page_size;
      const page = { limit: query.page_size, offset };
      const { rows, total } =
        query.group_kind && query.group_id
          ? await books.walletGroupParts(merchantId, accountId, `${walletGroupKinds[query.group_kind].prefix}:${query.group_id}`, page)
          : await books.walletListPage(merchantId, accountId, filterOf(query), GROUP_PREFIXES, page);
      return { items: rows.map(itemOf), total, page: query.page, page_size: query.page_size };
    },

    /**
     * The filtered list as an .xlsx stream, written while it is read, so memory stays bounded. Too
     * many rows are refused before anything is sent.
     */
    async exportTransactions(merchantId: string, accountId: string, query: WalletTransactionExportQuery) {
      const filter = filterOf(query);
      const total = await books.countWalletList(merchantId, accountId, filter, GROUP_PREFIXES);
      if (total > exportRowLimit) {
        throw new AppError(ErrorCode.EXPORT_TOO_LARGE, { params: { limit: exportRowLimit }, data: { limit: exportRowLimit, total } });
      }
      const rows = rowsInParts(
        total,
        EXPORT_BATCH,
        (after: WalletListRow | null, limit) =>
          books.walletListAfter(merchantId, accountId, filter, GROUP_PREFIXES, after ? { createdAt: after.createdAt, orderId: after.orderId } : null, limit),
        exportRowOf,
      );
      const stream = await xlsxStream<ExportRow>({
        name: '钱包流水',
        columns: [
          { header: '时间', key: 'time', width: 21, kind: 'time' },
          { header: '类型', key: 'type', width: 12 },
          { header: '币种', key: 'currency', width: 8 },
          { header: '金额', key: 'amount', width: 16, kind: 'amount' },
          { header: '变动后余额', key: 'balance', width: 16, kind: 'amount' },
          // the customer's own file: the ledger's internal references (an operator's key, a card's row id) stay out
          { header: '交易编号', key: 'transaction', width: 38 },
          { header: '备注', key: 'memo', width: 30 },
        ],
        rows,
      });
      return { stream, rows: total };
    },

    /**
     * Freezes a wallet: from the commit on, no money leaves it (no deduction, hold, card opening or
     * transfer to a card). The account gets a FREEZE station message, and its open portal tabs an
     * event, once it commits. Answers false when the wallet was frozen already (then nothing is sent).
     */
    async freeze(request: { merchantId: string; accountId: string; reason: string }, within?: Tx) {
      return inside(within, async (tx) => {
        if (!(await books.freezeWallet(tx, request))) return false;
        await messages.post(tx, {
          merchantId: request.merchantId,
          accountId: request.accountId,
          type: EVENT_TYPE_FREEZE,
          ...walletNotices.frozen({ reason: request.reason }),
          status: FREEZE_MESSAGE_STATUS.frozen,
        });
        return true;
      });
    },

    /**
     * Unfreezes a wallet. Its message is a FREEZE event as well, so that an open wallet screen checks
     * the status again and drops its banner. Answers false when the wallet was not frozen.
     */
    async unfreeze(request: { merchantId: string; accountId: string }, within?: Tx) {
      return inside(within, async (tx) => {
        if (!(await books.unfreezeWallet(tx, request))) return false;
        await messages.post(tx, {
          merchantId: request.merchantId,
          accountId: request.accountId,
          type: EVENT_TYPE_FREEZE,
          ...walletNotices.unfrozen(),
          status: FREEZE_MESSAGE_STATUS.unfrozen,
        });
        return true;
      });
    },
  };
}

export type WalletService = ReturnType<typeof createWalletService>;
