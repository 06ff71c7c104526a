import { randomUUID } from 'node:crypto';
import { ErrorCode } from '@portal/contract/errors';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/engine.ts';
import { seedDemoData } from '../../src/demo-data.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { cardAccountOf, MERCHANT_FEE_INCOME, walletOf } from '../../src/modules/ledger/service.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { autoKeyed, expectSoundBooks, ledgerOn, merchantOf, newCustomer, refusalOf, type TestLedger, walletOn } from '../helpers/ledger.ts';
import { until } from '../helpers/until.ts';

// PGlite has one connection and would hide these races: this file runs on PostgreSQL only.
// Four handles of ten connections each stand for four server processes.
let database: TestDatabase;
let handles: Database[];
let books: TestLedger[];
let blue: string;

beforeAll(async () => {
  database = await createTestDatabase();
  await seedDemoData(database);
  handles = [database, ...(await Promise.all([1, 2, 3].map(() => database.connectAgain())))];
  books = handles.map((handle) => autoKeyed(ledgerOn(handle.db, systemClock)));
  blue = (await merchantOf(database.db, 'localhost')).id;
});
afterAll(() => database?.close());

/** The ledger of the n-th of the processes, round robin. */
const via = (n: number) => books[n % books.length] as TestLedger;

async function walletOfCustomer(holder: string, currency = 'USD') {
  const { rows } = (await database.db.execute(
    sql`select balance::text as balance, held::text as held from ledger_accounts where kind = 'WALLET' and owner_id = ${holder} and currency = ${currency}`,
  )) as unknown as { rows: Array<{ balance: string; held: string }> };
  return { balance: BigInt(rows[0]?.balance ?? '0'), held: BigInt(rows[0]?.held ?? '0') };
}

