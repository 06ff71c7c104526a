import type { CardProduct } from '@portal/contract/cards';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { expectOpsRefused, runOpsOn } from '../helpers/ops.ts';

let database: TestDatabase;
let t: TestApp;
beforeAll(async () => {
  database = await createTestDatabase();
  t = await createTestApp({ database });
});
afterAll(async () => {
  await t?.close();
  await database?.close();
});

const ops = (...argv: string[]) => runOpsOn(database, argv);
const productsAt = async (host: string) => JSON.parse((await ops('product:list', '--host', host, '--json')).stdout) as CardProduct[];
/** Every product of every merchant, as stored. */
const snapshot = async () => JSON.stringify(((await database.db.execute(sql`select * from card_products order by id`)) as unknown as { rows: unknown[] }).rows);
const expectRefused = (argv: string[], code: 1 | 2, message: RegExp) => expectOpsRefused(database, snapshot, argv, code, message);

describe('product:list', () => {
  it("lists each demo merchant's three products with their fees and limits, in their order", async () => {
    for (const host of ['localhost', 'orange.localhost', 'yellow.localhost']) {
      const products = await productsAt(host);
      expect(products.map((p) => [p.name, p.brand, p.bin, p.currency])).toEqual([
        ['广告投放卡', 'VISA', '42424242', 'USD'],
        ['订阅支付卡', 'MASTERCARD', '55555555', 'USD'],
        ['人民币消费卡', 'VISA', '40000015', 'CNY'],
      ]);
    }
    const [ads] = await productsAt('localhost');
    expect(ads).toMatchObject({
      open_fee: '5.00',
      topup_fee_rate: '0.015',
      topup_fee_fixed: '0.00',
      topup_fee_min: '0.50',
      topup_fee_max: '50.00',
      min_first_load: '10.00',
      decline_fee: '0.50',
      needs_secondary: true,
      status: 'ON',
    });
    const text = await ops('product:list', '--host', 'localhost');
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/广告投放卡 +VISA +42424242 +USD +5\.00 +0\.015 \+ 0\.00 ≥ 0\.50 ≤ 50\.00/);
    expect(text.stdout).toMatch(/3 products of merchant blue$/);
  });
});

describe('product:set', () => {
  it("changes a product's fees and status, says what changed, and touches no other merchant's", async () => {
    const run = await ops('product:set', '--host', 'red.localhost', '--product', '订阅支付卡', '--open-fee', '1.50', '--rate', '0.012', '--max', '20', '--status', 'off');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Updated product 订阅支付卡 of merchant red:');
    expect(run.stdout).toMatch(/open-fee +2\.00 → 1\.50/);
    expect(run.stdout).toMatch(/max +- → 20\.00/);
    expect(run.stdout).toMatch(/status +ON → OFF/);
    const red = (await productsAt('red.localhost')).find((p) => p.name === '订阅支付卡');
    expect(red).toMatchObject({ open_fee: '1.50', topup_fee_rate: '0.012', topup_fee_max: '20.00', status: 'OFF' });
    const blue = (await productsAt('localhost')).find((p) => p.name === '订阅支付卡');
    expect(blue).toMatchObject({ open_fee: '2.00', topup_fee_rate: '0.010', topup_fee_max: null, status: 'ON' });
  });

  it('adds a product, and refuses a second one of the same name', async () => {
    const argv = ['product:set', '--host', 'purple.localhost', '--create', '--name', '旅行卡', '--brand', 'mastercard', '--bin', '55554444', '--currency', 'usd'];
    const money = ['--open-fee', '1', '--rate', '0.01', '--fixed', '0', '--min-first-load', '5', '--max-balance', '5000', '--decline-fee', '0.3', '--per-account-limit', '50', '--max-per-batch', '50'];
    const run = await ops(...argv, ...money);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^Added product 旅行卡 \(MASTERCARD 55554444, USD\) to merchant purple: id [0-9a-f-]{36}, status ON$/);
    expect((await productsAt('purple.localhost')).map((p) => p.name)).toContain('旅行卡');
    await expectRefused([...argv, ...money], 1, /purple|旅行卡 already/);
  });

  it('refuses a change that breaks a rule, an unknown product, and another merchant’s product, changing nothing', async () => {
    const blueId = (await productsAt('localhost'))[0]?.id as string;
    await expectRefused(['product:set', '--host', 'localhost', '--product', '广告投放卡', '--rate', '1.5'], 1, /rate is a fraction below 1/);
    await expectRefused(['product:set', '--host', 'localhost', '--product', '广告投放卡', '--min', '60'], 1, /minimum is not above its maximum/);
    await expectRefused(['product:set', '--host', 'localhost', '--product', '广告投放卡', '--bin', '4242'], 1, /BIN is 6 to 8 digits/);
    await expectRefused(['product:set', '--host', 'localhost', '--product', '广告投放卡', '--max-per-batch', '501'], 1, /batch limit is 1 to 500/);
    await expectRefused(['product:set', '--host', 'localhost', '--product', '广告投放卡', '--open-fee', '1.234'], 1, /--open-fee must be an amount/);
    await expectRefused(['product:set', '--host', 'localhost', '--product', '无此产品', '--status', 'OFF'], 1, /no product named 无此产品/);
    await expectRefused(['product:set', '--host', 'orange.localhost', '--product', blueId, '--status', 'OFF'], 1, /no product with the id/);
  });

  it('answers a wrong command line with exit code 2', async () => {
    await expectRefused(['product:set', '--host', 'localhost', '--product', '广告投放卡'], 2, /nothing to change/);
    await expectRefused(['product:set', '--host', 'localhost', '--status', 'OFF'], 2, /choose the product with --product/);
    await expectRefused(['product:set', '--host', 'localhost', '--create', '--name', '新卡'], 2, /--create needs --brand, --bin/);
  });
});
