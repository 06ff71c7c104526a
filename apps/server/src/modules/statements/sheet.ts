import { PassThrough, type Readable } from 'node:stream';
import { fromMinorUnits } from '@portal/contract/money';
import { statementCardName, statementText as text } from '@portal/contract/statements';
import { exportSheet } from '../../lib/xlsx-stream.ts';
import { feeLines, movementCells, type StatementDocument, statementFacts, summaryLines } from './document.ts';

/** Two-decimal amounts are exact as spreadsheet numbers; the text is what the portal shows. */
const amount = (units: bigint) => Number(fromMinorUnits(units));

/**
 * The statement as an .xlsx workbook, the portal's export layout on every sheet (frozen header,
 * auto-filter, amounts as numbers, times as China-time date cells): 汇总 (who, when, the summary and
 * fees), 钱包流水, 卡片余额, 卡片流水.
 */
export async function statementWorkbook(doc: StatementDocument): Promise<Readable> {
  const { default: ExcelJS } = await import('exceljs');
  const output = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: output, useStyles: true, useSharedStrings: false });
  const write = async () => {
    const summary = exportSheet<{ item: string; opening: number | string; credits: number | string; debits: number | string; closing: number | string }>(workbook, text.summary, [
      { header: text.item, key: 'item', width: 24 },
      { header: text.opening, key: 'opening', width: 18, kind: 'amount' },
      { header: text.credits, key: 'credits', width: 18, kind: 'amount' },
      { header: text.debits, key: 'debits', width: 18, kind: 'amount' },
      { header: text.closing, key: 'closing', width: 18, kind: 'amount' },
    ]);
    for (const line of summaryLines(doc)) {
      summary.addRow({ item: line.item, opening: amount(line.opening), credits: amount(line.credits), debits: amount(line.debits), closing: amount(line.closing) });
    }
    const blank = { opening: '', credits: '', debits: '', closing: '' };
    summary.addRow({ item: '', ...blank });
    const fees = feeLines(doc);
    for (const fee of fees.lines) summary.addRow({ item: fee.label, ...blank, closing: amount(fee.amount) });
    summary.addRow({ item: fees.lines.length === 0 ? text.noFees : text.feesTotal, ...blank, closing: fees.lines.length === 0 ? '' : amount(fees.total) });
    summary.addRow({ item: '', ...blank });
    const facts: Array<[string, string]> = [...statementFacts(doc), ['说明', text.balanceNote]];
    for (const [label, value] of facts) summary.addRow({ item: label, ...blank, opening: value });
    summary.worksheet.commit();

    const wallet = exportSheet<{ time: Date; type: string; card: string; amount: number; fee: number | string; balance: number; memo: string }>(workbook, text.walletMovements, [
      { header: text.time, key: 'time', width: 21, kind: 'time' },
      { header: text.type, key: 'type', width: 14 },
      { header: text.card, key: 'card', width: 22 },
      { header: text.amount, key: 'amount', width: 16, kind: 'amount' },
      { header: text.fee, key: 'fee', width: 12, kind: 'amount' },
      { header: text.balanceAfter, key: 'balance', width: 16, kind: 'amount' },
      { header: text.memo, key: 'memo', width: 40 },
    ]);
    for (const movement of doc.wallet) {
      const cells = movementCells(movement);
      wallet.addRow({
        time: movement.createdAt,
        type: cells.type,
        card: cells.card,
        amount: amount(movement.amount),
        fee: movement.fee === 0n ? '' : amount(movement.fee),
        balance: amount(movement.balanceAfter),
        memo: movement.memo,
      });
    }
    wallet.worksheet.commit();

    const balances = exportSheet<{ card: string; opening: number; credits: number; debits: number; closing: number }>(workbook, text.cardBalances, [
      { header: text.card, key: 'card', width: 26 },
      { header: text.opening, key: 'opening', width: 16, kind: 'amount' },
      { header: text.credits, key: 'credits', width: 16, kind: 'amount' },
      { header: text.debits, key: 'debits', width: 16, kind: 'amount' },
      { header: text.closing, key: 'closing', width: 16, kind: 'amount' },
    ]);
    for (const card of doc.accounts.filter((account) => account.side === 'CARD')) {
      balances.addRow({ card: statementCardName(card), opening: amount(card.opening), credits: amount(card.credits), debits: amount(card.debits), closing: amount(card.closing) });
    }
    balances.worksheet.commit();

    const cards = exportSheet<{ time: Date; card: string; type: string; amount: number; balance: number; memo: string }>(workbook, text.cardMovements, [
      { header: text.time, key: 'time', width: 21, kind: 'time' },
      { header: text.card, key: 'card', width: 22 },
      { header: text.type, key: 'type', width: 12 },
      { header: text.amount, key: 'amount', width: 16, kind: 'amount' },
      { header: text.balanceAfter, key: 'balance', width: 16, kind: 'amount' },
      { header: text.memo, key: 'memo', width: 40 },
    ]);
    for (const movement of doc.cards) {
      const cells = movementCells(movement);
      cards.addRow({ time: movement.createdAt, card: cells.card, type: cells.type, amount: amount(movement.amount), balance: amount(movement.balanceAfter), memo: movement.memo });
    }
    cards.worksheet.commit();
    await workbook.commit();
  };
  write().catch((error: unknown) => output.destroy(error as Error));
  return output;
}
