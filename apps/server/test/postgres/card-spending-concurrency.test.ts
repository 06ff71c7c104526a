import { randomUUID } from 'node:crypto';
import type { CardItem, OpenedAvailableAnswer } from '@portal/contract/cards';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIssuerPayload } from '../../src/lib/issuer-signature.ts';
import { signUp } from '../helpers/accounts.ts';
import type { ApiClient } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { scriptedIssuer } from '../helpers/issuer.ts';
import { expectSoundBooks, merchantOf } from '../helpers/ledger.ts';

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

/** A customer with `usd` in the wallet and an issued 订阅支付卡 loaded with 20.00 (cost 22.50). */
async function customerWithCard(usd: bigint) {
  const t = apps[0] as TestApp;
  const who = await signUp(t);
  const api = t.api('localhost', who.token);
  const { id } = await api.data<{ id: string }>('GET', '/account/info');
  await api.data('PUT', '/card/verification', { body: { real_name: '张三', id_number: '11010519491231002X' } });
  await t.services.ledger.recharge({ merchantId: blue, accountId: id, currency: 'USD', amount: usd, key: `fund-${id}` });
  const { products } = await api.data<OpenedAvailableAnswer>('GET', '/card/opened-available');
  const product = products.find((p) => p.name === '订阅支付卡');
  if (!product) throw new Error('no 订阅支付卡');
  const card = await api.data<CardItem>('POST', '/card', { body: { product_id: product.id, amount: '20.00', nickname: '并发消费' }, headers: { 'idempotency-key': `spend-race-${++serial}-${Date.now()}` } });
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

const cardOf = (api: ApiClient, id: string) => api.data<CardItem>('GET', `/card/${id}`);

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

describe('authorisations at once on one card (PostgreSQL)', () => {
  it('200 authorisations of 0.20 on a card holding 20.00: exactly 100 approved, the rest declined for funds', async () => {
    const { card, api } = await customerWithCard(100_00n);
    const answers = await racing(200, 32, (n) => authorize(n, card.id, '0.20'));
    expect(answers.filter((a) => a.approved)).toHaveLength(100);
    expect(answers.filter((a) => !a.approved).every((a) => a.decline_code === 'INSUFFICIENT_FUNDS')).toBe(true);
    expect(await cardOf(api, card.id)).toMatchObject({ balance: '0.00', held: '20.00' });
    await expectSoundBooks(database.db);
  }, 120_000);

  it('authorisations and withdrawals at once never take the card below zero', async () => {
    const { card, api } = await customerWithCard(100_00n);
    const work: Array<Promise<unknown>> = [];
    for (let n = 0; n < 60; n += 1) {
      work.push(authorize(n, card.id, '0.30'));
      if (n % 10 === 0) {
        work.push(api.post(`/card/${card.id}/withdraw`, { amount: '3.00' }, { headers: { 'idempotency-key': `spend-withdraw-${++serial}-${Date.now()}` } }));
      }
    }
    const results = await Promise.all(work);
    const approved = results.filter((r) => (r as { approved?: boolean }).approved === true).length;
    const withdrawn = results.filter((r) => (r as { code?: number }).code === 0).length;
    const after = await cardOf(api, card.id);
    expect(Number(after.balance)).toBeGreaterThanOrEqual(0);
    expect(Math.round((20 - approved * 0.3 - withdrawn * 3) * 100)).toBe(Math.round(Number(after.balance) * 100));
    expect(after.held).toBe((approved * 0.3).toFixed(2));
    await expectSoundBooks(database.db);
  }, 120_000);
});
