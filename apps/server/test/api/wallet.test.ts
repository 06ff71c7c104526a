import { randomUUID } from 'node:crypto';
import { ErrorCode } from '@portal/contract/errors';
import type { AccountBalanceItem, BalanceStatusAnswer, CardAmountItem, WalletTransactionPage } from '@portal/contract/wallet';
import { XLSX_CONTENT_TYPE } from '@portal/contract/wallet';
import ExcelJS from 'exceljs';
import { chinaTimeCell, expectExportLayout } from '../helpers/xlsx.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.ts';
import type { LedgerService } from '../../src/modules/ledger/service.ts';
import type { WalletService } from '../../src/modules/wallet/service.ts';
import { signIn, signUp } from '../helpers/accounts.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { autoKeyed, ledgerOn, merchantOf, type TestLedger, walletOn } from '../helpers/ledger.ts';

const clock = new ManualClock(new Date('2026-03-01T02:00:00Z'));
let t: TestApp;
let ledger: LedgerService;
let books: TestLedger;
let wallets: WalletService;
let blue: string;

interface Customer {
  token: string;
  id: string;
  phone: string;
}
let alice: Customer;
let bob: Customer;
/** Alice's phone at another merchant: another person as far as the portal knows */
let aliceAtOrange: Customer;

async function customer(host: string, phone?: string): Promise<Customer> {
  const who = await signUp(t, host, phone ? { phone } : {});
  const info = await t.api(host, who.token).data<{ id: string }>('GET', '/account/info');
  return { token: who.token, id: info.id, phone: who.phone };
}

const as = (who: Customer, host = 'localhost') => t.api(host, who.token);

/** The transactions Alice gets from the API for a query. */
const aliceList = (query: Record<string, string | number> = {}) => as(alice).data<WalletTransactionPage>('GET', '/balance/transactions', { query });

/** Moves the manual clock to a time given in China Standard Time. */
const at = (cst: string) => clock.set(new Date(`${cst}+08:00`));

beforeAll(async () => {
  t = await createTestApp({ clock });
  ledger = ledgerOn(t.database.db, clock);
  books = autoKeyed(ledger);
  wallets = walletOn(t.database.db, clock);
  blue = (await merchantOf(t.database.db, 'localhost')).id;
  alice = await customer('localhost');
  bob = await customer('localhost');
  aliceAtOrange = await customer('orange.localhost', alice.phone);

  // Alice's history, oldest first (times in UTC+8)
  const base = { merchantId: blue, accountId: alice.id };
  at('2026-03-01T10:00:00');
  await books.recharge({ ...base, currency: 'USD', amount: 100_00n, memo: '首次充值' });
  at('2026-03-01T11:00:00');
  await books.recharge({ ...base, currency: 'CNY', amount: 500_00n });
  at('2026-03-03T09:30:00');
  await books.deduct({ ...base, currency: 'USD', amount: 10_50n });
  at('2026-03-04T12:00:00');
  await books.transferToCard({ ...base, cardId: randomUUID(), currency: 'USD', amount: 20_00n, fee: 1_00n });
  at('2026-03-05T23:30:00');
  await books.adjustOut({ ...base, currency: 'USD', amount: 25n });
  at('2026-03-06T00:10:00');
  await books.chargeFee({ ...base, currency: 'CNY', amount: 3_00n, type: 'DECLINED_FEE' });
  at('2026-03-06T08:00:00');
  await books.holdFunds({ ...base, currency: 'USD', amount: 5_00n, reference: 'batch:test' });
  // Bob has one transaction of his own, at the same merchant
  await books.recharge({ merchantId: blue, accountId: bob.id, currency: 'USD', amount: 7_00n });
});
afterAll(() => t.close());

