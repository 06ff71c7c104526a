import { randomUUID } from 'node:crypto';
import type { CardItem, OpenedAvailableAnswer } from '@portal/contract/cards';
import { ErrorCode } from '@portal/contract/errors';
import { fromMinorUnits, toMinorUnits } from '@portal/contract/money';
import { formatAmount } from '@portal/contract/money-format';
import { TeamErrorCode } from '@portal/contract/team-errors';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { scriptedIssuer } from '../helpers/issuer.ts';
import { expectSoundBooks } from '../helpers/ledger.ts';
import { joinTeam, readyForCards, type Teammate, teamOwner } from '../helpers/team.ts';
import { expectExportLayout } from '../helpers/xlsx.ts';

/**
 * Monthly statements: the wallet and every card of one currency and China-time month, as .xlsx and PDF.
 * Each figure is checked against the ledger read another way: the month's closing is the next month's
 * opening, the current month's closing is the ledger's balance, the fees are what the merchant's fee
 * income took from the account's operations.
 */
// 2026-10-31 23:30 in China: October's last half hour
const clock = new ManualClock(new Date('2026-10-31T15:30:00Z'));
const issuer = scriptedIssuer();
let t: TestApp;
let owner: Teammate;
let other: Teammate;
let merchantId: string;
let firstCard: CardItem;

let serial = 0;
const key = () => `statement-${Date.now().toString(36)}-${++serial}`;
const rows = async (query: ReturnType<typeof sql>) => ((await t.database.db.execute(query)) as unknown as { rows: Array<Record<string, unknown>> }).rows;

const statement = (who: Teammate, query: string) =>
  t.app.inject({ method: 'GET', url: `/api/v1/statements?${query}`, headers: { host: who.host, authorization: `Bearer ${who.token}` } });

async function openCard(who: Teammate, amount: string, nickname: string) {
  const { products } = await who.api.data<OpenedAvailableAnswer>('GET', '/card/opened-available');
  const product = products.find((p) => p.name === '订阅支付卡');
  if (!product) throw new Error('no 订阅支付卡');
  clock.advance(1000);
  const opened = await who.api.post<CardItem>('/card', { product_id: product.id, amount, nickname }, { headers: { 'idempotency-key': key() } });
  expect(opened.code, opened.message).toBe(0);
  expect((await issuer.issue(opened.data.id)).status).toBe(200);
  return who.api.data<CardItem>('GET', `/card/${opened.data.id}`);
}

const authorize = (cardId: string, amount: string) => {
  clock.advance(1000);
  const id = `auth_${randomUUID()}`;
  return issuer
    .send('authorization.request', { id, card_id: cardId, amount, currency: 'USD', merchant_name: 'Meta Ads', mcc: '7311', country: 'US' })
    .then((answer) => ({ id, approved: (answer.body as unknown as { approved: boolean }).approved }));
};
const settle = (authorizationId: string, amount: string) => {
  clock.advance(1000);
  return issuer.send('transaction.settled', { id: `stl_${randomUUID()}`, authorization_id: authorizationId, amount });
};
const cardMoney = (who: Teammate, id: string, path: 'recharge' | 'withdraw', amount: string) => {
  clock.advance(1000);
  return who.api.post(`/card/${id}/${path}`, { amount }, { headers: { 'idempotency-key': key() } });
};

/** What the ledger says the account's wallet and cards hold now (minor units). */
async function ledgerBalances(accountId: string) {
  const [row] = await rows(sql`select coalesce(sum(balance) filter (where kind = 'WALLET'), 0)::text as wallet,
      coalesce(sum(balance) filter (where kind = 'CARD'), 0)::text as cards
    from ledger_accounts where holder_id = ${accountId} and currency = 'USD' and kind in ('WALLET', 'CARD')`);
  return { wallet: BigInt(String(row?.wallet)), cards: BigInt(String(row?.cards)) };
}

