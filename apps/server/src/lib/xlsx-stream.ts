import { PassThrough, type Readable } from 'node:stream';
import { CHINA_DATE_TIME_NUMBER_FORMAT, chinaSheetTime } from '@portal/contract/date-time';
import type { stream } from 'exceljs';

/** What a column holds: text, an amount (a number shown with two decimals) or a time (a date cell in China time). */
export type XlsxColumnKind = 'text' | 'amount' | 'time';

/** One column of a sheet: its header, width, the row field it shows and what it holds. */
export interface XlsxColumn<Row> {
  key: keyof Row & string;
  header: string;
  width: number;
  kind?: XlsxColumnKind;
}

/** The number format of each kind of column: amounts to the cent, times as the portal shows them. */
const numberFormats: Record<XlsxColumnKind, string | undefined> = {
  text: undefined,
  amount: '0.00',
  time: CHINA_DATE_TIME_NUMBER_FORMAT,
};

export type XlsxCell = string | number | Date | null;

/** A spreadsheet column's letter: 1 → A, 27 → AA. */
const columnLetter = (index: number): string => (index <= 0 ? '' : columnLetter(Math.floor((index - 1) / 26)) + String.fromCharCode(65 + ((index - 1) % 26)));

/**
 * A sheet of a streaming workbook, as every export of the portal is laid out: its header row frozen and
 * filtering its columns, amounts as numbers with two decimals, times as date cells showing China time.
 * Answers the sheet and how a row is added (a Date cell is written as China's wall clock to the whole second,
 * as the screens show it: a spreadsheet has no time zone).
 */
export function exportSheet<Row extends Record<string, XlsxCell>>(workbook: stream.xlsx.WorkbookWriter, name: string, columns: Array<XlsxColumn<Row>>) {
  const worksheet = workbook.addWorksheet(name, { views: [{ state: 'frozen', xSplit: 0, ySplit: 1 }] });
  worksheet.columns = columns.map((column) => {
    const numFmt = numberFormats[column.kind ?? 'text'];
    return { header: column.header, key: column.key, width: column.width, ...(numFmt ? { style: { numFmt } } : {}) };
  });
  worksheet.autoFilter = { from: 'A1', to: `${columnLetter(Math.max(1, columns.length))}1` };
  const addRow = (row: Row) => {
    const cells = Object.fromEntries(Object.entries(row).map(([key, value]) => [key, value instanceof Date ? chinaSheetTime(value) : value]));
    worksheet.addRow(cells).commit();
  };
  return { worksheet, addRow };
}

/**
 * An .xlsx file written while its rows are read (exceljs' streaming writer, so memory stays
 * bounded however many rows there are). Answers the stream at once; the rows follow as `rows`
 * yields them. A failure while writing destroys the stream with that error.
 */
export async function xlsxStream<Row extends Record<string, XlsxCell>>(sheet: {
  name: string;
  columns: Array<XlsxColumn<Row>>;
  rows: AsyncIterable<Row>;
}): Promise<Readable> {
  // loaded on the first export only: it takes a moment, which every start and every command would pay
  const { default: ExcelJS } = await import('exceljs');
  const output = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: output, useStyles: true, useSharedStrings: false });
  const { worksheet, addRow } = exportSheet(workbook, sheet.name, sheet.columns);
  const write = async () => {
    for await (const row of sheet.rows) addRow(row);
    worksheet.commit();
    await workbook.commit();
  };
  write().catch((error: unknown) => output.destroy(error as Error));
  return output;
}

/**
 * The rows of a list as it stood when it was counted: `total` rows read `part` at a time, each part after
 * the last row of the one before (rows written meanwhile are left out: the file is the list as asked for).
 */
export async function* rowsInParts<Row, Out>(total: number, part: number, read: (after: Row | null, limit: number) => Promise<Row[]>, out: (row: Row) => Out) {
  let after: Row | null = null;
  let left = total;
  while (left > 0) {
    const batch = await read(after, Math.min(part, left));
    if (batch.length === 0) return;
    for (const row of batch) yield out(row);
    left -= batch.length;
    after = batch[batch.length - 1] as Row;
  }
}
