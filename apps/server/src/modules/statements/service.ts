import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { ErrorCode } from '@portal/contract/errors';
import { STATEMENT_PDF_ROW_LIMIT, type StatementQuery, statementMonthRange, statementText } from '@portal/contract/statements';
import { themeFor } from '@portal/contract/theme';
import { EXPORT_ROW_LIMIT, XLSX_CONTENT_TYPE } from '@portal/contract/wallet';
import type { Db } from '../../db/engine.ts';
import { AppError } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { StatementDocument, StatementLogo } from './document.ts';
import { statementPdf } from './pdf.ts';
import { statementWorkbook } from './sheet.ts';
import { type StatementMovement, type StatementScope, statementAccounts, statementFees, statementMovements } from './store.ts';

const PART = 2_000;

/** A statement's file, ready to send. */
export interface StatementFile {
  body: Buffer | Readable;
  contentType: string;
  fileName: string;
  /** an ASCII name for clients that do not read `filename*` */
  asciiName: string;
}

/** The merchant as the statement names it. */
export interface StatementMerchant {
  id: string;
  name: string;
  color: string;
  darkLogo: string;
}

/**
 * Monthly statements: per currency and China-time month, the wallet and every card of the account,
 * read from the ledger in one snapshot (a movement committed while the statement is read is either in
 * every figure or in none), drawn as a PDF or a workbook.
 */
export function createStatementService({ db, clock, webDist }: { db: Db; clock: Clock; webDist: string }) {
  /**
   * The merchant's logo for a light page: its dark_logo, read from the web app's files when it is a path
   * of this site (the built app, else its public folder), or from a data: URL; none for another site's.
   */
  async function logoOf(merchant: StatementMerchant): Promise<StatementLogo | null> {
    const source = merchant.darkLogo.trim();
    if (source.startsWith('data:')) {
      const match = /^data:(image\/[a-z+]+)(;base64)?,(.*)$/s.exec(source);
      if (!match) return null;
      let data: Buffer;
      try {
        data = match[2] ? Buffer.from(match[3] ?? '', 'base64') : Buffer.from(decodeURIComponent(match[3] ?? ''), 'utf8');
      } catch {
        // a logo that cannot be read leaves the merchant's name in its place
        return null;
      }
      return match[1] === 'image/svg+xml' ? { kind: 'svg', svg: data.toString('utf8') } : { kind: 'image', data };
    }
    if (!source.startsWith('/') || source.startsWith('//')) return null;
    const relative = path.posix.normalize(source.split(/[?#]/)[0] ?? '');
    if (relative.includes('..')) return null;
    for (const folder of [webDist, path.resolve(webDist, '../public')]) {
      const file = path.join(folder, relative);
      if (!file.startsWith(folder + path.sep)) continue;
      const data = await readFile(file).catch(() => null);
      if (!data) continue;
      return file.endsWith('.svg') ? { kind: 'svg', svg: data.toString('utf8') } : { kind: 'image', data };
    }
    return null;
  }

  /** Every movement, read a part at a time. */
  async function readAll(read: (after: StatementMovement | null) => Promise<StatementMovement[]>) {
    const all: StatementMovement[] = [];
    let after: StatementMovement | null = null;
    for (;;) {
      const part = await read(after);
      all.push(...part);
      if (part.length < PART) return all;
      after = part[part.length - 1] as StatementMovement;
    }
  }

  return {
    /**
     * The statement of `query.month` in `query.currency`. A month not begun is refused; the current
     * month runs to now. Too many movements for the format are refused with their count.
     */
    async statement(merchant: StatementMerchant, account: { id: string; name: string }, query: StatementQuery): Promise<StatementFile> {
      const now = clock.now();
      const range = statementMonthRange(query.month);
      if (range.start.getTime() > now.getTime()) {
        throw new AppError(ErrorCode.STATEMENT_MONTH_NOT_BEGUN, { params: { month: query.month }, data: { month: query.month } });
      }
      const scope: StatementScope = {
        merchantId: merchant.id,
        accountId: account.id,
        currency: query.currency,
        start: range.start,
        // the current month as the snapshot holds it: every posting committed when it was taken
        end: range.end,
      };
      const limit = query.format === 'pdf' ? STATEMENT_PDF_ROW_LIMIT : EXPORT_ROW_LIMIT;
      const read = await db.transaction(
        async (tx) => {
          const accounts = await statementAccounts(tx, scope);
          const total = accounts.reduce((sum, row) => sum + row.movements, 0);
          if (total > limit) {
            const code = query.format === 'pdf' ? ErrorCode.STATEMENT_TOO_LARGE : ErrorCode.EXPORT_TOO_LARGE;
            throw new AppError(code, { params: { limit, total }, data: { limit, total } });
          }
          const fees = await statementFees(tx, scope);
          const movementsOf = (side: 'WALLET' | 'CARD') =>
            readAll((after) => statementMovements(tx, scope, side, after ? { id: after.id } : null, PART));
          const wallet = await movementsOf('WALLET');
          const cards = await movementsOf('CARD');
          return { accounts, fees, wallet, cards };
        },
        { isolationLevel: 'repeatable read', accessMode: 'read only' },
      );
      const doc: StatementDocument = {
        merchant: { name: merchant.name, logo: await logoOf(merchant) },
        account,
        month: query.month,
        currency: query.currency,
        generatedAt: now,
        ...read,
      };
      const fileName = statementText.fileName(query.month, query.currency, query.format);
      const asciiName = `statement-${query.month}-${query.currency}.${query.format}`;
      if (query.format === 'pdf') {
        return { body: await statementPdf(doc, themeFor(merchant.color).primary), contentType: 'application/pdf', fileName, asciiName };
      }
      return { body: await statementWorkbook(doc), contentType: XLSX_CONTENT_TYPE, fileName, asciiName };
    },
  };
}

export type StatementService = ReturnType<typeof createStatementService>;