/** The fees the merchant's fee income took from the account's operations between two instants. */
async function feesBetween(accountId: string, from: string, to: string) {
  const [row] = await rows(sql`select coalesce(sum(p.amount), 0)::text as fees from ledger_transactions lt
    join ledger_postings p on p.transaction_id = lt.id
    join ledger_accounts la on la.id = p.ledger_account_id and la.kind = 'MERCHANT_FEE_INCOME'
    where lt.holder_id = ${accountId} and lt.currency = 'USD' and lt.created_at >= ${from}::timestamptz and lt.created_at < ${to}::timestamptz`);
  return BigInt(String(row?.fees));
}

interface Summary {
  wallet: bigint[];
  cards: bigint[];
  total: bigint[];
  cardsLabel: string;
  fees: bigint | null;
}

async function workbookOf(who: Teammate, month: string) {
  const answer = await statement(who, `month=${month}&currency=USD&format=xlsx`);
  expect(answer.statusCode, answer.body).toBe(200);
  expect(answer.headers['content-type']).toContain('spreadsheetml');
  expect(String(answer.headers['content-disposition'])).toContain(encodeURIComponent(`对账单-${month}-USD.xlsx`));
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(answer.rawPayload as unknown as ArrayBuffer);
  return workbook;
}

const cents = (value: unknown) => toMinorUnits(Number(value).toFixed(2));

function summaryOf(workbook: ExcelJS.Workbook): Summary {
  const sheet = workbook.getWorksheet('汇总');
  if (!sheet) throw new Error('no 汇总 sheet');
  const line = (index: number) => [2, 3, 4, 5].map((column) => cents(sheet.getRow(index).getCell(column).value));
  const feesRow = sheet.getRows(1, sheet.rowCount)?.find((row) => row.getCell(1).value === '手续费合计');
  return {
    wallet: line(2),
    cards: line(3),
    total: line(4),
    cardsLabel: String(sheet.getRow(3).getCell(1).value),
    fees: feesRow ? cents(feesRow.getCell(5).value) : null,
  };
}

function movements(workbook: ExcelJS.Workbook, name: string, amountColumn: number) {
  const sheet = workbook.getWorksheet(name);
  if (!sheet) throw new Error(`no ${name} sheet`);
  const found: Array<{ values: unknown[]; amount: bigint }> = [];
  sheet.eachRow((row, index) => {
    if (index > 1) found.push({ values: (row.values as unknown[]).slice(1), amount: cents(row.getCell(amountColumn).value) });
  });
  return found;
}

beforeAll(async () => {
  t = await createTestApp({ clock, issuer: issuer.port, config: { jobs: { batchConcurrency: 4, superviseSeconds: 5 } } });
  issuer.attach(t);
  owner = await teamOwner(t);
  other = await teamOwner(t);
  await readyForCards(t, owner);
  await readyForCards(t, other);
  merchantId = String((await rows(sql`select merchant_id from accounts where id = ${owner.accountId}`))[0]?.merchant_id);

  // October: the wallet funded (readyForCards, 1,000.00) and a card opened with 50.00
  firstCard = await openCard(owner, '50.00', '十月卡');
  // the other account moves money too: none of it may reach the owner's statement
  await openCard(other, '30.00', '别人的卡');

  // November (China time) begins: the current month
  clock.set(new Date('2026-10-31T16:00:05Z'));
  const paid = await authorize(firstCard.id, '10.00');
  expect(paid.approved).toBe(true);
  expect((await settle(paid.id, '8.00')).status).toBe(200);
  const declined = await authorize(firstCard.id, '5000.00');
  expect(declined.approved).toBe(false);
  expect((await cardMoney(owner, firstCard.id, 'recharge', '20.00')).code).toBe(0);
  expect((await cardMoney(owner, firstCard.id, 'withdraw', '5.00')).code).toBe(0);
  await openCard(owner, '10.00', '十一月卡');
  clock.advance(1000);
  await t.services.ledger.recharge({ merchantId, accountId: owner.accountId, currency: 'USD', amount: 100_00n, key: key() });
  // a pending authorisation: held on the card, still the card's money on the books
  expect((await authorize(firstCard.id, '3.00')).approved).toBe(true);
  clock.advance(60_000);
});
afterAll(() => t?.close());

