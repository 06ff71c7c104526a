import { randomUUID } from 'node:crypto';
import type { CardItem, OpenedAvailableAnswer } from '@portal/contract/cards';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.ts';
import { signIssuerPayload } from '../../src/lib/issuer-signature.ts';
import { signUp } from '../helpers/accounts.ts';
import type { ApiClient } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { scriptedIssuer } from '../helpers/issuer.ts';
import { expectSoundBooks, merchantOf } from '../helpers/ledger.ts';

// PGlite has one connection and would hide these races: this file runs on PostgreSQL only.
// Two apps, each on its own connections, stand for two server processes taking the issuer's webhooks.
const DAY = 86_400_000;
const clock = new ManualClock(new Date('2026-11-24T08:00:00Z'));
let database: TestDatabase;
let apps: TestApp[];
let secondHandle: Awaited<ReturnType<TestDatabase['connectAgain']>>;
const issuer = scriptedIssuer();
let blue: string;

beforeAll(async () => {
  database = await createTestDatabase();
  const first = await createTestApp({ database, issuer: issuer.port, clock });
  secondHandle = await database.connectAgain();
  const second = await createTestApp({ database: secondHandle as TestDatabase, issuer: issuer.port, seed: false, clock });
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

/** A customer with 100.00 in the wallet and an issued 订阅支付卡 loaded with 50.00. */
async function customerWithCard() {
  const t = apps[0] as TestApp;
  const who = await signUp(t);
  const api = t.api('localhost', who.token);
  const { id } = await api.data<{ id: string }>('GET', '/account/info');
  await api.data('PUT', '/card/verification', { body: { real_name: '张三', id_number: '11010519491231002X' } });
  await t.services.ledger.recharge({ merchantId: blue, accountId: id, currency: 'USD', amount: 100_00n, key: `fund-${id}` });
  const { products } = await api.data<OpenedAvailableAnswer>('GET', '/card/opened-available');
  const product = products.find((p) => p.name === '订阅支付卡');
  if (!product) throw new Error('no 订阅支付卡');
  const card = await api.data<CardItem>('POST', '/card', { body: { product_id: product.id, amount: '50.00', nickname: '注销并发' }, headers: { 'idempotency-key': `closed-race-${++serial}-${randomUUID()}` } });
  await issuer.issue(card.id);
  return { id, card, api };
}

/** A signed event sent to server `n % 2`; answers its status and body. */
async function send(n: number, type: string, data: Record<string, unknown>) {
  const app = apps[n % apps.length] as TestApp;
  const body = JSON.stringify({ id: `evt_${randomUUID()}`, type, data });
  const response = await app.app.inject({
    method: 'POST',
    url: '/api/v1/issuer/webhook',
    headers: { host: 'issuer.example', 'content-type': 'application/json', 'issuer-signature': signIssuerPayload(app.services.issuerSecret(), body, app.clock.now()) },
    payload: body,
  });
  return { status: response.statusCode, body: response.json() as Record<string, unknown> };
}

async function authorizeAll(cardId: string, amount: string) {
  const id = `auth_${randomUUID()}`;
  const answer = await send(0, 'authorization.request', { id, card_id: cardId, amount, currency: 'USD', merchant_name: 'Meta Ads', mcc: '7311', country: 'US' });
  expect(answer.body).toEqual({ approved: true });
  return id;
}

const cardOf = (api: ApiClient, id: string) => api.data<CardItem>('GET', `/card/${id}`);
/** What the books say (sessions lapse when the clock moves days on): the card's status and money, the wallet's available. */
async function booksOf(accountId: string, cardId: string) {
  const read = async (query: ReturnType<typeof sql>) => ((await database.db.execute(query)) as unknown as { rows: Array<Record<string, unknown>> }).rows;
  const [card] = await read(sql`select c.status, a.balance::text as balance, a.held::text as held from cards c join ledger_accounts a on a.kind = 'CARD' and a.owner_id = c.id where c.id = ${cardId}`);
  const [wallet] = await read(sql`select (balance - held)::text as available from ledger_accounts where kind = 'WALLET' and holder_id = ${accountId} and currency = 'USD'`);
  return { card, wallet: BigInt(String(wallet?.available ?? '0')) };
}
const walletOf = async (api: ApiClient) =>
  (await api.data<Array<{ currency: string; available: string }>>('GET', '/balance/account-balance')).find((item) => item.currency === 'USD')?.available ?? '0.00';

describe('a cancelled card and the money that reaches it, at once (PostgreSQL)', () => {
  it('a reversal arriving with card.closed, on two servers: every card ends holding nothing, its 50.00 in the wallet once', async () => {
    const people = await Promise.all(Array.from({ length: 12 }, () => customerWithCard()));
    const authorizations: string[] = [];
    for (const { card, api } of people) {
      authorizations.push(await authorizeAll(card.id, '50.00'));
      expect((await api.delete(`/card/${card.id}`)).code).toBe(0);
    }
    const before = await Promise.all(people.map(({ api }) => walletOf(api)));
    // half the pairs the close first, half the reversal first, each on its own server
    const answers = await Promise.all(
      people.flatMap(({ card }, n) => {
        const close = () => send(n, 'card.closed', { card_id: card.id });
        const reversal = () => send(n + 1, 'authorization.reversed', { id: `rev_${randomUUID()}`, authorization_id: authorizations[n] });
        return n % 2 === 0 ? [close(), reversal()] : [reversal(), close()];
      }),
    );
    expect(answers.map((answer) => answer.status).every((status) => status === 200)).toBe(true);
    for (const [n, { card, api }] of people.entries()) {
      expect(await cardOf(api, card.id)).toMatchObject({ status: 'DELETE', balance: '0.00', held: '0.00' });
      expect(Math.round((Number(await walletOf(api)) - Number(before[n])) * 100)).toBe(50_00);
    }
    expect(await apps[0]?.services.cards.closedCardsHoldingMoney(new Date(0))).toEqual([]);
    await expectSoundBooks(database.db);
  }, 120_000);

  it('refunds, reversals, settlements and the expiry job at once on cancelled cards: each hold ends once, nothing stays on a card', async () => {
    const people = await Promise.all(Array.from({ length: 6 }, () => customerWithCard()));
    const held: string[][] = [];
    for (const { card, api } of people) {
      held.push([await authorizeAll(card.id, '20.00'), await authorizeAll(card.id, '20.00')]);
      expect((await api.delete(`/card/${card.id}`)).code).toBe(0);
      expect((await send(0, 'card.closed', { card_id: card.id })).status).toBe(200);
    }
    const before = await Promise.all(people.map(({ id, card }) => booksOf(id, card.id)));
    clock.advance(7 * DAY + 1000);
    const work: Array<Promise<unknown>> = [];
    for (const [n, { card }] of people.entries()) {
      const [first, second] = held[n] as [string, string];
      // the first is settled for 15.00 and reversed at once (one of them lands); the second expires or is reversed
      work.push(send(n, 'transaction.settled', { id: `stl_${randomUUID()}`, authorization_id: first, amount: '15.00' }));
      work.push(send(n + 1, 'authorization.reversed', { id: `rev_${randomUUID()}`, authorization_id: first }));
      work.push(send(n, 'authorization.reversed', { id: `rev_${randomUUID()}`, authorization_id: second }));
      const refund = { id: `rf_${randomUUID()}`, card_id: card.id, amount: '3.00', merchant_name: 'Meta Ads' };
      work.push(send(n, 'transaction.refund', refund), send(n + 1, 'transaction.refund', refund));
    }
    work.push((apps[0] as TestApp).services.cardHolds.expire(), (apps[1] as TestApp).services.cardHolds.expire());
    const results = await Promise.all(work);
    for (const result of results) if (typeof result === 'object' && result && 'status' in result) expect(result.status).toBe(200);
    for (const [n, { id, card }] of people.entries()) {
      const after = await booksOf(id, card.id);
      expect(after.card).toEqual({ status: 'DELETE', balance: '0', held: '0' });
      const gained = Number(after.wallet - (before[n]?.wallet ?? 0n));
      // 20.00 of the second and the 3.00 refund (once), and 5.00 or 20.00 of the first (settled for 15.00, or reversed)
      expect([5_00 + 20_00 + 3_00, 20_00 + 20_00 + 3_00]).toContain(gained);
    }
    expect(await apps[0]?.services.cards.closedCardsHoldingMoney(new Date(0))).toEqual([]);
    await expectSoundBooks(database.db);
  }, 120_000);
});
