import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, type Readable, Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
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
import { CardErrorCode } from '@portal/contract/card-errors';
import { cardFilterQuery, cardListFilter } from '@portal/contract/card-list';
import { sql } from 'drizzle-orm';
import type { CardStatus } from '@portal/contract/enums';
import { EVENT_TYPES } from '@portal/contract/events';
import { fromMinorUnits } from '@portal/contract/money';
import { can } from '@portal/contract/team';
import { cardBatchCalls } from '@portal/contract/api/card-batches';
import type { Tx } from '../../db/engine.ts';
import { traceWithin } from '../../http/call-trace.ts';
import { AppError } from '../../http/errors.ts';
import { permissionDenied } from '../../http/principal.ts';
import type { JobInfo } from '../../jobs/queue.ts';
import { looksSealed, SEALED_HEAD_BYTES } from '../../lib/sealed-stream.ts';
import { exportSheet, type XlsxCell } from '../../lib/xlsx-stream.ts';
import type { Authenticated } from '../sessions/service.ts';
import { chinaDateTime } from '@portal/contract/date-time';
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
} from './export-store.ts';
import type { RevealCaller } from '../card-reveal/service.ts';
import { cardListWhere, cardScopeOf, isUuid } from '../cards/service.ts';
import type { BatchDeps } from './deps.ts';

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
  /** told, without anything of the file, when a sealed file does not open */
  warn?: (message: string, facts: Record<string, unknown>) => void;
}

type SheetRow = Record<ExportColumn, XlsxCell>;

/** A full number shown masked: the BIN's first six and the last four. */
const maskedNumber = (last4: string | null) => (last4 ? `**** **** **** ${last4}` : '');

/** Counts the bytes passing through. */
function byteCounter() {
  const counted = { bytes: 0 };
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      counted.bytes += chunk.length;
      callback(null, chunk);
    },
  });
  return { stream, counted };
}

