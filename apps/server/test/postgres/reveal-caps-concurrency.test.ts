import type { CardItem, OpenedAvailableAnswer } from '@portal/contract/cards';
import { CardErrorCode } from '@portal/contract/card-errors';
import { sql } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.ts';
import { lastCode, phoneTo, signUp } from '../helpers/accounts.ts';
import type { ApiClient } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { scriptedIssuer } from '../helpers/issuer.ts';

// PGlite has one connection and would hide these races: this file runs on PostgreSQL only.
// Two apps, each on its own connections, stand for two server processes; one clock, mid-afternoon in China.
const clock = new ManualClock(new Date('2026-11-24T06:00:00Z'));
let database: TestDatabase;
let apps: TestApp[];
let secondHandle: Awaited<ReturnType<TestDatabase['connectAgain']>>;
const issuer = scriptedIssuer();

// both servers open the cards' numbers with the same key, as every process of one deployment does
const env = { CARD_DATA_KEY: randomBytes(32).toString('base64') };

beforeAll(async () => {
  database = await createTestDatabase();
  const first = await createTestApp({ database, clock, issuer: issuer.port, env });
  secondHandle = await database.connectAgain();
  const second = await createTestApp({ database: secondHandle as TestDatabase, clock, issuer: issuer.port, seed: false, env });
  apps = [first, second];
  issuer.attach(first);
});
afterAll(async () => {
  for (const app of apps ?? []) await app.close();
  await secondHandle?.close();
  await database?.close();
});

let serial = 0;
const key = () => `reveal-caps-${Date.now().toString(36)}-${++serial}`;
const SENSITIVE = { filters: {}, include_sensitive: true, columns: ['nickname', 'card_number'] };

/** A verified customer with an issued card, whose session has checked an access code (the window is open). */
async function unlockedCustomer() {
  const t = apps[0] as TestApp;
  const who = await signUp(t);
  const clients: ApiClient[] = apps.map((app) => app.api('localhost', who.token));
  const api = clients[0] as ApiClient;
  const { id } = await api.data<{ id: string }>('GET', '/account/info');
  await api.data('PUT', '/card/verification', { body: { real_name: '张三', id_number: '11010519491231002X' } });
  const merchantId = String(((await database.db.execute(sql`select merchant_id from accounts where id = ${id}`)) as unknown as { rows: Array<{ merchant_id: string }> }).rows[0]?.merchant_id);
  await t.services.ledger.recharge({ merchantId, accountId: id, currency: 'USD', amount: 100_00n, key: `fund-${id}` });
  const { products } = await api.data<OpenedAvailableAnswer>('GET', '/card/opened-available');
  const product = products.find((p) => p.name === '订阅支付卡');
  if (!product) throw new Error('no 订阅支付卡');
  const card = await api.data<CardItem>('POST', '/card', { body: { product_id: product.id, amount: '10.00', nickname: '并发' }, headers: { 'idempotency-key': key() } });
  await issuer.issue(card.id);
  clock.advance(61_000);
  await api.post('/account/send/code-auto', { send_type: 'SEND_TYPE_PHONE', mark_type: 'MARK_TYPE_ACCESS' });
  const shown = await api.post(`/card/${card.id}/reveal`, { captcha: await lastCode(t, phoneTo(who.phone)) });
  expect(shown.code, shown.message).toBe(0);
  return { id, card, via: (n: number) => clients[n % clients.length] as ApiClient };
}

async function outcomes(work: Array<Promise<{ code: number }>>) {
  const counts: Record<string, number> = {};
  for (const answer of await Promise.all(work)) counts[String(answer.code)] = (counts[String(answer.code)] ?? 0) + 1;
  return counts;
}

const counted = async (accountId: string) =>
  ((await database.db.execute(
    sql`select (select count(*)::int from card_reveals where account_id = ${accountId}) as reveals,
               (select count(*)::int from card_exports where account_id = ${accountId} and include_sensitive) as exports`,
  )) as unknown as { rows: Array<{ reveals: number; exports: number }> }).rows[0];

describe('the caps of card numbers under concurrency, on PostgreSQL', () => {
  it('12 exports with full numbers at once on two servers, 4 made today already: exactly one more is accepted', async () => {
    const who = await unlockedCustomer();
    for (let i = 0; i < 4; i++) expect((await who.via(i).post('/card/batch-export', SENSITIVE)).code).toBe(0);
    const counts = await outcomes(Array.from({ length: 12 }, (_, i) => who.via(i).post('/card/batch-export', SENSITIVE)));
    expect(counts).toEqual({ '0': 1, [CardErrorCode.SENSITIVE_EXPORT_DAILY_LIMIT]: 11 });
    expect(await counted(who.id)).toEqual({ reveals: 1, exports: 5 });
  });

  it('reveals and exports racing for the last two of the hour’s 30: exactly two get through', async () => {
    const who = await unlockedCustomer();
    for (let i = 1; i < 28; i++) expect((await who.via(i).post(`/card/${who.card.id}/reveal`, {})).code).toBe(0);
    const work = Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? who.via(i).post(`/card/${who.card.id}/reveal`, {}) : who.via(i).post('/card/batch-export', SENSITIVE)));
    const counts = await outcomes(work);
    expect(counts).toEqual({ '0': 2, [CardErrorCode.REVEAL_LIMIT]: 8 });
    const after = await counted(who.id);
    expect((after?.reveals ?? 0) + (after?.exports ?? 0)).toBe(30);
  });
});