/** Settles every promise and counts outcomes: 'ok', or the refusal's code. */
async function outcomes(work: Array<Promise<unknown>>) {
  const results = await Promise.all(work.map((promise) => refusalOf(promise)));
  const counts = new Map<string, number>();
  for (const result of results) {
    const name = result === undefined ? 'ok' : String(result);
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return Object.fromEntries(counts);
}

describe('the ledger under concurrency, on PostgreSQL', () => {
  it('200 concurrent deductions of 1.00 from 100.00: exactly 100 succeed and 0.00 is left', async () => {
    const holder = await newCustomer(database.db, blue);
    await via(0).recharge({ merchantId: blue, accountId: holder, currency: 'USD', amount: 100_00n });
    const result = await outcomes(
      Array.from({ length: 200 }, (_, i) => via(i).deduct({ merchantId: blue, accountId: holder, currency: 'USD', amount: 1_00n })),
    );
    expect(result).toEqual({ ok: 100, [ErrorCode.INSUFFICIENT_FUNDS]: 100 });
    expect(await walletOfCustomer(holder)).toEqual({ balance: 0n, held: 0n });
    await expectSoundBooks(database.db);
  });

  it('20 identical requests with one key: one posting set and 20 equal answers', async () => {
    const holder = await newCustomer(database.db, blue);
    await via(0).recharge({ merchantId: blue, accountId: holder, currency: 'USD', amount: 50_00n });
    const key = `same-${holder}`;
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => via(i).deduct({ merchantId: blue, accountId: holder, currency: 'USD', amount: 12_34n, key })),
    );
    expect(results.filter((result) => !result.replayed)).toHaveLength(1);
    for (const result of results) expect(result.answer).toEqual(results[0]?.answer);
    const { rows } = (await database.db.execute(
      sql`select count(distinct t.id)::int as transactions, count(p.id)::int as postings from ledger_transactions t join ledger_postings p on p.transaction_id = t.id
          where t.holder_id = ${holder} and t.type = 'ADMIN_RECHARGE_OUT'`,
    )) as unknown as { rows: Array<{ transactions: number; postings: number }> };
    expect(rows[0]).toEqual({ transactions: 1, postings: 2 });
    expect(await walletOfCustomer(holder)).toEqual({ balance: 37_66n, held: 0n });
    await expectSoundBooks(database.db);
  });

  it('duplicates of one keyed request racing recharges: it moves money once at most, and no duplicate fails otherwise', async () => {
    for (let round = 0; round < 10; round++) {
      const holder = await newCustomer(database.db, blue);
      await via(0).recharge({ merchantId: blue, accountId: holder, currency: 'USD', amount: 1n });
      const key = `race-${holder}`;
      const duplicates = Array.from({ length: 12 }, (_, i) =>
        via(i).deduct({ merchantId: blue, accountId: holder, currency: 'USD', amount: 1_00n, key }).then(
          (result) => result.answer,
          (error: { code?: number }) => error.code ?? error,
        ),
      );
      const recharges = Array.from({ length: 4 }, (_, i) => via(i + 1).recharge({ merchantId: blue, accountId: holder, currency: 'USD', amount: 50n }));
      const answers = await Promise.all(duplicates);
      await Promise.all(recharges);
      const successes = answers.filter((answer) => typeof answer === 'object');
      for (const answer of answers) expect(answer === ErrorCode.INSUFFICIENT_FUNDS || typeof answer === 'object', JSON.stringify(answer)).toBe(true);
      for (const answer of successes) expect(answer).toEqual(successes[0]);
      const { rows } = (await database.db.execute(
        sql`select count(*)::int as n from ledger_transactions where holder_id = ${holder} and type = 'ADMIN_RECHARGE_OUT'`,
      )) as unknown as { rows: Array<{ n: number }> };
      expect(rows[0]?.n).toBe(successes.length > 0 ? 1 : 0);
    }
    await expectSoundBooks(database.db);
  });

  it('a request whose key another request holds in flight waits for it, and then meets it', async () => {
    const holder = await newCustomer(database.db, blue);
    await via(0).recharge({ merchantId: blue, accountId: holder, currency: 'USD', amount: 10_00n });
    const key = `held-${holder}`;
    // another process: it has taken the key, and will lock the wallet next
    const other = new pg.Client({ connectionString: database.location });
    await other.connect();
    try {
      await other.query('begin');
      await other.query(`insert into ledger_idempotency_keys (merchant_id, key, request_hash) values ($1, $2, 'another request')`, [blue, key]);
      // this one claims the key first, so it waits for the other before it locks anything...
      const waiting = via(1)
        .deduct({ merchantId: blue, accountId: holder, currency: 'USD', amount: 1_00n, key })
        .then((result) => result.answer, (error: { code?: unknown }) => error.code);
      await until('the request to wait on the key the other holds', async () => {
        const { rows } = (await database.db.execute(
          sql`select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query ilike '%ledger_idempotency_keys%'`,
        )) as unknown as { rows: unknown[] };
        return rows.length > 0;
      });
      // ...so the other gets the wallet (were the lock order broken, PostgreSQL would end one of the two as a deadlock)
      const locked = await other
        .query(`select id from ledger_accounts where kind = 'WALLET' and owner_id = $1 for update`, [holder])
        .then(() => 'locked', (error: { code?: unknown }) => error.code);
      await other.query(locked === 'locked' ? 'commit' : 'rollback');
      const outcome = await waiting;
      // the other one committed its key: this request meets it as another request's; had the other lost, the deduction went through
      if (locked === 'locked') expect(outcome).toBe(ErrorCode.IDEMPOTENCY_CONFLICT);
      else expect(outcome).toMatchObject({ type: 'ADMIN_RECHARGE_OUT', amount: '1.00' });
    } finally {
      await other.end();
    }
    await expectSoundBooks(database.db);
  });

  it('a hold released and posted at the same moment: exactly one wins, every time', async () => {
    const holder = await newCustomer(database.db, blue);
    await via(0).recharge({ merchantId: blue, accountId: holder, currency: 'USD', amount: 1_000_00n });
    let posted = 0;
    for (let round = 0; round < 30; round++) {
      const { answer } = await via(round).holdFunds({ merchantId: blue, accountId: holder, currency: 'USD', amount: 10_00n });
      const holdId = answer.holdId as string;
      const post = via(round + 1).postHold({ merchantId: blue, holdId, type: 'OPEN_CARD', to: [{ account: MERCHANT_FEE_INCOME, amount: 10_00n }] });
      const release = via(round + 2).releaseHold({ merchantId: blue, holdId });
      const [postResult, releaseResult] = await Promise.all([refusalOf(post), refusalOf(release)]);
      expect([postResult, releaseResult].filter((r) => r === undefined)).toHaveLength(1);
      expect([postResult, releaseResult].filter((r) => r === ErrorCode.HOLD_SETTLED)).toHaveLength(1);
      if (postResult === undefined) posted += 1;
    }
    expect(await walletOfCustomer(holder)).toEqual({ balance: 1_000_00n - BigInt(posted) * 10_00n, held: 0n });
    await expectSoundBooks(database.db);
  });

  it('a new wallet first used by 20 requests at once is opened once and gets every one', async () => {
    const holder = await newCustomer(database.db, blue);
    const result = await outcomes(
      Array.from({ length: 20 }, (_, i) => via(i).recharge({ merchantId: blue, accountId: holder, currency: 'CNY', amount: 1_00n })),
    );
    expect(result).toEqual({ ok: 20 });
    expect(await walletOfCustomer(holder, 'CNY')).toEqual({ balance: 20_00n, held: 0n });
    await expectSoundBooks(database.db);
  });

  it('money criss-crossing between wallets and cards neither deadlocks nor goes below zero', async () => {
    const holders = await Promise.all([0, 1, 2].map(() => newCustomer(database.db, blue)));
    const cards = holders.map((holder) => [randomUUID(), randomUUID()].map((card) => ({ card, holder })));
    for (const holder of holders) await via(0).recharge({ merchantId: blue, accountId: holder, currency: 'USD', amount: 300_00n });
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    const work: Array<Promise<unknown>> = [];
    for (let i = 0; i < 300; i++) {
      const h = next(holders.length);
      const holder = holders[h] as string;
      const { card } = (cards[h] as Array<{ card: string }>)[next(2)] as { card: string };
      const amount = BigInt(1 + next(900));
      const ledgerOf = via(i);
      switch (next(4)) {
        case 0:
          work.push(ledgerOf.transferToCard({ merchantId: blue, accountId: holder, cardId: card, currency: 'USD', amount, fee: BigInt(next(50)) }));
          break;
        case 1:
          work.push(ledgerOf.transferFromCard({ merchantId: blue, accountId: holder, cardId: card, currency: 'USD', amount }));
          break;
        case 2:
          // both of the holder's cards and the wallet in one transaction, in an order that differs from call to call
          work.push(
            ledgerOf.transfer({
              merchantId: blue,
              currency: 'USD',
              type: 'CONSUME',
              lines: [
                { account: cardAccountOf(((cards[h] as Array<{ card: string }>)[1] as { card: string }).card, holder), amount: -amount },
                { account: cardAccountOf(((cards[h] as Array<{ card: string }>)[0] as { card: string }).card, holder), amount },
              ],
            }),
          );
          break;
        default:
          work.push(
            ledgerOf.transfer({
              merchantId: blue,
              currency: 'USD',
              type: 'TRANSFER_OUT_TO_CARD',
              lines: [
                { account: walletOf(holder), amount: -amount },
                { account: cardAccountOf(card, holder), amount },
              ],
            }),
          );
      }
    }
    const result = await outcomes(work);
    const allowed = new Set(['ok', String(ErrorCode.INSUFFICIENT_FUNDS), String(ErrorCode.CARD_BALANCE_INSUFFICIENT)]);
    for (const outcome of Object.keys(result)) expect(allowed.has(outcome), JSON.stringify(result)).toBe(true);
    expect(result.ok).toBeGreaterThan(100);
    await expectSoundBooks(database.db);
  });

  it('a freeze waits for a deduction in flight, and no deduction gets past it afterwards', async () => {
    const holder = await newCustomer(database.db, blue);
    await via(0).recharge({ merchantId: blue, accountId: holder, currency: 'USD', amount: 100_00n });
    const deductions = Array.from({ length: 60 }, (_, i) => via(i).deduct({ merchantId: blue, accountId: holder, currency: 'USD', amount: 1_00n }));
    const freezer = handles[1]?.db ?? database.db;
    const wallets = walletOn(freezer, systemClock);
    const freezing = wallets.freeze({ merchantId: blue, accountId: holder, reason: '并发测试' });
    const result = await outcomes(deductions);
    expect(await freezing).toBe(true);
    expect((result.ok ?? 0) + (result[ErrorCode.WALLET_FROZEN] ?? 0)).toBe(60);
    expect(await walletOfCustomer(holder)).toEqual({ balance: 100_00n - BigInt(result.ok ?? 0) * 1_00n, held: 0n });
    const after = await outcomes(Array.from({ length: 20 }, (_, i) => via(i).deduct({ merchantId: blue, accountId: holder, currency: 'USD', amount: 1_00n })));
    expect(after).toEqual({ [ErrorCode.WALLET_FROZEN]: 20 });
    await expectSoundBooks(database.db);
  });
});
