import { buffer } from 'node:stream/consumers';
import { chinaDateTime } from '@portal/contract/date-time';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { xlsxStream } from '../../src/lib/xlsx-stream.ts';
import { chinaTimeCell } from '../helpers/xlsx.ts';

interface Row extends Record<string, string | number | Date | null> {
  at: Date;
  note: string;
}

async function sheetOf(rows: Row[]) {
  const stream = await xlsxStream<Row>({
    name: '记录',
    columns: [
      { key: 'at', header: '时间', width: 20, kind: 'time' },
      { key: 'note', header: '说明', width: 20 },
    ],
    rows: (async function* () {
      yield* rows;
    })(),
  });
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load((await buffer(stream)) as unknown as ArrayBuffer);
  const sheet = workbook.getWorksheet('记录');
  if (!sheet) throw new Error('the workbook has no sheet 记录');
  return sheet;
}

describe('time cells of an export', () => {
  it('hold the second the screens show, never the next one a spreadsheet would round up to', async () => {
    // 23:59:59.700 on 28 November in China: rounded, it would read the 29th at 00:00:00
    const at = new Date('2026-11-28T15:59:59.700Z');
    const sheet = await sheetOf([{ at, note: '到秒' }]);
    const cell = sheet.getRow(2).getCell(1);
    expect(chinaDateTime(at, { seconds: true })).toBe('2026-11-28 23:59:59');
    expect(cell.value).toEqual(chinaTimeCell('2026-11-28 23:59:59'));
    expect((cell.value as Date).getUTCMilliseconds()).toBe(0);
    expect(cell.numFmt).toBe('yyyy-mm-dd hh:mm:ss');
  });

  it('keep a time already on a whole second as it is', async () => {
    const sheet = await sheetOf([{ at: new Date('2026-03-05T15:30:00.000Z'), note: '整秒' }]);
    expect(sheet.getRow(2).getCell(1).value).toEqual(chinaTimeCell('2026-03-05 23:30:00'));
  });
});