describe('GET /api/v1/balance/account-balance', () => {
  it('answers available and anew per currency as two-decimal strings', async () => {
    const balances = await as(alice).data<AccountBalanceItem[]>('GET', '/balance/account-balance');
    // USD: 100.00 − 10.50 − 21.00 − 0.25 = 68.25, of which 5.00 held; CNY: 500.00 − 3.00
    expect(balances).toEqual([
      { currency: 'USD', available: '63.25', anew: '5.00' },
      { currency: 'CNY', available: '497.00', anew: '0.00' },
    ]);
  });

  it('answers zeros for a wallet that never moved', async () => {
    const fresh = await customer('localhost');
    expect(await as(fresh).data('GET', '/balance/account-balance')).toEqual([
      { currency: 'USD', available: '0.00', anew: '0.00' },
      { currency: 'CNY', available: '0.00', anew: '0.00' },
    ]);
  });

  it("shows the demo account's funded wallet, less what its two demo cards cost", async () => {
    const { token } = await signIn(t, 'localhost', { phone: '13800138000', password: 'Demo1234' });
    expect(await t.api('localhost', token).data('GET', '/balance/account-balance')).toEqual([
      { currency: 'USD', available: '637.70', anew: '0.00' },
      { currency: 'CNY', available: '5000.00', anew: '0.00' },
    ]);
  });
});

describe('GET /api/v1/balance/account-balance-status', () => {
  it('is BALANCE_STATUS_AVAILABLE until frozen, then frozen with the reason, and available again after', async () => {
    const carol = await customer('localhost');
    expect(await as(carol).data<BalanceStatusAnswer>('GET', '/balance/account-balance-status')).toEqual({
      status: 'BALANCE_STATUS_AVAILABLE',
      reason: '',
      changed_at: null,
    });
    at('2026-03-06T09:00:00');
    await wallets.freeze({ merchantId: blue, accountId: carol.id, reason: '账户安全审核中' });
    expect(await as(carol).data('GET', '/balance/account-balance-status')).toEqual({
      status: 'BALANCE_STATUS_FROZEN',
      reason: '账户安全审核中',
      changed_at: '2026-03-06T01:00:00.000Z',
    });
    const messages = await as(carol).data<{ items: Array<{ type: string; title: string }> }>('GET', '/msg-center/station-msg/list');
    expect(messages.items[0]).toMatchObject({ type: 'FREEZE', title: '钱包已冻结' });
    await wallets.unfreeze({ merchantId: blue, accountId: carol.id });
    expect(await as(carol).data<BalanceStatusAnswer>('GET', '/balance/account-balance-status')).toMatchObject({ status: 'BALANCE_STATUS_AVAILABLE', reason: '' });
  });
});

describe('GET /api/v1/balance/card-amount', () => {
  it('answers the total on the account’s cards per currency', async () => {
    expect(await as(alice).data<CardAmountItem[]>('GET', '/balance/card-amount')).toEqual([
      { currency: 'USD', amount: '20.00' },
      { currency: 'CNY', amount: '0.00' },
    ]);
    expect(await as(bob).data('GET', '/balance/card-amount')).toEqual([
      { currency: 'USD', amount: '0.00' },
      { currency: 'CNY', amount: '0.00' },
    ]);
  });
});