describe('GET /statements as .xlsx', () => {
  it('lays out every sheet as the exports do, and each account’s opening plus its movements is its closing', async () => {
    const workbook = await workbookOf(owner, '2026-11');
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['汇总', '钱包流水', '卡片余额', '卡片流水']);
    const wallet = workbook.getWorksheet('钱包流水');
    if (!wallet) throw new Error('no 钱包流水');
    expectExportLayout(wallet, { times: ['时间（北京时间）'], amounts: ['金额', '变动后余额'] });
    const summary = summaryOf(workbook);
    for (const line of [summary.wallet, summary.cards, summary.total]) {
      const [opening = 0n, credits = 0n, debits = 0n, closing = 0n] = line;
      expect(opening + credits - debits).toBe(closing);
    }
    expect(summary.cardsLabel).toBe('卡片（2 张）');
    // the wallet's rows sum to what came in less what went out; likewise the cards'
    const walletRows = movements(workbook, '钱包流水', 4);
    const cardRows = movements(workbook, '卡片流水', 4);
    expect(walletRows.reduce((sum, row) => sum + row.amount, 0n)).toBe((summary.wallet[1] ?? 0n) - (summary.wallet[2] ?? 0n));
    expect(cardRows.reduce((sum, row) => sum + row.amount, 0n)).toBe((summary.cards[1] ?? 0n) - (summary.cards[2] ?? 0n));
    // names of the rows: a recharge, a first load (开卡充值), an opening fee, a declined payment's fee, a top-up, a withdrawal
    const walletTypes = walletRows.map((row) => row.values[1]);
    expect(walletTypes).toEqual(expect.arrayContaining(['充值', '开卡充值', '开卡', '拒付手续费', '转出', '提现']));
    const cardTypes = cardRows.map((row) => row.values[2]);
    expect(cardTypes).toEqual(expect.arrayContaining(['消费', '转入', '转出']));
    expect(cardRows.every((row) => String(row.values[1]).startsWith('尾号 '))).toBe(true);
    // a top-up's fee beside its wallet row
    const topUp = walletRows.find((row) => row.values[1] === '转出');
    expect(topUp?.values[4]).toBe(0.5);
  });

  it('ties to the ledger: a month’s closing is the next month’s opening, the current month’s closing is the balance now', async () => {
    const september = summaryOf(await workbookOf(owner, '2026-09'));
    const october = summaryOf(await workbookOf(owner, '2026-10'));
    const november = summaryOf(await workbookOf(owner, '2026-11'));
    expect(september.total).toEqual([0n, 0n, 0n, 0n]);
    expect(october.total[0]).toBe(0n);
    expect(november.wallet[0]).toBe(october.wallet[3]);
    expect(november.cards[0]).toBe(october.cards[3]);
    const now = await ledgerBalances(owner.accountId);
    expect(november.wallet[3]).toBe(now.wallet);
    expect(november.cards[3]).toBe(now.cards);
    // October: 1,000.00 in, a card opened with 50.00
    expect(october.wallet[1]).toBe(1000_00n);
    expect(october.cards[3]).toBe(50_00n);
    await expectSoundBooks(t.database.db);
  });

  it('sums the fees the merchant took from the account in the month (China time)', async () => {
    const november = summaryOf(await workbookOf(owner, '2026-11'));
    const october = summaryOf(await workbookOf(owner, '2026-10'));
    expect(november.fees).toBe(await feesBetween(owner.accountId, '2026-10-31T16:00:00Z', '2026-11-30T16:00:00Z'));
    expect(october.fees).toBe(await feesBetween(owner.accountId, '2020-01-01T00:00:00Z', '2026-10-31T16:00:00Z'));
    // November: the decline fee, the top-up's fee, the second card's opening fee and its first load's fee
    expect(november.fees).toBeGreaterThan(0n);
    expect(october.fees).toBeGreaterThan(0n);
  });

  it('shows only the account’s own money', async () => {
    const mine = await workbookOf(owner, '2026-10');
    const theirs = await workbookOf(other, '2026-10');
    const names = (workbook: ExcelJS.Workbook) => movements(workbook, '卡片余额', 2).map((row) => String(row.values[0]));
    expect(names(mine).some((name) => name.includes('别人的卡'))).toBe(false);
    expect(names(theirs).every((name) => name.includes('别人的卡'))).toBe(true);
    expect(summaryOf(theirs).cardsLabel).toBe('卡片（1 张）');
    const otherNow = await ledgerBalances(other.accountId);
    const otherNovember = summaryOf(await workbookOf(other, '2026-11'));
    expect(otherNovember.wallet[3]).toBe(otherNow.wallet);
  });

  it('holds a movement made in the very moment the statement is asked for', async () => {
    const before = summaryOf(await workbookOf(owner, '2026-11'));
    await t.services.ledger.recharge({ merchantId, accountId: owner.accountId, currency: 'USD', amount: 2_00n, key: key() });
    const after = summaryOf(await workbookOf(owner, '2026-11'));
    expect((after.wallet[3] ?? 0n) - (before.wallet[3] ?? 0n)).toBe(2_00n);
    expect(after.wallet[3]).toBe((await ledgerBalances(owner.accountId)).wallet);
  });

  it('answers an empty month with zeros and no rows', async () => {
    const workbook = await workbookOf(owner, '2026-01');
    const summary = summaryOf(workbook);
    expect(summary.total).toEqual([0n, 0n, 0n, 0n]);
    expect(movements(workbook, '钱包流水', 4)).toEqual([]);
  });
});

