import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import {
  type BatchExportBody,
  type BatchExportStatus,
  CARD_STATUS_TEXT,
  CardBatchErrorCode,
  DEFAULT_EXPORT_COLUMNS,
  EXPORT_COLUMN_NAMES,
  EXPORT_COLUMNS,
  EXPORT_KEEP_HOURS,
  EXPORT_LIST_SIZE,
  exportsSensitive,
  type ExportColumn,
  type ExportStatus,
} from '@portal/contract/card-batches';
import { REVEAL_WINDOW_SECONDS } from '@portal/contract/cards';
import type { CardStatus } from '@portal/contract/enums';
import { EVENT_TYPES } from '@portal/contract/events';
import { fromMinorUnits } from '@portal/contract/money';
import type { Tx } from '../../db/engine.ts';
import { AppError } from '../../http/errors.ts';
import type { JobInfo, JobQueue } from '../../jobs/queue.ts';
import type { Authenticated } from '../sessions/service.ts';
import { chinaTime } from '../wallet/service.ts';
import {
  countExportCards,
  type ExportRow,
  expiredExports,
  exportCardsAfter,
  exportWhere,
  findExport,
  findOwnExport,
  insertExport,
  recentExports,
  updateExport,
} from './batch-store.ts';
import { isUuid } from './card-view.ts';
import type { CardContext } from './context.ts';
import type { RevealCaller } from './reveal.ts';
import { findRevealGrant, saveRevealGrant } from './store.ts';

/** The queue whose jobs write one export's file each, and the one that deletes the files past their time. */
export const EXPORT_WRITE_QUEUE = 'card-export-write';
export const EXPORT_EXPIRE_QUEUE = 'card-export-expire';
/** Every ten minutes: a file is gone at most that long after its 24 hours (and refused from the 24th hour on). */
const EXPIRE_CRON = '*/10 * * * *';
/** Cards read, written and counted at a time. */
const PAGE = 500;
const FAILED_TEXT = '导出失败，请重新导出';

export interface ExportOptions {
  /** where the files are written: DATA_DIR/exports */
  folder: string;
}

type SheetRow = Record<ExportColumn, string | number | null>;

/** A full number shown masked: the BIN's first six and the last four. */
const maskedNumber = (last4: string | null) => (last4 ? `**** **** **** ${last4}` : '');

/**
 * Bulk export: the chosen cards (the list's filters, or the ids ticked) are written to an .xlsx file
 * under DATA_DIR by a job, with exceljs' streaming writer (each row committed as it is written, so
 * memory stays bounded however many cards there are), then answered raw on download for 24 hours, after
 * which a scheduled job deletes the file. Full numbers, CVV and expiry go in only when asked for and
 * after an access code, as a reveal (the same five-minute grant); the export's row, kept after its file
 * is gone, records who took them and from where. Otherwise those columns are masked.
 */