describe('GET /api/v1/balance/transactions', () => {
  it('lists newest first with type, signed amount, balance after, time and reference', async () => {
    const page = await aliceList();
    expect(page.total).toBe(6);
    expect(page.items.map((row) => [row.type, row.currency, row.amount, row.balance_after])).toEqual([
      ['DECLINED_FEE', 'CNY', '-3.00', '497.00'],
      ['ADJUST_OUT', 'USD', '-0.25', '68.25'],
      ['TRANSFER_OUT_TO_CARD', 'USD', '-21.00', '68.50'],
      ['ADMIN_RECHARGE_OUT', 'USD', '-10.50', '89.50'],
      ['ADMIN_RECHARGE_IN', 'CNY', '500.00', '500.00'],
      ['ADMIN_RECHARGE_IN', 'USD', '100.00', '100.00'],
    ]);
    const first = page.items[5];
    expect(first).toMatchObject({ created_at: '2026-03-01T02:00:00.000Z', memo: '首次充值', reverses: null });
    expect(first?.reference).toBe(first?.transaction_id);
    expect(page.items[2]?.reference).toMatch(/^card:[0-9a-f-]{36}$/);
  });

  it('pages', async () => {
    const second = await aliceList({ page: 2, page_size: 4 });
    expect(second).toMatchObject({ total: 6, page: 2, page_size: 4 });
    expect(second.items.map((row) => row.amount)).toEqual(['500.00', '100.00']);
    expect((await aliceList({ page: 3, page_size: 4 })).items).toEqual([]);
  });

  it('filters by type and by currency', async () => {
    expect((await aliceList({ type: 'ADMIN_RECHARGE_IN' })).items.map((row) => row.currency)).toEqual(['CNY', 'USD']);
    const cny = await aliceList({ currency: 'CNY' });
    expect(cny.total).toBe(2);
    expect(cny.items.every((row) => row.currency === 'CNY')).toBe(true);
    expect((await aliceList({ type: 'ADMIN_RECHARGE_IN', currency: 'USD' })).items.map((row) => row.amount)).toEqual(['100.00']);
    expect((await aliceList({ type: 'OPEN_CARD' })).total).toBe(0);
  });

  it('filters by date: a day is a whole day in China time, both ends included', async () => {
    const days = async (start_time?: string, end_time?: string) =>
      (await aliceList({ ...(start_time ? { start_time } : {}), ...(end_time ? { end_time } : {}) })).items.map((row) => row.type);
    expect(await days('2026-03-03', '2026-03-05')).toEqual(['ADJUST_OUT', 'TRANSFER_OUT_TO_CARD', 'ADMIN_RECHARGE_OUT']);
    expect(await days('2026-03-06')).toEqual(['DECLINED_FEE']);
    expect(await days(undefined, '2026-03-01')).toEqual(['ADMIN_RECHARGE_IN', 'ADMIN_RECHARGE_IN']);
    expect(await days('2026-03-02', '2026-03-02')).toEqual([]);
    // instants with an offset are exact, and include the end
    expect(await days('2026-03-01T11:00:00+08:00', '2026-03-03T01:30:00Z')).toEqual(['ADMIN_RECHARGE_OUT', 'ADMIN_RECHARGE_IN']);
  });

  it('refuses bad filters with a 中文 message', async () => {
    const bad = async (query: Record<string, string | number>) => as(alice).get('/balance/transactions', { query });
    expect(await bad({ start_time: '2026-02-30' })).toMatchObject({ code: ErrorCode.VALIDATION, message: '日期格式有误，应为 YYYY-MM-DD' });
    expect(await bad({ start_time: '2026-03-05', end_time: '2026-03-04' })).toMatchObject({ code: ErrorCode.VALIDATION, message: '开始日期不能晚于结束日期' });
    expect((await bad({ type: 'REFUND' })).code).toBe(ErrorCode.VALIDATION);
    expect((await bad({ currency: 'EUR' })).code).toBe(ErrorCode.VALIDATION);
    expect((await bad({ page_size: 101 })).code).toBe(ErrorCode.VALIDATION);
    expect((await bad({ page: 0 })).code).toBe(ErrorCode.VALIDATION);
  });
});

/** GET the export as the portal does, answering the raw response. */
async function exportFor(who: Customer, query: Record<string, string> = {}, host = 'localhost') {
  return t.app.inject({
    method: 'GET',
    url: '/api/v1/balance/transactions/export',
    query,
    headers: { host, authorization: `Bearer ${who.token}` },
  });
}

async function sheetRows(body: Buffer) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(body as unknown as ArrayBuffer);
  const sheet = workbook.getWorksheet('钱包流水');
  if (!sheet) throw new Error('no sheet 钱包流水');
  if (sheet.rowCount > 1) expectExportLayout(sheet, { times: ['时间'], amounts: ['金额', '变动后余额'] });
  const rows: unknown[][] = [];
  sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}

