import { type CardItem, type OpenedAvailableAnswer, openingCost, rechargeCost } from '@portal/contract/cards';
import { fromMinorUnits, toMinorUnits } from '@portal/contract/money';
import { TeamErrorCode } from '@portal/contract/team-errors';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from '../helpers/accounts.ts';
import type { ApiClient } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { scriptedIssuer } from '../helpers/issuer.ts';
import { expectSoundBooks, merchantOf } from '../helpers/ledger.ts';
import { addMember } from '../helpers/members.ts';

// PGlite has one connection and would hide these races: this file runs on PostgreSQL only.
// Two apps, each on its own connections, stand for two server processes.
let database: TestDatabase;
let apps: TestApp[];
let secondHandle: Awaited<ReturnType<TestDatabase['connectAgain']>>;
const issuer = scriptedIssuer();

beforeAll(async () => {
  database = await createTestDatabase();
  const first = await createTestApp({ database, issuer: issuer.port });
  secondHandle = await database.connectAgain();
  const second = await createTestApp({ database: secondHandle as TestDatabase, issuer: issuer.port, seed: false });
  apps = [first, second];
  issuer.attach(first);
});
afterAll(async () => {
  for (const app of apps ?? []) await app.close();
  await secondHandle?.close();
  await database?.close();
});

let serial = 0;
const key = () => `budget-${Date.now().toString(36)}-${++serial}`;

/** A verified account with 1000.00 USD, and one MEMBER of it with `budget`, signed in on both processes. */
async function memberWithBudget(budget: (product: OpenedAvailableAnswer['products'][number]) => string) {
  const t = apps[0] as TestApp;
  const owner = await signUp(t);
  const api = t.api('localhost', owner.token);
  const { id: accountId } = await api.data<{ id: string }>('GET', '/account/info');
  await api.data('PUT', '/card/verification', { body: { real_name: '张三', id_number: '11010519491231002X' } });
  const merchantId = (await merchantOf(database.db, 'localhost')).id;
  await t.services.ledger.recharge({ merchantId, accountId, currency: 'USD', amount: 1000_00n, key: `fund-${accountId}` });
  const { products } = await api.data<OpenedAvailableAnswer>('GET', '/card/opened-available');
  const product = products.find((p) => p.name === '订阅支付卡');
  if (!product) throw new Error('no 订阅支付卡');
  const member = await addMember(database.db, t.services.sessions, accountId, 'MEMBER', { budget: toMinorUnits(budget(product)) });
  const clients = apps.map((app) => app.api('localhost', member.token));
  return { product, memberId: member.id, via: (n: number) => clients[n % clients.length] as ApiClient };
}

const usedOf = async (memberId: string) => {
  const result = (await database.db.execute(sql`select coalesce(sum(used), 0)::text as used from budget_usage where member_id = ${memberId}`)) as unknown as {
    rows: Array<{ used: string }>;
  };
  return fromMinorUnits(BigInt(result.rows[0]?.used ?? '0'));
};

async function outcomes(work: Array<Promise<{ code: number }>>) {
  const counts: Record<string, number> = {};
  for (const answer of await Promise.all(work)) counts[String(answer.code)] = (counts[String(answer.code)] ?? 0) + 1;
  return counts;
}

describe("a member's budget under concurrency, on PostgreSQL", () => {
  it('12 concurrent openings against a budget for three: exactly three open, and the budget is used to the cent', async () => {
    const { product, memberId, via } = await memberWithBudget((p) => fromMinorUnits(toMinorUnits(openingCost(p, '20.00').total) * 3n));
    const result = await outcomes(
      Array.from({ length: 12 }, (_, i) =>
        via(i).post<CardItem>('/card', { product_id: product.id, amount: '20.00', nickname: `并发${i}` }, { headers: { 'idempotency-key': key() } }),
      ),
    );
    expect(result).toEqual({ '0': 3, [TeamErrorCode.BUDGET_EXCEEDED]: 9 });
    expect(await usedOf(memberId)).toBe(fromMinorUnits(toMinorUnits(openingCost(product, '20.00').total) * 3n));
    await expectSoundBooks(database.db);
  });

  it('20 concurrent top-ups across two of their cards against a budget for five: exactly five pass', async () => {
    const { product, memberId, via } = await memberWithBudget((p) =>
      fromMinorUnits(toMinorUnits(openingCost(p, '20.00').total) * 2n + toMinorUnits(rechargeCost(p, '10.00').total) * 5n),
    );
    const cards: CardItem[] = [];
    for (const nickname of ['甲', '乙']) {
      const card = await via(0).data<CardItem>('POST', '/card', { body: { product_id: product.id, amount: '20.00', nickname }, headers: { 'idempotency-key': key() } });
      await issuer.issue(card.id);
      cards.push(card);
    }
    const result = await outcomes(
      Array.from({ length: 20 }, (_, i) =>
        via(i).post(`/card/${(cards[i % 2] as CardItem).id}/recharge`, { amount: '10.00' }, { headers: { 'idempotency-key': key() } }),
      ),
    );
    expect(result).toEqual({ '0': 5, [TeamErrorCode.BUDGET_EXCEEDED]: 15 });
    const budget = toMinorUnits(openingCost(product, '20.00').total) * 2n + toMinorUnits(rechargeCost(product, '10.00').total) * 5n;
    expect(await usedOf(memberId)).toBe(fromMinorUnits(budget));
    await expectSoundBooks(database.db);
  });
});
