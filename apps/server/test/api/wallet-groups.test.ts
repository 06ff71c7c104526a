import type { OpenedAvailableAnswer } from '@portal/contract/cards';
import { fromMinorUnits, toMinorUnits } from '@portal/contract/money';
import type { WalletTransactionPage } from '@portal/contract/wallet';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.ts';
import { signUp } from '../helpers/accounts.ts';
import type { ApiClient } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { scriptedIssuer } from '../helpers/issuer.ts';
import { until } from '../helpers/until.ts';

/**
 * The wallet's history stays readable: a batch opening is one row (批量开卡 N 张) that opens to its
 * parts, and a card's first load is 开卡充值, not 转出 — on the list and in its export alike.
 */
const clock = new ManualClock(new Date('2026-11-24T08:00:00Z'));
const issuer = scriptedIssuer();
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock, issuer: issuer.port, config: { jobs: { batchConcurrency: 10, superviseSeconds: 5 } } });
  issuer.attach(t);
});
afterAll(() => t?.close());

let serial = 0;
const key = () => `wallet-groups-${Date.now().toString(36)}-${++serial}`;
const rows = async (query: ReturnType<typeof sql>) => ((await t.database.db.execute(query)) as unknown as { rows: Array<Record<string, unknown>> }).rows;

let who: { id: string; token: string; api: ApiClient };
let batchId: string;
let singleCardId: string;

beforeAll(async () => {
  const signed = await signUp(t);
  const api = t.api('localhost', signed.token);
  const { id } = await api.data<{ id: string }>('GET', '/account/info');
  const merchantId = String((await rows(sql`select merchant_id from accounts where id = ${id}`))[0]?.merchant_id);
  await api.data('PUT', '/card/verification', { body: { real_name: '张三', id_number: '11010519491231002X' } });
  await api.data('PUT', '/card/verification', { body: { latin_name: 'Zhang San', website: 'https://shop.example.com' } });
  await t.services.ledger.recharge({ merchantId, accountId: id, currency: 'USD', amount: 1000_00n, key: `fund-${id}` });
  who = { id, token: signed.token, api };
  const { products } = await api.data<OpenedAvailableAnswer>('GET', '/card/opened-available');
  const product = products.find((p) => p.name === '订阅支付卡');
  if (!product) throw new Error('no 订阅支付卡');

  // one card alone first, then a batch of 5 of which one fails
  clock.advance(1000);
  const single = await api.post<{ id: string }>('/card', { product_id: product.id, amount: '20.00', nickname: '单卡' }, { headers: { 'idempotency-key': key() } });
  expect(single.code, single.message).toBe(0);
  singleCardId = single.data.id;
  expect((await issuer.issue(singleCardId)).status).toBe(200);
  clock.advance(1000);
  const accepted = await api.post<{ batch_id: string }>(
    '/batch-create-card',
    { product_id: product.id, quantity: 5, amount: '10.00', nickname_prefix: 'FB' },
    { headers: { 'idempotency-key': key() } },
  );
  expect(accepted.code, accepted.message).toBe(0);
  batchId = accepted.data.batch_id;
  const cards = (await rows(sql`select id from cards where batch_id = ${batchId} order by nickname`)).map((card) => String(card.id));
  await until('the issuer asked for every card', async () => cards.every((card) => issuer.requests.some((r) => r.kind === 'open' && r.cardId === card)));
  for (const [index, card] of cards.entries()) {
    clock.advance(1000);
    if (index === 2) expect((await issuer.fail(card, '发卡行风控拒绝')).status).toBe(200);
    else expect((await issuer.issue(card)).status).toBe(200);
  }
  clock.advance(1000);
  await t.services.ledger.recharge({ merchantId, accountId: id, currency: 'USD', amount: 1_00n, key: `fund-after-${id}` });
});

const list = (query: Record<string, string> = {}) => who.api.data<WalletTransactionPage>('GET', '/balance/transactions', { query });