describe('GET /api/v1/balance/transactions/export', () => {
  it('answers the filtered transactions as a raw .xlsx with the rows the list shows: times as China-time date cells, amounts as numbers, the header frozen and filtering', async () => {
    const response = await exportFor(alice, { currency: 'USD', start_time: '2026-03-03' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe(XLSX_CONTENT_TYPE);
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="wallet-transactions-\d{8}\.xlsx"; filename\*=UTF-8''%E9%92%B1%E5%8C%85/);
    const rows = await sheetRows(response.rawPayload);
    expect(rows[0]).toEqual(['时间', '类型', '币种', '金额', '变动后余额', '交易编号', '备注']);
    const list = await aliceList({ currency: 'USD', start_time: '2026-03-03' });
    expect(rows.slice(1).map((row) => row.slice(0, 6))).toEqual([
      [chinaTimeCell('2026-03-05 23:30:00'), '调整转出', 'USD', -0.25, 68.25, list.items[0]?.transaction_id],
      [chinaTimeCell('2026-03-04 12:00:00'), '转出', 'USD', -21, 68.5, list.items[1]?.transaction_id],
      [chinaTimeCell('2026-03-03 09:30:00'), '系统转出', 'USD', -10.5, 89.5, list.items[2]?.transaction_id],
    ]);
  });

  it('holds only the header for a wallet without transactions, and only its own rows otherwise', async () => {
    const bobRows = await sheetRows((await exportFor(bob)).rawPayload);
    expect(bobRows).toHaveLength(2);
    expect(bobRows[1]?.slice(1, 4)).toEqual(['充值', 'USD', 7]);
    const orangeRows = await sheetRows((await exportFor(aliceAtOrange, {}, 'orange.localhost')).rawPayload);
    expect(orangeRows).toHaveLength(1);
  });

  it('refuses an export larger than the limit, before sending anything', async () => {
    const small = walletOn(t.database.db, clock, { exportRowLimit: 5 });
    const error = await small.exportTransactions(blue, alice.id, {}).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: ErrorCode.EXPORT_TOO_LARGE, message: '导出记录超过5条，请缩小筛选范围后重试', data: { limit: 5, total: 6 } });
    const within = await small.exportTransactions(blue, alice.id, { currency: 'USD' });
    within.stream.resume();
    expect(within.rows).toBe(4);
  });

  it('refuses bad filters as the list does, as JSON', async () => {
    const response = await exportFor(alice, { end_time: 'tomorrow' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: ErrorCode.VALIDATION });
  });
});

describe('every wallet call is the signed-in account’s own, at its own merchant', () => {
  const paths = ['/balance/account-balance', '/balance/account-balance-status', '/balance/card-amount', '/balance/transactions', '/balance/transactions/export'];

  it('needs a session', async () => {
    for (const path of paths) expect((await t.api().get(path)).code, path).toBe(ErrorCode.SESSION_MISSING);
  });

  it("a token from one merchant is unknown at another's host", async () => {
    for (const path of paths) expect((await t.api('orange.localhost', alice.token).get(path)).code, path).toBe(ErrorCode.SESSION_UNKNOWN);
  });

  it("shows another account of the same merchant nothing of Alice's", async () => {
    const list = await as(bob).data<WalletTransactionPage>('GET', '/balance/transactions');
    expect(list.total).toBe(1);
    expect(list.items[0]).toMatchObject({ type: 'ADMIN_RECHARGE_IN', amount: '7.00', balance_after: '7.00' });
    expect(await as(bob).data('GET', '/balance/account-balance')).toEqual([
      { currency: 'USD', available: '7.00', anew: '0.00' },
      { currency: 'CNY', available: '0.00', anew: '0.00' },
    ]);
  });

  it("shows the same phone at another merchant an empty wallet, and its freeze is its own", async () => {
    const orange = t.api('orange.localhost', aliceAtOrange.token);
    expect(await orange.data('GET', '/balance/account-balance')).toEqual([
      { currency: 'USD', available: '0.00', anew: '0.00' },
      { currency: 'CNY', available: '0.00', anew: '0.00' },
    ]);
    expect((await orange.data<WalletTransactionPage>('GET', '/balance/transactions')).total).toBe(0);
    expect(await orange.data('GET', '/balance/card-amount')).toEqual([
      { currency: 'USD', amount: '0.00' },
      { currency: 'CNY', amount: '0.00' },
    ]);
    const orangeId = (await merchantOf(t.database.db, 'orange.localhost')).id;
    await wallets.freeze({ merchantId: orangeId, accountId: aliceAtOrange.id, reason: '' });
    expect((await orange.data<BalanceStatusAnswer>('GET', '/balance/account-balance-status')).status).toBe('BALANCE_STATUS_FROZEN');
    expect((await as(alice).data<BalanceStatusAnswer>('GET', '/balance/account-balance-status')).status).toBe('BALANCE_STATUS_AVAILABLE');
  });
});