/** Whether the file begins as a sealed one; null when there is no file. */
async function sealedHead(file: string): Promise<boolean | null> {
  const handle = await open(file, 'r').catch(() => null);
  if (!handle) return null;
  try {
    const head = Buffer.alloc(SEALED_HEAD_BYTES);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return looksSealed(head.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

/**
 * Bulk export: the chosen cards (the list's filters, or the ids ticked) are written to an .xlsx file
 * under DATA_DIR by a job, with exceljs' streaming writer (each row committed as it is written, so
 * memory stays bounded however many cards there are), then answered on download for 24 hours, after
 * which a scheduled job deletes the file. The spreadsheet never touches the disk in clear: it is sealed
 * with the card-data key as exceljs writes it (sealed-stream.ts, bound to the export's id), into a file
 * only the server's user may read, and opened as it is sent. Full numbers, CVV and expiry go in only when
 * asked for and through the reveal's gate (an access code in this session, the hourly cap, the daily cap
 * of such exports); the export's row, kept after its file is gone, records who took them and from where.
 * Otherwise those columns are masked.
 */
export function exportPart(deps: Pick<BatchDeps, 'db' | 'clock' | 'sealer' | 'books' | 'events' | 'gate' | 'jobs'>, options: ExportOptions) {
  const { db, clock, sealer, books, events, gate, jobs } = deps;
  const fileOf = (id: string) => path.join(options.folder, `${id}.xlsx`);

  /**
   * Full numbers stay with the session whose access code let them out; a masked file is the account's.
   * (Null on exports made before the session was kept: served to none.)
   */
  const mayTake = (row: ExportRow, sessionId: string) => !row.includeSensitive || row.sessionId === sessionId;

  /** The export as the asking session sees it. */
  const view = (row: ExportRow, sessionId: string): BatchExportStatus => ({
    export_id: row.id,
    status: row.status as ExportStatus,
    done: row.done,
    total: row.total,
    file_name: row.fileName,
    expires_at: row.expiresAt?.toISOString() ?? null,
    size: row.size ?? null,
    include_sensitive: row.includeSensitive,
    downloadable: mayTake(row, sessionId),
    columns: row.columns as ExportColumn[],
    created_at: row.createdAt.toISOString(),
    finished_at: row.finishedAt?.toISOString() ?? null,
    error: row.error,
  });

  // to the members who may see the export, as its list shows it: a MEMBER's own to them (and the roles that
  // see every card), the others' to the roles that see every card (no MEMBER holds the owner's member id,
  // which is the account's)
  const announce = (tx: Tx, row: ExportRow) =>
    events.toAccount(
      tx,
      row.merchantId,
      row.accountId,
      EVENT_TYPES.exportProgress,
      { export_id: row.id, status: row.status, done: row.done, total: row.total },
      { audience: { card: row.selection.held_by ?? row.accountId } },
    );

  /** Saves the export's new figures and tells the account's tabs. */
  const progress = (id: string, changes: Partial<ExportRow>, onlyIf?: { status: string[] }) =>
    db.transaction(async (tx) => {
      const row = await updateExport(tx, id, changes, onlyIf);
      if (row) await announce(tx, row);
      return row;
    });

  async function write(data: { export_id: string }, job: JobInfo) {
    const row = await findExport(db, data.export_id);
    if (!row || !['PENDING', 'RUNNING'].includes(row.status)) return;
    const file = fileOf(row.id);
    const partial = `${file}.part`;
    // the way into the part file, once begun: on a failure it is torn down and its descriptor closed
    let zipped: PassThrough | undefined;
    let out: WriteStream | undefined;
    let sealedFile: Promise<void> | undefined;
    try {
      const selection = row.selection;
      const ids = selection.ids?.filter(isUuid);
      // the list's own filter, as GET /card chooses the cards (a filter it could not read chooses none)
      const filter = cardListFilter.safeParse(selection.filters);
      const where = ids
        ? exportWhere(row.merchantId, row.accountId, ids, selection.held_by)
        : filter.success
          ? cardListWhere(row.merchantId, { accountId: row.accountId, heldBy: selection.held_by }, filter.data)
          : sql`false`;
      const total = ids && ids.length === 0 ? 0 : await countExportCards(db, where);
      await progress(row.id, { status: 'RUNNING', startedAt: clock.now(), done: 0, total });

      await mkdir(options.folder, { recursive: true, mode: 0o700 });
      const { default: ExcelJS } = await import('exceljs');
      // the zip exceljs writes goes through the seal on its way to the file: no clear byte reaches the disk
      zipped = new PassThrough();
      const plain = byteCounter();
      // made afresh, so its mode is ours even where an earlier try left a part behind
      await rm(partial, { force: true });
      out = createWriteStream(partial, { mode: 0o600 });
      sealedFile = pipeline(zipped, plain.stream, sealer.sealStream(row.id), out);
      // awaited with the workbook's commit below; this only keeps an early failure from going unheard meanwhile
      sealedFile.catch(() => {});
      const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: zipped, useStyles: true, useSharedStrings: false });
      const columns = row.columns as ExportColumn[];
      const { worksheet: sheet, addRow } = exportSheet<Partial<SheetRow>>(
        workbook,
        '卡片',
        columns.map((key) => ({
          header: EXPORT_COLUMNS[key].header,
          key,
          width: key === 'id' || key === 'batch_id' ? 38 : key === 'card_number' || key === 'created_at' ? 21 : 14,
          kind: key === 'balance' ? 'amount' : key === 'created_at' ? 'time' : 'text',
        })),
      );
      let done = 0;
      let after: { createdAt: Date; id: string } | null = null;
      // cards opened after the export began are left out: the file is the list as it was asked for
      while (done < total) {
        const page = await exportCardsAfter(db, where, after, Math.min(PAGE, total - done));
        if (page.length === 0) break;
        const money = columns.includes('balance') ? await books.cardBalances(row.merchantId, page.map((item) => item.card.id)) : new Map();
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
            created_at: card.createdAt,
            id: card.id,
          };
          addRow(Object.fromEntries(columns.map((key) => [key, line[key] ?? null])));
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
      // the file's failure ends the wait at once (the workbook would wait for a finish that never comes)
      await Promise.all([workbook.commit(), sealedFile]);
      await rename(partial, file);
      // the spreadsheet's own size, as downloaded
      const size = plain.counted.bytes;
      const now = clock.now();
      await progress(row.id, { status: 'DONE', done, size, finishedAt: now, expiresAt: new Date(now.getTime() + EXPORT_KEEP_HOURS * 3_600_000), error: null });
    } catch (error) {
      // a failure between rows leaves the pipeline waiting for an end that never comes, holding the file open
      zipped?.destroy(error as Error);
      await sealedFile?.catch(() => {});
      // the descriptor may still be opening or closing when the pipeline gives up; the part is removed after
      if (out && !out.closed) await new Promise<void>((resolve) => out?.once('close', () => resolve()));
      await rm(partial, { force: true }).catch(() => {});
      if (job.retryCount < job.retryLimit) throw error;
      await progress(row.id, { status: 'FAILED', finishedAt: clock.now(), error: FAILED_TEXT });
      throw error;
    }
  }

  /**
   * A file written before files were sealed holds its numbers in clear: it is deleted, and its export
   * answered as expired (to be exported again), rather than served.
   */
  async function expireUnsealed(id: string) {
    await rm(fileOf(id), { force: true });
    await progress(id, { status: 'EXPIRED' }, { status: ['DONE'] });
  }

  /** Deletes the files kept past their time, and any written in clear; their exports become EXPIRED. */
  async function expire() {
    let count = 0;
    for (;;) {
      const due = await expiredExports(db, clock.now(), 100);
      if (due.length === 0) break;
      for (const row of due) {
        await rm(fileOf(row.id), { force: true });
        await progress(row.id, { status: 'EXPIRED' }, { status: ['DONE'] });
        count++;
      }
    }
    // only finished files (a part still being written may not have its first bytes yet)
    const names = await readdir(options.folder).catch(() => [] as string[]);
    for (const name of names) {
      const id = /^(.+)\.xlsx$/.exec(name)?.[1];
      if (!id || !isUuid(id) || (await sealedHead(fileOf(id))) !== false) continue;
      await expireUnsealed(id);
      count++;
    }
    return count;
  }

  jobs.work<{ export_id: string }>(EXPORT_WRITE_QUEUE, write, { concurrency: 1, retryLimit: 2, retryDelay: 5, expireInSeconds: 600 });
  jobs.work<Record<string, never>>(EXPORT_EXPIRE_QUEUE, async () => void (await expire()), { retryLimit: 0 });
  jobs.schedule(EXPORT_EXPIRE_QUEUE, EXPIRE_CRON);

  async function ownExport(merchantId: string, auth: Authenticated, id: string) {
    const { accountId, heldBy } = cardScopeOf(auth);
    const row = isUuid(id) ? await findOwnExport(db, merchantId, accountId, id, heldBy) : undefined;
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
      const { accountId, heldBy } = cardScopeOf(auth);
      if (includeSensitive) {
        // full numbers are for the roles that may reveal a card (a VIEWER's or FINANCE's export has none)
        if (!can(auth.member.role, 'cards.reveal')) throw permissionDenied('cards.reveal');
        // looked at before the code is used, so a refused export does not spend it
        await gate.checkLimits(db, accountId, clock.now(), 'export');
        await gate.unlock(merchantId, auth, body, CardBatchErrorCode.EXPORT_CODE_REQUIRED);
      }
      const now = clock.now();
      const stamp = chinaDateTime(now, { seconds: true }).replace(/[-: ]/g, '');
      const selection = {
        filters: cardFilterQuery(body.filters),
        ...(body.ids ? { ids: [...new Set(body.ids)] } : {}),
        ...(heldBy ? { held_by: heldBy } : {}),
      };
      const row = await db.transaction(async (tx) => {
        if (includeSensitive) {
          await gate.serialise(tx, accountId);
          await gate.checkLimits(tx, accountId, now, 'export');
        }
        const saved = await insertExport(tx, {
          merchantId,
          accountId,
          status: 'PENDING',
          selection,
          columns,
          includeSensitive,
          sessionId: auth.session.id,
          fileName: `卡片导出-${stamp.slice(0, 8)}-${stamp.slice(8)}.xlsx`,
          ip: caller.ip,
          userAgent: caller.userAgent.slice(0, 300),
          createdAt: now,
        });
        await jobs.send(EXPORT_WRITE_QUEUE, { export_id: saved.id }, { tx, singletonKey: saved.id });
        await traceWithin(tx, cardBatchCalls.createExport, null);
        return saved;
      });
      return { export_id: row.id };
    },

    /** GET /card/batch-export-status: one export, or the account's latest (null: none yet). */
    async status(merchantId: string, auth: Authenticated, id: string | undefined) {
      const { accountId, heldBy } = cardScopeOf(auth);
      if (id !== undefined) return view(await ownExport(merchantId, auth, id), auth.session.id);
      const [latest] = await recentExports(db, merchantId, accountId, 1, heldBy);
      return latest ? view(latest, auth.session.id) : null;
    },

    /** GET /card/batch-exports: the account's recent exports (a MEMBER's own only), newest first. */
    async list(merchantId: string, auth: Authenticated) {
      const { accountId, heldBy } = cardScopeOf(auth);
      return { items: (await recentExports(db, merchantId, accountId, EXPORT_LIST_SIZE, heldBy)).map((row) => view(row, auth.session.id)) };
    },

    /**
     * GET /card/batch-export/{id}/file: the spreadsheet, opened from its seal as it is sent, while it is kept.
     * The whole file is checked first, so a damaged one is refused before any of it is sent; the answer's
     * stream checks every chunk again before passing it on. Full numbers go only to the session that made
     * the export, refused before anything of the file is read.
     */
    async file(merchantId: string, auth: Authenticated, id: string): Promise<{ stream: Readable; fileName: string; size: number }> {
      const row = await ownExport(merchantId, auth, id);
      if (!mayTake(row, auth.session.id)) throw new AppError(CardBatchErrorCode.EXPORT_OTHER_SESSION);
      if (row.status === 'EXPIRED' || (row.expiresAt && row.expiresAt.getTime() <= clock.now().getTime())) throw new AppError(CardBatchErrorCode.EXPORT_EXPIRED);
      if (row.status !== 'DONE') throw new AppError(CardBatchErrorCode.EXPORT_NOT_READY, { data: { status: row.status } });
      const file = fileOf(row.id);
      const sealed = await sealedHead(file);
      if (sealed === null) throw new AppError(CardBatchErrorCode.EXPORT_EXPIRED);
      if (!sealed) {
        await expireUnsealed(row.id);
        throw new AppError(CardBatchErrorCode.EXPORT_EXPIRED);
      }
      const plain = byteCounter();
      const discard = new Writable({ write: (_chunk, _encoding, callback) => callback() });
      try {
        await pipeline(createReadStream(file), sealer.openStream(row.id), plain.stream, discard);
      } catch (error) {
        options.warn?.('an export file does not open', { export_id: row.id, reason: (error as Error).message });
        throw new AppError(CardErrorCode.EXPORT_FILE_DAMAGED);
      }
      const opened = sealer.openStream(row.id);
      // a failure after the check (the file changed meanwhile) ends the answer short of its length
      createReadStream(file)
        .on('error', (error) => opened.destroy(error))
        .pipe(opened);
      return { stream: opened, fileName: row.fileName, size: plain.counted.bytes };
    },
  };
}

export type ExportPart = ReturnType<typeof exportPart>;