describe('the wallet’s list: a batch is one row, a first load is 开卡充值', () => {
  it('shows the batch as one row of its cards, summed, between the rows before and after it', async () => {
    const page = await list();
    // the recharge after, the batch, the single card's first load and fee, the first recharge
    expect(page.total).toBe(5);
    const [after, batch, load, fee, first] = page.items;
    expect(after).toMatchObject({ type: 'ADMIN_RECHARGE_IN', amount: '1.00', group: null, first_load: false });
    // 订阅支付卡: opening fee 2.00, top-up 10.00 × 1% + 0.30 = 0.40: 12.40 a card, 4 cards issued
    expect(batch).toMatchObject({
      id: `batch:${batchId}`,
      type: 'OPEN_CARD',
      amount: '-49.60',
      memo: '批量开卡 4 张',
      group: { kind: 'CARD_BATCH', id: batchId, count: 4, parts: 8 },
      first_load: false,
    });
    // its balance is the wallet's after its last part, as the next row's before
    expect(toMinorUnits(after?.balance_after ?? '0') - toMinorUnits(after?.amount ?? '0')).toBe(toMinorUnits(batch?.balance_after ?? 'x'));
    expect(load).toMatchObject({ type: 'TRANSFER_OUT_TO_CARD', first_load: true, group: null, reference: `card:${singleCardId}` });
    expect(fee).toMatchObject({ type: 'OPEN_CARD', first_load: false, group: null });
    expect(first).toMatchObject({ type: 'ADMIN_RECHARGE_IN', amount: '1000.00' });
  });

  it('opens a batch row to its parts: each card’s fee and its 开卡充值, summing to the row', async () => {
    const parts = await list({ group_kind: 'CARD_BATCH', group_id: batchId, page_size: '100' });
    expect(parts.total).toBe(8);
    expect(parts.items.filter((item) => item.first_load)).toHaveLength(4);
    expect(parts.items.filter((item) => item.type === 'OPEN_CARD')).toHaveLength(4);
    expect(parts.items.every((item) => item.group === null)).toBe(true);
    expect(fromMinorUnits(parts.items.reduce((sum, item) => sum + toMinorUnits(item.amount), 0n))).toBe('-49.60');
    // another account's batch id opens to nothing
    const stranger = t.api('localhost', (await signUp(t)).token);
    expect((await stranger.data<WalletTransactionPage>('GET', '/balance/transactions', { query: { group_kind: 'CARD_BATCH', group_id: batchId } })).total).toBe(0);
  });

  it('pages and filters the rows as rows: a type filter groups what it keeps', async () => {
    const second = await list({ page: '2', page_size: '2' });
    expect(second.items.map((item) => item.type)).toEqual(['TRANSFER_OUT_TO_CARD', 'OPEN_CARD']);
    const loads = await list({ type: 'TRANSFER_OUT_TO_CARD' });
    expect(loads.items.map((item) => [item.amount, item.group?.parts ?? 1, item.first_load])).toEqual([
      ['-41.60', 4, false],
      ['-20.50', 1, true],
    ]);
  });

  it('exports the list as the screen shows it: the batch one row named 批量开卡 4 张, the first load 开卡充值', async () => {
    const exported = await t.app.inject({
      method: 'GET',
      url: '/api/v1/balance/transactions/export',
      headers: { host: 'localhost', authorization: `Bearer ${who.token}` },
    });
    expect(exported.statusCode).toBe(200);
    const { default: ExcelJS } = await import('exceljs');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(exported.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    if (!sheet) throw new Error('no sheet');
    const types = Array.from({ length: sheet.rowCount - 1 }, (_, index) => sheet.getRow(index + 2).getCell(2).value);
    expect(types).toEqual(['充值', '批量开卡 4 张', '开卡充值', '开卡', '充值']);
    expect(sheet.getRow(3).getCell(4).value).toBe(-49.6);
  }, 90_000);
});
