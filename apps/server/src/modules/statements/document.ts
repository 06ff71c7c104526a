import { fromMinorUnits } from '@portal/contract/money';
import { formatAmount } from '@portal/contract/money-format';
import { chinaDateTime } from '@portal/contract/date-time';
import { statementCardName, statementFeeLabel, statementPeriodText, statementRowLabel, statementText } from '@portal/contract/statements';
import type { StatementAccount, StatementMovement } from './store.ts';

/** A logo as the statement draws it: an SVG's text, or a PNG or JPEG image. */
export type StatementLogo = { kind: 'svg'; svg: string } | { kind: 'image'; data: Buffer };

/** Everything a statement shows, read in one snapshot of the books; both files are drawn from it. */
export interface StatementDocument {
  merchant: { name: string; logo: StatementLogo | null };
  account: { id: string; name: string };
  month: string;
  currency: string;
  generatedAt: Date;
  accounts: StatementAccount[];
  fees: Array<{ type: string; amount: bigint }>;
  wallet: StatementMovement[];
  cards: StatementMovement[];
}

/** A line of the summary: the wallet, the cards together, or both. */
export interface SummaryLine {
  item: string;
  opening: bigint;
  credits: bigint;
  debits: bigint;
  closing: bigint;
}

const sum = (accounts: StatementAccount[], key: 'opening' | 'credits' | 'debits' | 'closing') => accounts.reduce((total, account) => total + account[key], 0n);

/** The summary's three lines: 钱包, 卡片（N 张）, 合计. */
export function summaryLines(doc: StatementDocument): SummaryLine[] {
  const wallet = doc.accounts.filter((account) => account.side === 'WALLET');
  const cards = doc.accounts.filter((account) => account.side === 'CARD');
  const line = (item: string, of: StatementAccount[]): SummaryLine => ({
    item,
    opening: sum(of, 'opening'),
    credits: sum(of, 'credits'),
    debits: sum(of, 'debits'),
    closing: sum(of, 'closing'),
  });
  return [line(statementText.wallet, wallet), line(statementText.cards(cards.length), cards), line(statementText.total, doc.accounts)];
}

/** The month's fees by what paid them, and their total. */
export function feeLines(doc: StatementDocument) {
  const lines = doc.fees.filter((fee) => fee.amount !== 0n).map((fee) => ({ label: statementFeeLabel(fee.type), amount: fee.amount }));
  return { lines, total: lines.reduce((total, line) => total + line.amount, 0n) };
}

/** An amount as the statement prints it: grouped by thousands, two decimals. */
export const money = (units: bigint) => formatAmount(fromMinorUnits(units));

/** A movement's name, card and figures as both files print them. */
export function movementCells(movement: StatementMovement) {
  return {
    type: statementRowLabel(movement),
    card: movement.cardId ? statementCardName({ last4: movement.last4, nickname: movement.nickname }) : '',
  };
}

/** Who and what the statement is of, label and value, in the order both files print them. */
export function statementFacts(doc: StatementDocument): Array<[string, string]> {
  return [
    ['商户', doc.merchant.name],
    [statementText.account, doc.account.name || '—'],
    ['账户编号', doc.account.id],
    [statementText.currency, doc.currency],
    [statementText.period, `${statementPeriodText(doc.month)}${statementText.periodNote}`],
    [statementText.generatedAt, chinaDateTime(doc.generatedAt, { seconds: true })],
  ];
}
