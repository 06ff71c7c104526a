import { PassThrough, type Readable } from 'node:stream';

/** One column of a sheet: its header, width, the row field it shows, and a number format (e.g. '0.00'). */
export interface XlsxColumn<Row> {
  key: keyof Row & string;
  header: string;
  width: number;
  numFmt?: string;
}

/**
 * An .xlsx file written while its rows are read (exceljs' streaming writer, so memory stays
 * bounded however many rows there are). Answers the stream at once; the rows follow as `rows`
 * yields them. A failure while writing destroys the stream with that error.
 */
export async function xlsxStream<Row extends Record<string, string | number | null>>(sheet: {
  name: string;
  columns: Array<XlsxColumn<Row>>;
  rows: AsyncIterable<Row>;
}): Promise<Readable> {
  // loaded on the first export only: it takes a moment, which every start and every command would pay
  const { default: ExcelJS } = await import('exceljs');
  const stream = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: true, useSharedStrings: false });
  const worksheet = workbook.addWorksheet(sheet.name);
  worksheet.columns = sheet.columns.map((column) => ({
    header: column.header,
    key: column.key,
    width: column.width,
    ...(column.numFmt ? { style: { numFmt: column.numFmt } } : {}),
  }));
  const write = async () => {
    for await (const row of sheet.rows) worksheet.addRow(row).commit();
    worksheet.commit();
    await workbook.commit();
  };
  write().catch((error: unknown) => stream.destroy(error as Error));
  return stream;
}
