import type { CardItem, OpenedAvailableAnswer } from '@portal/contract/cards';
import { CardErrorCode } from '@portal/contract/card-errors';
import { ErrorCode } from '@portal/contract/errors';
import { fromMinorUnits } from '@portal/contract/money';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from '../helpers/accounts.ts';
import type { ApiClient } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { scriptedIssuer } from '../helpers/issuer.ts';
import { expectSoundBooks, merchantOf } from '../helpers/ledger.ts';

// PGlite has one connection and would hide these races: this file runs on PostgreSQL only.
// Two apps, each on its own connections, stand for two server processes.
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
const key = () => `concurrency-${Date.now().toString(36)}-${++serial}`;

/** A verified customer with `usd` in the wallet and an issued 订阅支付卡 with a first load of 20.00 (cost 22.50). */
async function customerWithCard(usd: bigint) {
  const t = apps[0] as TestApp;
  const who = await signUp(t);
  const clients: ApiClient[] = apps.map((app) => app.api('localhost', who.token));
  const api = clients[0] as ApiClient;
  const { id } = await api.data<{ id: string }>('GET', '/account/info');
  await api.data('PUT', '/card/verification', { body: { real_name: '张三', id_number: '11010519491231002X' } });
  await t.services.ledger.recharge({ merchantId: blue, accountId: id, currency: 'USD', amount: usd, key: `fund-${id}` });
  const { products } = await api.data<OpenedAvailableAnswer>('GET', '/card/opened-available');
  const product = products.find((p) => p.name === '订阅支付卡');
  if (!product) throw new Error('no 订阅支付卡');
  const card = await api.data<CardItem>('POST', '/card', { body: { product_id: product.id, amount: '20.00', nickname: '并发' }, headers: { 'idempotency-key': key() } });
  await issuer.issue(card.id);
  return { id, card, via: (n: number) => clients[n % clients.length] as ApiClient };
}

const wallet = async (api: ApiClient) => (await api.data<Array<{ currency: string; available: string; anew: string }>>('GET', '/balance/account-balance')).find((i) => i.currency === 'USD');

async function outcomes(work: Array<Promise<{ code: number }>>) {
  const counts: Record<string, number> = {};
  for (const answer of await Promise.all(work)) counts[String(answer.code)] = (counts[String(answer.code)] ?? 0) + 1;
  return counts;
}

describe('cards under concurrency, on PostgreSQL', () => {
  it('50 concurrent top-ups that together exceed the wallet: exactly the affordable ones succeed', async () => {
    // 22.50 for the card, then 208.00: twenty top-ups of 10.00 with their 0.40 fee each
    const { card, via } = await customerWithCard(230_50n);
    expect(await wallet(via(0))).toMatchObject({ available: '208.00', anew: '0.00' });
    const result = await outcomes(
      Array.from({ length: 50 }, (_, i) => via(i).post(`/card/${card.id}/recharge`, { amount: '10.00' }, { headers: { 'idempotency-key': key() } })),
    );
    expect(result).toEqual({ '0': 20, [ErrorCode.INSUFFICIENT_FUNDS]: 30 });
    expect(await wallet(via(0))).toMatchObject({ available: '0.00', anew: '0.00' });
    expect(await via(1).data<CardItem>('GET', `/card/${card.id}`)).toMatchObject({ balance: '220.00' });
    await expectSoundBooks(database.db);
  });

  it('a cancellation racing top-ups: the books balance and the card ends empty, its money back in the wallet', async () => {
    const { card, via } = await customerWithCard(1000_00n);
    const work: Array<Promise<{ code: number }>> = Array.from({ length: 12 }, (_, i) =>
      via(i).post(`/card/${card.id}/recharge`, { amount: '5.00' }, { headers: { 'idempotency-key': key() } }),
    );
    work.splice(6, 0, via(1).delete(`/card/${card.id}`));
    const answers = await Promise.all(work);
    const toppedUp = answers.filter((answer, i) => i !== 6 && answer.code === 0).length;
    for (const [i, answer] of answers.entries()) {
      expect([0, CardErrorCode.CARD_ACTION_NOT_ALLOWED], `answer ${i}: ${JSON.stringify(answer)}`).toContain(answer.code);
    }
    expect(answers[6]?.code).toBe(0);
    await issuer.closed(card.id);
    expect(await via(0).data<CardItem>('GET', `/card/${card.id}`)).toMatchObject({ status: 'DELETE', balance: '0.00' });
    // all that is gone from the wallet is the card's cost and the fees: 2.50 + 0.35 a top-up
    const spent = 2_50n + BigInt(toppedUp) * 35n;
    const available = await wallet(via(0));
    expect(available).toMatchObject({ available: fromMinorUnits(1000_00n - spent), anew: '0.00' });
    await expectSoundBooks(database.db);
  });
});