export function exportPart(context: CardContext, jobs: JobQueue, options: ExportOptions) {
  const { db, clock, sealer, ledger, events, useAccessCode } = context;
  const fileOf = (id: string) => path.join(options.folder, `${id}.xlsx`);

  const view = (row: ExportRow): BatchExportStatus => ({
    export_id: row.id,
    status: row.status as ExportStatus,
    done: row.done,
    total: row.total,
    file_name: row.fileName,
    expires_at: row.expiresAt?.toISOString() ?? null,
    size: row.size ?? null,
    include_sensitive: row.includeSensitive,
    columns: row.columns as ExportColumn[],
    created_at: row.createdAt.toISOString(),
    finished_at: row.finishedAt?.toISOString() ?? null,
    error: row.error,
  });

  const announce = (tx: Tx, row: ExportRow) =>
    events.toAccount(tx, row.merchantId, row.accountId, EVENT_TYPES.exportProgress, { export_id: row.id, status: row.status, done: row.done, total: row.total });

  /** Saves the export's new figures and tells the account's tabs. */
  const progress = (id: string, changes: Partial<ExportRow>, onlyIf?: { status: string[] }) =>
    db.transaction(async (tx) => {
      const row = await updateExport(tx, id, changes, onlyIf);
      if (row) await announce(tx, row);
      return row;
    });

  /** The access code of a reveal: given now, or checked within the last five minutes. */
  async function checkAccess(merchantId: string, auth: Authenticated, body: BatchExportBody) {
    const accountId = auth.account.id;
    if (body.captcha !== undefined) {
      await useAccessCode(merchantId, auth.account, body.send_type ?? 'SEND_TYPE_PHONE', body.captcha);
      await saveRevealGrant(db, merchantId, accountId, clock.now());
      return;
    }
    const grant = await findRevealGrant(db, merchantId, accountId);
    if (!grant || clock.now().getTime() - grant.grantedAt.getTime() > REVEAL_WINDOW_SECONDS * 1000) {
      throw new AppError(CardBatchErrorCode.EXPORT_CODE_REQUIRED);
    }
  }

  async function write(data: { export_id: string }, job: JobInfo) {
    const row = await findExport(db, data.export_id);
    if (!row || !['PENDING', 'RUNNING'].includes(row.status)) return;
    const file = fileOf(row.id);
    const partial = `${file}.part`;
    try {
      const selection = row.selection;
      const productId = selection.filters.product_id;
      const ids = selection.ids?.filter(isUuid);
      const where = exportWhere(
        row.merchantId,
        row.accountId,
        { status: selection.filters.status, productId: productId && isUuid(productId) ? productId : undefined, keyword: selection.filters.keyword },
        ids,
      );
      const unknownProduct = !ids && productId !== undefined && !isUuid(productId);
      const total = unknownProduct || (ids && ids.length === 0) ? 0 : await countExportCards(db, where);
      await progress(row.id, { status: 'RUNNING', startedAt: clock.now(), done: 0, total });

      await mkdir(options.folder, { recursive: true });
      const { default: ExcelJS } = await import('exceljs');
      const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: partial, useStyles: true, useSharedStrings: false });
      const sheet = workbook.addWorksheet('卡片');
      const columns = row.columns as ExportColumn[];
      sheet.columns = columns.map((key) => ({
        header: EXPORT_COLUMNS[key].header,
        key,
        width: key === 'id' || key === 'batch_id' ? 38 : key === 'card_number' ? 22 : 14,
        ...(key === 'balance' ? { style: { numFmt: '0.00' } } : {}),
      }));
      let done = 0;
      let after: { createdAt: Date; id: string } | null = null;
      // cards opened after the export began are left out: the file is the list as it was asked for
      while (done < total) {
        const page = await exportCardsAfter(db, where, after, Math.min(PAGE, total - done));
        if (page.length === 0) break;
        const money = columns.includes('balance') ? await ledger.cardBalances(row.merchantId, page.map((item) => item.card.id)) : new Map();
        for (const { card, productName } of page) {
          const secret =
            row.includeSensitive && card.secretSealed
              ? (JSON.parse(sealer.open(card.secretSealed)) as { pan: string; cvv: string; exp_month: string; exp_year: string })
              : null;
          const held = money.get(card.id);
          const line: Partial<SheetRow> = {
            nickname: card.nickname,
            product_name: productName,
            brand: card.brand,
            card_number: secret ? secret.pan : maskedNumber(card.last4),
            cvv: secret ? secret.cvv : card.last4 ? '***' : '',
            expiry: secret ? `${secret.exp_month}/${secret.exp_year.slice(-2)}` : card.last4 ? '**/**' : '',
            currency: card.currency,
            balance: Number(fromMinorUnits(held ? held.balance - held.held : 0n)),
            status: CARD_STATUS_TEXT[card.status as CardStatus] ?? card.status,
            batch_id: card.batchId ?? '',
            created_at: chinaTime(card.createdAt),
            id: card.id,
          };
          sheet.addRow(Object.fromEntries(columns.map((key) => [key, line[key] ?? null]))).commit();
        }
        done += page.length;
        const last = page[page.length - 1] as (typeof page)[number];
        after = { createdAt: last.card.createdAt, id: last.card.id };
        await progress(row.id, { done });
        // the compressor and the file behind the sheet catch up before the next page is read: rows are not
        // made faster than they are written out, so what waits in memory stays one page's worth
        await new Promise((resolve) => setImmediate(resolve));
      }
      sheet.commit();
      await workbook.commit();
      await rename(partial, file);
      const { size } = await stat(file);
      const now = clock.now();
      await progress(row.id, { status: 'DONE', done, size, finishedAt: now, expiresAt: new Date(now.getTime() + EXPORT_KEEP_HOURS * 3_600_000), error: null });
    } catch (error) {
      await rm(partial, { force: true }).catch(() => {});
      if (job.retryCount < job.retryLimit) throw error;
      await progress(row.id, { status: 'FAILED', finishedAt: clock.now(), error: FAILED_TEXT });
      throw error;
    }
  }

  /** Deletes the files kept past their time; their exports become EXPIRED. */
  async function expire() {
    let count = 0;
    for (;;) {
      const due = await expiredExports(db, clock.now(), 100);
      if (due.length === 0) return count;
      for (const row of due) {
        await rm(fileOf(row.id), { force: true });
        await progress(row.id, { status: 'EXPIRED' }, { status: ['DONE'] });
        count++;
      }
    }
  }

  jobs.work<{ export_id: string }>(EXPORT_WRITE_QUEUE, write, { concurrency: 1, retryLimit: 2, retryDelay: 5, expireInSeconds: 600 });
  jobs.work<Record<string, never>>(EXPORT_EXPIRE_QUEUE, async () => void (await expire()), { retryLimit: 0 });
  jobs.schedule(EXPORT_EXPIRE_QUEUE, EXPIRE_CRON);

  async function ownExport(merchantId: string, accountId: string, id: string) {
    const row = isUuid(id) ? await findOwnExport(db, merchantId, accountId, id) : undefined;
    if (!row) throw new AppError(CardBatchErrorCode.EXPORT_NOT_FOUND);
    return row;
  }

  return {
    expire,

    /** POST /card/batch-export: the export is queued; its file follows. */
    async create(merchantId: string, auth: Authenticated, body: BatchExportBody, caller: RevealCaller) {
      const asked = new Set<ExportColumn>(body.columns ?? DEFAULT_EXPORT_COLUMNS);
      const columns = EXPORT_COLUMN_NAMES.filter((name) => asked.has(name));
      const includeSensitive = exportsSensitive({ include_sensitive: body.include_sensitive, columns });
      if (includeSensitive) await checkAccess(merchantId, auth, body);
      const now = clock.now();
      const stamp = chinaTime(now).replace(/[-: ]/g, '');
      const selection = {
        filters: {
          ...(body.filters.status ? { status: body.filters.status } : {}),
          ...(body.filters.product_id ? { product_id: body.filters.product_id } : {}),
          ...(body.filters.keyword ? { keyword: body.filters.keyword } : {}),
        },
        ...(body.ids ? { ids: [...new Set(body.ids)] } : {}),
      };
      const row = await db.transaction(async (tx) => {
        const saved = await insertExport(tx, {
          merchantId,
          accountId: auth.account.id,
          status: 'PENDING',
          selection,
          columns,
          includeSensitive,
          fileName: `卡片导出-${stamp.slice(0, 8)}-${stamp.slice(8)}.xlsx`,
          ip: caller.ip,
          userAgent: caller.userAgent.slice(0, 300),
          createdAt: now,
        });
        await jobs.send(EXPORT_WRITE_QUEUE, { export_id: saved.id }, { tx, singletonKey: saved.id });
        return saved;
      });
      return { export_id: row.id };
    },

    /** GET /card/batch-export-status: one export, or the account's latest (null: none yet). */
    async status(merchantId: string, accountId: string, id: string | undefined) {
      if (id !== undefined) return view(await ownExport(merchantId, accountId, id));
      const [latest] = await recentExports(db, merchantId, accountId, 1);
      return latest ? view(latest) : null;
    },

    /** GET /card/batch-exports: the account's recent exports, newest first. */
    async list(merchantId: string, accountId: string) {
      return { items: (await recentExports(db, merchantId, accountId, EXPORT_LIST_SIZE)).map(view) };
    },

    /** GET /card/batch-export/{id}/file: the written file as a stream, while it is kept. */
    async file(merchantId: string, accountId: string, id: string) {
      const row = await ownExport(merchantId, accountId, id);
      if (row.status === 'EXPIRED' || (row.expiresAt && row.expiresAt.getTime() <= clock.now().getTime())) throw new AppError(CardBatchErrorCode.EXPORT_EXPIRED);
      if (row.status !== 'DONE') throw new AppError(CardBatchErrorCode.EXPORT_NOT_READY, { data: { status: row.status } });
      const file = fileOf(row.id);
      const size = (await stat(file).catch(() => null))?.size;
      if (size === undefined) throw new AppError(CardBatchErrorCode.EXPORT_EXPIRED);
      return { stream: createReadStream(file), fileName: row.fileName, size };
    },
  };
}

export type ExportPart = ReturnType<typeof exportPart>;
