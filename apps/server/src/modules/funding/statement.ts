import { type Currency, CURRENCIES } from '@portal/contract/enums';
import { referencesIn, STATEMENT_COLUMNS } from '@portal/contract/funding';
import { AMOUNT_PATTERN, toMinorUnits } from '@portal/contract/money';
import { MAX_AMOUNT } from '../ledger/service.ts';

/** A bank statement's line, read and checked. */
export interface StatementLine {
  /** the line's number in the file (the header is line 1) */
  line: number;
  bankTxnId: string;
  date: string;
  amount: bigint;
  currency: Currency;
  payer: string;
  memo: string;
  references: string[];
}

export interface BadLine {
  line: number;
  bankTxnId: string | null;
  problem: string;
}

/** Splits CSV text (RFC 4180: quoted fields may hold commas, quotes doubled, line breaks) into rows with their first line's number. */
export function csvRows(text: string): Array<{ line: number; cells: string[] }> {
  const rows: Array<{ line: number; cells: string[] }> = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let rowLine = 1;
  let touched = false;
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const endRow = () => {
    cells.push(cell);
    if (touched || cells.length > 1 || cell !== '') rows.push({ line: rowLine, cells });
    cells = [];
    cell = '';
    touched = false;
  };
  for (let at = 0; at < body.length; at += 1) {
    const char = body[at] as string;
    if (quoted) {
      if (char === '"' && body[at + 1] === '"') {
        cell += '"';
        at += 1;
      } else if (char === '"') quoted = false;
      else {
        if (char === '\n') line += 1;
        cell += char;
      }
      continue;
    }
    if (char === '"') {
      quoted = true;
      touched = true;
    } else if (char === ',') {
      cells.push(cell);
      cell = '';
      touched = true;
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && body[at + 1] === '\n') at += 1;
      endRow();
      line += 1;
      rowLine = line;
    } else cell += char;
  }
  if (cell !== '' || cells.length > 0 || touched) endRow();
  return rows;
}

const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2})?)?$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/;

/**
 * Reads a statement: the header names the columns (any order; others ignored), each further line is
 * checked on its own. Answers the good lines and, for each bad one, its number and what is wrong;
 * a header without the columns answers `missing`.
 */
export function readStatement(text: string, currency: Currency) {
  const rows = csvRows(text);
  const [header, ...lines] = rows;
  const names = (header?.cells ?? []).map((name) => name.trim().toLowerCase());
  const missing = STATEMENT_COLUMNS.filter((column) => !names.includes(column));
  const good: StatementLine[] = [];
  const bad: BadLine[] = [];
  if (missing.length > 0) return { missing, good, bad };
  const at = Object.fromEntries(STATEMENT_COLUMNS.map((column) => [column, names.indexOf(column)])) as Record<(typeof STATEMENT_COLUMNS)[number], number>;
  const seen = new Set<string>();
  for (const { line, cells } of lines) {
    const value = (column: (typeof STATEMENT_COLUMNS)[number]) => (cells[at[column]] ?? '').trim();
    const bankTxnId = value('bank_txn_id');
    const problem = (() => {
      if (cells.length < names.length) return `has ${cells.length} columns, the header has ${names.length}`;
      if (!/^[\x21-\x7e]{1,100}$/.test(bankTxnId)) return 'bank_txn_id must be 1–100 visible ASCII characters';
      if (seen.has(bankTxnId)) return `bank_txn_id ${bankTxnId} appears twice in this file`;
      if (!DATE_PATTERN.test(value('date')) || Number.isNaN(Date.parse(value('date').slice(0, 10)))) return 'date must be YYYY-MM-DD (a time may follow)';
      const amount = value('amount').replaceAll(',', '');
      if (!AMOUNT_PATTERN.test(amount) || toMinorUnits(amount) <= 0n) return `amount must be above zero with at most two decimals, not "${value('amount')}"`;
      if (toMinorUnits(amount) > MAX_AMOUNT) return 'amount is more than one operation moves';
      const lineCurrency = value('currency').toUpperCase();
      if (!(CURRENCIES as readonly string[]).includes(lineCurrency)) return `currency must be ${CURRENCIES.join(' or ')}, not "${value('currency')}"`;
      if (lineCurrency !== currency) return `currency is ${lineCurrency}, but this import is of ${currency} (--currency)`;
      if ([...value('payer')].length > 200 || CONTROL.test(value('payer'))) return 'payer must be at most 200 characters without control characters';
      if ([...value('memo')].length > 500 || CONTROL.test(value('memo'))) return 'memo must be at most 500 characters without control characters';
      return null;
    })();
    if (problem) {
      bad.push({ line, bankTxnId: bankTxnId || null, problem });
      continue;
    }
    seen.add(bankTxnId);
    good.push({
      line,
      bankTxnId,
      date: value('date').slice(0, 10),
      amount: toMinorUnits(value('amount').replaceAll(',', '')),
      currency,
      payer: value('payer'),
      memo: value('memo'),
      references: referencesIn(value('memo')),
    });
  }
  return { missing, good, bad };
}
