import { randomUUID } from 'node:crypto';
import type { AutoRechargeRule } from '@portal/contract/balance-rules';
import type { CardItem, OpenedAvailableAnswer } from '@portal/contract/cards';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIssuerPayload } from '../../src/lib/issuer-signature.ts';
import { signUp } from '../helpers/accounts.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { scriptedIssuer } from '../helpers/issuer.ts';
import { expectSoundBooks, merchantOf } from '../helpers/ledger.ts';
import { queryRows } from '../helpers/sql.ts';
import { until } from '../helpers/until.ts';

// PGlite has one connection and would hide these races: this file runs on PostgreSQL only.
// Two apps, each on its own connections, stand for two server processes taking the issuer's webhooks.
let database: TestDatabase;
let apps: TestApp[];
let secondHandle: Awaited<ReturnType<TestDatabase['connectAgain']>>;
const issuer = scriptedIssuer();
let blue: string;

beforeAll(async () => {
  database = await createTestDatabase();
  const first = await createTestApp({ database, issuer: issuer.port });
  secondHandle = await database.connectAgain();
  const second = await createTestApp({ database: secondHandle as TestDatabase, issuer: issuer.port, seed: false });
  apps = [first, second];
  issuer.attach(first);
  blue = (await merchantOf(database.db, 'localhost')).id;
});
afterAll(async () => {
  for (const app of apps ?? []) await app.close();
  await secondHandle?.close();
  await database?.close();
});

let serial = 0;

/** A customer with `usd` in the wallet and an issued 订阅支付卡 loaded with `load`. */
async function customerWithCard(usd: bigint, load: string) {
  const t = apps[0] as TestApp;
  const who = await signUp(t);
  const api = t.api('localhost', who.token);
  const { id } = await api.data<{ id: string }>('GET', '/account/info');
  await api.data('PUT', '/card/verification', { body: { real_name: '张三', id_number: '11010519491231002X' } });
  await t.services.ledger.recharge({ merchantId: blue, accountId: id, currency: 'USD', amount: usd, key: `fund-${id}` });
  const { products } = await api.data<OpenedAvailableAnswer>('GET', '/card/opened-available');
  const product = products.find((p) => p.name === '订阅支付卡');
  if (!product) throw new Error('no 订阅支付卡');
  const card = await api.data<CardItem>('POST', '/card', { body: { product_id: product.id, amount: load, nickname: '自动充值并发' }, headers: { 'idempotency-key': `auto-race-${++serial}-${Date.now()}` } });
  await issuer.issue(card.id);
  return { id, card, api };
}

/** An authorisation sent to server `n % 2`, answered with its decision. */
async function authorize(n: number, cardId: string, amount: string) {
  const app = apps[n % apps.length] as TestApp;
  const body = JSON.stringify({
    id: `evt_${randomUUID()}`,
    type: 'authorization.request',
    data: { id: `auth_${randomUUID()}`, card_id: cardId, amount, currency: 'USD', merchant_name: 'Meta Ads', mcc: '7311', country: 'US' },
  });
  const response = await app.app.inject({
    method: 'POST',
    url: '/api/v1/issuer/webhook',
    headers: { host: 'issuer.example', 'content-type': 'application/json', 'issuer-signature': signIssuerPayload(app.services.issuerSecret(), body, app.clock.now()) },
    payload: body,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { approved: boolean; decline_code?: string };
}


/**
 * Runs `count` calls with `inFlight` of them outstanding at any moment: enough to race on the card's
 * row from both servers at once, and few enough that none waits longer for a connection from its
 * pool (20 each) than the pool allows, which on a busy machine 200 at once would.
 */
async function racing<T>(count: number, inFlight: number, call: (n: number) => Promise<T>) {
  const answers: T[] = new Array(count);
  let next = 0;
  const lane = async () => {
    for (let n = next++; n < count; n = next++) answers[n] = await call(n);
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
  return answers;
}

describe('an auto top-up rule under authorisations at once (PostgreSQL)', () => {
  it('200 authorisations from two servers crossing the threshold start exactly one top-up, which runs once', async () => {
    const { card, api } = await customerWithCard(3000_00n, '1000.00');
    const set = await api.put<AutoRechargeRule>(`/card/${card.id}/auto-recharge`, { enabled: true, threshold: '900.00', target: '1000.00', daily_max: '1000.00' });
    expect(set.code, set.message).toBe(0);
    // the 101st takes the card from 900.00 to 899.00; a top-up meanwhile brings it back to 1000.00, and the
    // at most 99 left after it cannot take it below 900.00 again
    const answers = await racing(200, 32, (n) => authorize(n, card.id, '1.00'));
    expect(answers.every((a) => a.approved)).toBe(true);
    const runs = await until('the one run ended', async () => {
      const rows = await queryRows<{ status: string; amount: string }>(database.db, sql`select status, amount::text as amount from auto_recharge_runs where card_id = ${card.id}`);
      return rows.length > 0 && rows.every((row) => row.status !== 'PENDING') && rows;
    });
    expect(runs).toHaveLength(1);
    expect(runs[0]?.status).toBe('DONE');
    const moved = await queryRows(database.db, sql`select id from card_transactions where card_id = ${card.id} and type = 'TRANSFER_IN'`);
    // the first load and the one top-up
    expect(moved).toHaveLength(2);
    const after = await api.data<CardItem>('GET', `/card/${card.id}`);
    expect(Math.round(Number(after.balance) * 100)).toBe(1000_00 - 200_00 + Number(runs[0]?.amount));
    await expectSoundBooks(database.db);
  }, 120_000);
});