describe('GET /statements as PDF', () => {
  it('draws the statement in 中文 with the merchant’s name and the closing balance', async () => {
    const answer = await statement(owner, 'month=2026-11&currency=USD');
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('application/pdf');
    expect(String(answer.headers['content-disposition'])).toContain('statement-2026-11-USD.pdf');
    const pdf = await getDocumentProxy(new Uint8Array(answer.rawPayload));
    const { text } = await extractText(pdf, { mergePages: true });
    const merchant = await t.services.merchants.findByHost('localhost');
    expect(text).toContain('账户对账单');
    expect(text).toContain(String(merchant?.name));
    expect(text).toContain('2026-11-01 至 2026-11-30');
    const november = summaryOf(await workbookOf(owner, '2026-11'));
    expect(text).toContain(formatAmount(fromMinorUnits(november.total[3] ?? 0n)));
    expect(text).toContain('开卡充值');
    expect(text).toMatch(/第 1 页 \/ 共 \d+ 页/);
  });
});

describe('refusals', () => {
  it('refuses a month not yet begun, and changes nothing', async () => {
    const answer = await statement(owner, 'month=2026-12&currency=USD');
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toMatchObject({ code: ErrorCode.STATEMENT_MONTH_NOT_BEGUN, message: '2026-12 尚未开始，暂无对账单' });
  });

  it('refuses a month or a format it cannot read', async () => {
    for (const query of ['month=2026-13&currency=USD', 'month=2026-1&currency=USD', 'month=2019-12&currency=USD', 'month=2026-10&currency=XYZ', 'month=2026-10&currency=USD&format=doc']) {
      const answer = await statement(owner, query);
      expect(answer.statusCode, query).toBe(400);
      expect(answer.json().code, query).not.toBe(0);
    }
  });

  it('is for the roles that read the wallet’s history: a MEMBER is refused, a VIEWER and FINANCE read it', async () => {
    const member = await joinTeam(t, owner, 'MEMBER');
    const refused = await statement(member, 'month=2026-10&currency=USD');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe(TeamErrorCode.PERMISSION_DENIED);
    for (const role of ['VIEWER', 'FINANCE'] as const) {
      const reader = await joinTeam(t, owner, role);
      expect((await statement(reader, 'month=2026-10&currency=USD&format=xlsx')).statusCode, role).toBe(200);
    }
  });

  it('answers nothing without a session', async () => {
    const answer = await t.app.inject({ method: 'GET', url: '/api/v1/statements?month=2026-10&currency=USD', headers: { host: 'localhost' } });
    expect(answer.statusCode).toBe(401);
  });
});
