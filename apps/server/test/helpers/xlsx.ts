import type { Worksheet } from 'exceljs';
import { expect } from 'vitest';

/** How a date cell of an export reads back for a China time "2026-03-05 23:30:00": its wall clock, as a Date. */
export const chinaTimeCell = (chinaTime: string) => new Date(`${chinaTime.replace(' ', 'T')}Z`);

/**
 * An export's sheet as the portal lays every one out: the header row frozen and filtering every column;
 * the columns named `times` date cells in China time, those named `amounts` numbers to the cent, on every
 * row below the header.
 */
export function expectExportLayout(sheet: Worksheet, { times = [], amounts = [] }: { times?: string[]; amounts?: string[] } = {}) {
  expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
  const headers = (sheet.getRow(1).values as unknown[]).slice(1).map(String);
  const lastLetter = sheet.getRow(1).getCell(headers.length).address.replace(/\d+$/, '');
  const filter = typeof sheet.autoFilter === 'string' ? sheet.autoFilter : `${String(sheet.autoFilter?.from)}:${String(sheet.autoFilter?.to)}`;
  expect(filter).toBe(`A1:${lastLetter}1`);
  const columnOf = (header: string) => {
    const index = headers.indexOf(header);
    expect(index, header).toBeGreaterThanOrEqual(0);
    return index + 1;
  };
  expect(sheet.rowCount).toBeGreaterThan(1);
  for (let number = 2; number <= sheet.rowCount; number += 1) {
    const row = sheet.getRow(number);
    for (const header of times) {
      const cell = row.getCell(columnOf(header));
      expect(cell.value, `${header} ${number}`).toBeInstanceOf(Date);
      // whole seconds, as the screens show them: a spreadsheet would round milliseconds up
      expect((cell.value as Date).getUTCMilliseconds(), `${header} ${number}`).toBe(0);
      expect(cell.numFmt).toBe('yyyy-mm-dd hh:mm:ss');
    }
    for (const header of amounts) {
      const cell = row.getCell(columnOf(header));
      expect(typeof cell.value, `${header} ${number}`).toBe('number');
      expect(cell.numFmt).toBe('0.00');
    }
  }
}
