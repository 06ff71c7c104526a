import { randomUUID } from 'node:crypto';
import { ErrorCode } from '@portal/contract/errors';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/engine.ts';
import { systemClock } from '../../src/lib/clock.ts';
import {
  CARD_NETWORK,
  cardAccountOf,
  type LedgerService,
  MERCHANT_FEE_INCOME,
  MERCHANT_FUNDING,
  walletOf,
} from '../../src/modules/ledger/service.ts';
import { houseShardFor } from '../../src/modules/ledger/accounts.ts';
import type { WalletService } from '../../src/modules/wallet/service.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { expectUnchanged } from '../helpers/unchanged.ts';
import { autoKeyed, booksOn, booksSnapshot, expectSoundBooks, ledgerOn, merchantOf, newCustomer, refusalOf, type TestLedger, walletOn } from '../helpers/ledger.ts';

let t: TestApp;
let db: Db;
let ledger: LedgerService;
let books: TestLedger;
let wallets: WalletService;
let blue: string;
let orange: string;

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.db;
  ledger = ledgerOn(db, systemClock);
  books = autoKeyed(ledger);
  wallets = walletOn(db, systemClock);
  blue = (await merchantOf(db, 'localhost')).id;
  orange = (await merchantOf(db, 'orange.localhost')).id;
});
afterAll(() => t.close());

type Rows = Array<Record<string, unknown>>;
const query = async (q: ReturnType<typeof sql>) => ((await db.execute(q)) as unknown as { rows: Rows }).rows;

/** A ledger account's balance and held, in minor units (0 for one that does not exist); the merchant's summed over its shards. */
async function account(merchantId: string, currency: string, kind: string, ownerId: string, shard?: number) {
  const [row] = await query(
    sql`select coalesce(sum(balance), 0)::text as balance, coalesce(sum(held), 0)::text as held from ledger_accounts
        where merchant_id = ${merchantId} and currency = ${currency} and kind = ${kind} and owner_id = ${ownerId}
          and (${shard ?? null}::smallint is null or shard = ${shard ?? null}::smallint)`,
  );
  return { balance: BigInt((row?.balance as string) ?? '0'), held: BigInt((row?.held as string) ?? '0') };
}
const wallet = (holder: string, currency = 'USD', merchantId = blue) => account(merchantId, currency, 'WALLET', holder);
const house = (kind: string, currency = 'USD', merchantId = blue) => account(merchantId, currency, kind, merchantId);

async function fundedCustomer(amount = 100_00n, currency: 'USD' | 'CNY' = 'USD', merchantId = blue) {
  const holder = await newCustomer(db, merchantId);
  await books.recharge({ merchantId, accountId: holder, currency, amount });
  return holder;
}

/** Expects a refusal with this code and that not one byte of the books changed. */
const expectRefused = (work: () => Promise<unknown>, code: number) =>
  expectUnchanged(
    () => booksSnapshot(db),
    async () => expect(await refusalOf(work())).toBe(code),
  );

describe('every movement is one balanced set of postings', () => {
  it('a recharge credits the wallet and debits the merchant funding, with balance after on each posting', async () => {
    const holder = await newCustomer(db, blue);
    const fundingBefore = await house('MERCHANT_FUNDING');
    // the merchant's side is one of its shards, always the same one for this customer
    const shardBefore = await account(blue, 'USD', 'MERCHANT_FUNDING', blue, houseShardFor(holder));
    const { answer, replayed } = await books.recharge({ merchantId: blue, accountId: holder, currency: 'USD', amount: 123_45n, memo: '测试' });
    expect(replayed).toBe(false);
    expect(answer).toMatchObject({ operation: 'transfer', type: 'ADMIN_RECHARGE_IN', currency: 'USD', amount: '123.45' });
    expect(answer.accounts).toEqual([{ kind: 'WALLET', ownerId: holder, holderId: holder, balance: '123.45', held: '0.00', available: '123.45' }]);
    expect(await wallet(holder)).toEqual({ balance: 123_45n, held: 0n });
    expect((await house('MERCHANT_FUNDING')).balance).toBe(fundingBefore.balance - 123_45n);
    const postings = await query(
      sql`select p.amount::text as amount, p.balance_after::text as after, la.kind from ledger_postings p join ledger_accounts la on la.id = p.ledger_account_id where p.transaction_id = ${answer.transactionId} order by la.kind`,
    );
    expect(postings).toEqual([
      { amount: '-12345', after: String(shardBefore.balance - 123_45n), kind: 'MERCHANT_FUNDING' },
      { amount: '12345', after: '12345', kind: 'WALLET' },
    ]);
    await expectSoundBooks(db);
  });

  it("the merchant's side is spread over shards, each customer always on the same one", async () => {
    const holders = await Promise.all(Array.from({ length: 12 }, () => newCustomer(db, blue)));
    for (const holder of holders) {
      await books.recharge({ merchantId: blue, accountId: holder, currency: 'CNY', amount: 1_00n });
      await books.deduct({ merchantId: blue, accountId: holder, currency: 'CNY', amount: 50n });
    }
    const rows = await query(sql`
      select t.holder_id, array_agg(distinct la.shard) as shards from ledger_transactions t
      join ledger_postings p on p.transaction_id = t.id join ledger_accounts la on la.id = p.ledger_account_id
      where la.kind = 'MERCHANT_FUNDING' and t.holder_id in (${sql.join(
        holders.map((h) => sql`${h}::uuid`),
        sql`, `,
      )}) group by t.holder_id`);
    for (const row of rows) expect((row.shards as number[]).map(Number)).toEqual([houseShardFor(row.holder_id as string)]);
    expect(new Set(rows.map((row) => houseShardFor(row.holder_id as string))).size).toBeGreaterThan(1);
    await expectSoundBooks(db);
  });

  it('a transfer to a card moves the amount to the card and its fee to fee income, all from the wallet', async () => {
    const holder = await fundedCustomer(50_00n);
    const card = randomUUID();
    const feesBefore = await house('MERCHANT_FEE_INCOME');
    const { answer } = await books.transferToCard({ merchantId: blue, accountId: holder, cardId: card, currency: 'USD', amount: 20_00n, fee: 1_30n });
    expect(answer).toMatchObject({ type: 'TRANSFER_OUT_TO_CARD', amount: '21.30' });
    expect(await wallet(holder)).toEqual({ balance: 28_70n, held: 0n });
    expect(await account(blue, 'USD', 'CARD', card)).toEqual({ balance: 20_00n, held: 0n });
    expect((await house('MERCHANT_FEE_INCOME')).balance).toBe(feesBefore.balance + 1_30n);
    const back = await books.transferFromCard({ merchantId: blue, accountId: holder, cardId: card, currency: 'USD', amount: 5_00n });
    expect(back.answer.type).toBe('TRANSFER_IN_FROM_CARD');
    expect(await wallet(holder)).toEqual({ balance: 33_70n, held: 0n });
    await expectSoundBooks(db);
  });

  it('a card never goes below zero: taking more than it has is refused and changes nothing', async () => {
    const holder = await fundedCustomer(10_00n);
    const card = randomUUID();
    await books.transferToCard({ merchantId: blue, accountId: holder, cardId: card, currency: 'USD', amount: 4_00n });
    await expectRefused(
      () => books.transferFromCard({ merchantId: blue, accountId: holder, cardId: card, currency: 'USD', amount: 4_01n }),
      ErrorCode.CARD_BALANCE_INSUFFICIENT,
    );
  });

  it("a card's spending goes to the card network, and a card belongs to one customer only", async () => {
    const holder = await fundedCustomer(10_00n);
    const card = randomUUID();
    await books.transferToCard({ merchantId: blue, accountId: holder, cardId: card, currency: 'USD', amount: 6_00n });
    const networkBefore = await house('CARD_NETWORK');
    await books.transfer({
      merchantId: blue,
      currency: 'USD',
      type: 'CONSUME',
      lines: [
        { account: cardAccountOf(card, holder), amount: -2_50n },
        { account: CARD_NETWORK, amount: 2_50n },
      ],
    });
    expect((await house('CARD_NETWORK')).balance).toBe(networkBefore.balance + 2_50n);
    const stranger = await newCustomer(db, blue);
    const before = await booksSnapshot(db);
    await expect(
      books.transferFromCard({ merchantId: blue, accountId: stranger, cardId: card, currency: 'USD', amount: 1_00n }),
    ).rejects.toThrow(/not an account of customer/);
    expect(await booksSnapshot(db)).toBe(before);
    await expectSoundBooks(db);
  });

  it('fees go from the wallet to fee income as OPEN_CARD or DECLINED_FEE', async () => {
    const holder = await fundedCustomer(10_00n);
    await books.chargeFee({ merchantId: blue, accountId: holder, currency: 'USD', amount: 1_00n, type: 'OPEN_CARD' });
    await books.chargeFee({ merchantId: blue, accountId: holder, currency: 'USD', amount: 50n, type: 'DECLINED_FEE' });
    expect(await wallet(holder)).toEqual({ balance: 8_50n, held: 0n });
    await expectSoundBooks(db);
  });

  it('refuses lines that do not balance, a wallet moved under a non-wallet type, and bad amounts, writing nothing', async () => {
    const holder = await fundedCustomer(10_00n);
    const before = await booksSnapshot(db);
    await expect(
      books.transfer({
        merchantId: blue,
        currency: 'USD',
        type: 'ADMIN_RECHARGE_IN',
        lines: [
          { account: walletOf(holder), amount: 1_00n },
          { account: MERCHANT_FUNDING, amount: -99n },
        ],
      }),
    ).rejects.toThrow(/sum to 1, not zero/);
    await expect(
      books.transfer({
        merchantId: blue,
        currency: 'USD',
        type: 'CONSUME',
        lines: [
          { account: walletOf(holder), amount: -1_00n },
          { account: CARD_NETWORK, amount: 1_00n },
        ],
      }),
    ).rejects.toThrow(/not a wallet transaction type/);
    for (const amount of [0n, -1n, 10n ** 15n + 1n]) {
      expect(await refusalOf(books.recharge({ merchantId: blue, accountId: holder, currency: 'USD', amount }))).toBe(ErrorCode.AMOUNT_INVALID);
    }
    expect(await refusalOf(books.recharge({ merchantId: blue, accountId: holder, currency: 'EUR' as 'USD', amount: 1n }))).toBe(ErrorCode.VALIDATION);
    expect(await booksSnapshot(db)).toBe(before);
  });

  it("will not open a wallet for another merchant's customer", async () => {
    const foreigner = await newCustomer(db, orange);
    const before = await booksSnapshot(db);
    await expect(books.recharge({ merchantId: blue, accountId: foreigner, currency: 'USD', amount: 1_00n })).rejects.toThrow(/not an account of customer/);
    expect(await booksSnapshot(db)).toBe(before);
  });

  it('a deduction beyond the available balance is refused and changes no byte of the books', async () => {
    const holder = await fundedCustomer(10_00n);
    await expectRefused(() => books.deduct({ merchantId: blue, accountId: holder, currency: 'USD', amount: 10_01n }), ErrorCode.INSUFFICIENT_FUNDS);
    await expectRefused(() => books.adjustOut({ merchantId: blue, accountId: holder, currency: 'CNY', amount: 1n }), ErrorCode.INSUFFICIENT_FUNDS);
    await books.deduct({ merchantId: blue, accountId: holder, currency: 'USD', amount: 10_00n });
    expect(await wallet(holder)).toEqual({ balance: 0n, held: 0n });
  });

  it('the refusal says how much is available, in 中文', async () => {
    const holder = await fundedCustomer(3_20n);
    const error = await books.deduct({ merchantId: blue, accountId: holder, currency: 'USD', amount: 5_00n }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: ErrorCode.INSUFFICIENT_FUNDS, message: '钱包可用余额不足（可用 3.20 USD）', data: { currency: 'USD', available: '3.20' } });
  });

  it("inside a caller's transaction, a refused operation undoes only itself", async () => {
    const holder = await fundedCustomer(1_00n);
    const refusal = await db.transaction(async (tx) => {
      await ledger.within(tx).recharge({ merchantId: blue, accountId: holder, currency: 'USD', amount: 2_00n, key: `in-tx-${holder}` });
      return refusalOf(
        ledger.within(tx).transfer({
          merchantId: blue,
          currency: 'USD',
          type: 'ADMIN_RECHARGE_OUT',
          key: `in-tx-out-${holder}`,
          lines: [
            { account: walletOf(holder), amount: -3_01n },
            { account: MERCHANT_FUNDING, amount: 3_01n },
          ],
        }),
      );
    });
    expect(refusal).toBe(ErrorCode.INSUFFICIENT_FUNDS);
    expect(await wallet(holder)).toEqual({ balance: 3_00n, held: 0n });
    const keys = await query(sql`select key from ledger_idempotency_keys where key like ${`in-tx-%${holder}`} order by key`);
    expect(keys).toEqual([{ key: `in-tx-${holder}` }]);
    await expectSoundBooks(db);
  });
});

describe("inside a caller's transaction without a savepoint", () => {
  it('a refusal leaves nothing (its claimed key taken back) and the transaction goes on; a hold and a transfer commit with it', async () => {
    const holder = await fundedCustomer(5_00n);
    const outcome = await db.transaction(async (tx) => {
      const refused = await refusalOf(alone(tx).holdFunds({ merchantId: blue, accountId: holder, currency: 'USD', amount: 5_01n, key: `bare-refused-${holder}` }));
      const held = await alone(tx).holdFunds({ merchantId: blue, accountId: holder, currency: 'USD', amount: 2_00n, key: `bare-held-${holder}` });
      const refusedTransfer = await refusalOf(
        alone(tx).transfer({
          merchantId: blue,
          currency: 'USD',
          type: 'ADMIN_RECHARGE_OUT',
          key: `bare-out-${holder}`,
          lines: [
            { account: walletOf(holder), amount: -3_01n },
            { account: MERCHANT_FUNDING, amount: 3_01n },
          ],
        }),
      );
      // the same key again in the same transaction: the first answer
      const again = await alone(tx).holdFunds({ merchantId: blue, accountId: holder, currency: 'USD', amount: 2_00n, key: `bare-held-${holder}` });
      return { refused, refusedTransfer, held, again };
    });
    expect(outcome.refused).toBe(ErrorCode.INSUFFICIENT_FUNDS);
    expect(outcome.refusedTransfer).toBe(ErrorCode.INSUFFICIENT_FUNDS);
    expect(outcome.again).toEqual({ answer: outcome.held.answer, replayed: true });
    expect(await wallet(holder)).toEqual({ balance: 5_00n, held: 2_00n });
    const keys = await query(sql`select key from ledger_idempotency_keys where key like ${`bare-%${holder}`} order by key`);
    expect(keys).toEqual([{ key: `bare-held-${holder}` }]);
    // the refused keys are free: the same requests go through once there is money
    await books.recharge({ merchantId: blue, accountId: holder, currency: 'USD', amount: 10_00n });
    await db.transaction((tx) => alone(tx).holdFunds({ merchantId: blue, accountId: holder, currency: 'USD', amount: 5_01n, key: `bare-refused-${holder}` }));
    expect(await wallet(holder)).toEqual({ balance: 15_00n, held: 7_01n });
    await expectSoundBooks(db);
  });

  it('a database error fails the whole transaction: nothing of it stays', async () => {
    const holder = await fundedCustomer(5_00n);
    const failed = await db
      .transaction(async (tx) => {
        await alone(tx).holdFunds({ merchantId: blue, accountId: holder, currency: 'USD', amount: 1_00n, key: `bare-first-${holder}` });
        // a balance past what a bigint holds: the write statement fails, and with it the transaction
        await tx.execute(sql`update ledger_accounts set balance = 9223372036854775000 where merchant_id = ${blue} and kind = 'WALLET' and owner_id = ${holder}`);
        await alone(tx).recharge({ merchantId: blue, accountId: holder, currency: 'USD', amount: 1_000_00n, key: `bare-huge-${holder}` });
      })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(failed).toBeTruthy();
    expect(await wallet(holder)).toEqual({ balance: 5_00n, held: 0n });
    expect(await query(sql`select key from ledger_idempotency_keys where key like ${`bare-%${holder}`}`)).toEqual([]);
    await expectSoundBooks(db);
  });
});
const alone = (tx: Parameters<Parameters<Db['transaction']>[0]>[0]) => ledger.within(tx, { savepoint: false });

describe('a movement of one customer account is one transaction', () => {
  /** The database, counting the transactions opened on it (a savepoint inside one is not counted). */
  const countingTransactions = () => {
    let opened = 0;
    const handle = new Proxy(db, {
      get(target, property, receiver) {
        if (property === 'transaction') {
          return (...args: Parameters<Db['transaction']>) => {
            opened++;
            return target.transaction(...args);
          };
        }
        return Reflect.get(target, property, receiver);
      },
    });
    return { handle, opened: () => opened };
  };

  it('recharges, deductions, adjustments, fees, holds and releases each run in one transaction of their own', async () => {
    const holder = await fundedCustomer(10_00n);
    const base = { merchantId: blue, accountId: holder, currency: 'USD' as const };
    // the first use of an account (here the merchant's fee income shard) creates it in a second attempt
    await books.chargeFee({ ...base, amount: 1n, type: 'DECLINED_FEE' });
    await books.recharge({ ...base, amount: 1n });
    const counting = countingTransactions();
    const quick = autoKeyed(ledgerOn(counting.handle, systemClock));
    await quick.recharge({ ...base, amount: 5_00n });
    await quick.deduct({ ...base, amount: 1_00n });
    await quick.adjustOut({ ...base, amount: 1_00n });
    await quick.chargeFee({ ...base, amount: 1_00n, type: 'DECLINED_FEE' });
    const { answer } = await quick.holdFunds({ ...base, amount: 2_00n });
    expect(answer.accounts).toEqual([{ kind: 'WALLET', ownerId: holder, holderId: holder, balance: '12.00', held: '2.00', available: '10.00' }]);
    const released = await quick.releaseHold({ merchantId: blue, holdId: answer.holdId as string });
    expect(released.answer).toMatchObject({ operation: 'release-hold', amount: '2.00', currency: 'USD', holdId: answer.holdId, transactionId: null });
    expect(counting.opened()).toBe(6);
    expect(await wallet(holder)).toEqual({ balance: 12_00n, held: 0n });
    await expectSoundBooks(db);
  });

  it('answers in the same shape as a movement of two customer accounts', async () => {
    const holder = await fundedCustomer(10_00n);
    const single = await ledger.deduct({ merchantId: blue, accountId: holder, currency: 'USD', amount: 1_23n, key: `single-${holder}` });
    // a request for two customer accounts; its answer has the same shape
    const card = randomUUID();
    const double = await books.transferToCard({ merchantId: blue, accountId: holder, cardId: card, currency: 'USD', amount: 1_00n });
    expect(Object.keys(single.answer).sort()).toEqual(Object.keys(double.answer).sort());
    expect(single.answer).toMatchObject({ operation: 'transfer', type: 'ADMIN_RECHARGE_OUT', currency: 'USD', amount: '1.23', holdId: null });
    expect(single.answer.accounts).toEqual([{ kind: 'WALLET', ownerId: holder, holderId: holder, balance: '8.77', held: '0.00', available: '8.77' }]);
    // and the stored answer of the key is the one sent
    expect((await books.deduct({ merchantId: blue, accountId: holder, currency: 'USD', amount: 1_23n, key: `single-${holder}` })).answer).toEqual(single.answer);
  });

  it('a first use opens the account in a second attempt; a refusal or a used key moves nothing', async () => {
    const holder = await newCustomer(db, blue);
    const counting = countingTransactions();
    const quick = autoKeyed(ledgerOn(counting.handle, systemClock));
    // the wallet does not exist yet: the first attempt finds it missing, the second creates it
    await quick.recharge({ merchantId: blue, accountId: holder, currency: 'USD', amount: 1_00n });
    expect(counting.opened()).toBe(2);
    expect(await refusalOf(quick.deduct({ merchantId: blue, accountId: holder, currency: 'USD', amount: 1_01n }))).toBe(ErrorCode.INSUFFICIENT_FUNDS);
    await books.recharge({ merchantId: blue, accountId: holder, currency: 'USD', amount: 1_00n, key: `used-${holder}` });
    expect((await quick.recharge({ merchantId: blue, accountId: holder, currency: 'USD', amount: 1_00n, key: `used-${holder}` })).replayed).toBe(true);
    expect(counting.opened()).toBe(4);
    expect(await wallet(holder)).toEqual({ balance: 2_00n, held: 0n });
  });
});

describe('idempotency keys', () => {
  it('the same key and request answer the first result and move nothing again', async () => {
    const holder = await fundedCustomer(10_00n);
    const request = { merchantId: blue, accountId: holder, currency: 'USD' as const, amount: 2_50n, key: `deduct-${holder}` };
    const first = await books.deduct(request);
    const between = await booksSnapshot(db);
    const again = await books.deduct(request);
    expect(again.replayed).toBe(true);
    expect(again.answer).toEqual(first.answer);
    expect(await booksSnapshot(db)).toBe(between);
    expect(await wallet(holder)).toEqual({ balance: 7_50n, held: 0n });
  });

  it('the same key with another request is a conflict (1006) and moves nothing', async () => {
    const holder = await fundedCustomer(10_00n);
    const key = `conflict-${holder}`;
    await books.deduct({ merchantId: blue, accountId: holder, currency: 'USD', amount: 1_00n, key });
    await expectRefused(() => books.deduct({ merchantId: blue, accountId: holder, currency: 'USD', amount: 1_01n, key }), ErrorCode.IDEMPOTENCY_CONFLICT);
    await expectRefused(() => books.recharge({ merchantId: blue, accountId: holder, currency: 'USD', amount: 1_00n, key }), ErrorCode.IDEMPOTENCY_CONFLICT);
    await expectRefused(() => books.deduct({ merchantId: blue, accountId: holder, currency: 'CNY', amount: 1_00n, key }), ErrorCode.IDEMPOTENCY_CONFLICT);
  });

  it('a key belongs to one merchant: the same key at another merchant is another request', async () => {
    const atBlue = await newCustomer(db, blue);
    const atOrange = await newCustomer(db, orange);
    const key = `shared-${randomUUID()}`;
    const one = await books.recharge({ merchantId: blue, accountId: atBlue, currency: 'USD', amount: 1_00n, key });
    const two = await books.recharge({ merchantId: orange, accountId: atOrange, currency: 'USD', amount: 2_00n, key });
    expect(two.replayed).toBe(false);
    expect(two.answer.transactionId).not.toBe(one.answer.transactionId);
    expect(await wallet(atOrange, 'USD', orange)).toEqual({ balance: 2_00n, held: 0n });
  });

  it('a refused request leaves its key unused, so the same request may succeed later', async () => {
    const holder = await fundedCustomer(1_00n);
    const request = { merchantId: blue, accountId: holder, currency: 'USD' as const, amount: 3_00n, key: `later-${holder}` };
    await expectRefused(() => books.deduct(request), ErrorCode.INSUFFICIENT_FUNDS);
    await books.recharge({ merchantId: blue, accountId: holder, currency: 'USD', amount: 5_00n });
    const done = await books.deduct(request);
    expect(done.replayed).toBe(false);
    expect(await wallet(holder)).toEqual({ balance: 3_00n, held: 0n });
  });

  it('holds, their posting and their release replay too', async () => {
    const holder = await fundedCustomer(10_00n);
    const hold = { merchantId: blue, accountId: holder, currency: 'USD' as const, amount: 4_00n, key: `hold-${holder}` };
    const first = await books.holdFunds(hold);
    const second = await books.holdFunds(hold);
    expect(second).toEqual({ answer: first.answer, replayed: true });
    expect(await wallet(holder)).toEqual({ balance: 10_00n, held: 4_00n });
    const holdId = first.answer.holdId as string;
    const release = { merchantId: blue, holdId, key: `release-${holder}` };
    const released = await books.releaseHold(release);
    expect((await books.releaseHold(release)).answer).toEqual(released.answer);
    expect(await wallet(holder)).toEqual({ balance: 10_00n, held: 0n });
  });

  it('every operation carries a key: one without is refused', async () => {
    const holder = await fundedCustomer(1_00n);
    const raw = ledgerOn(db, systemClock);
    const before = await booksSnapshot(db);
    const request = { merchantId: blue, accountId: holder, currency: 'USD' as const, amount: 1n };
    expect(await refusalOf(raw.deduct(request as Parameters<typeof raw.deduct>[0]))).toBe(ErrorCode.VALIDATION);
    expect(await refusalOf(raw.holdFunds(request as Parameters<typeof raw.holdFunds>[0]))).toBe(ErrorCode.VALIDATION);
    expect(await booksSnapshot(db)).toBe(before);
  });

  it('refuses a key that is empty, too long or has spaces', async () => {
    const holder = await fundedCustomer(1_00n);
    for (const key of ['', 'a b', 'x'.repeat(201), '钥匙']) {
      expect(await refusalOf(books.recharge({ merchantId: blue, accountId: holder, currency: 'USD', amount: 1n, key }))).toBe(ErrorCode.VALIDATION);
    }
  });
});

describe('holds: money held for an operation in flight', () => {
  it('a hold moves money from available to held; the balance stays', async () => {
    const holder = await fundedCustomer(10_00n);
    const { answer } = await books.holdFunds({ merchantId: blue, accountId: holder, currency: 'USD', amount: 6_00n, reference: 'batch:1' });
    expect(answer.accounts).toEqual([{ kind: 'WALLET', ownerId: holder, holderId: holder, balance: '10.00', held: '6.00', available: '4.00' }]);
    expect(answer.transactionId).toBeNull();
    await expectRefused(() => books.deduct({ merchantId: blue, accountId: holder, currency: 'USD', amount: 4_01n }), ErrorCode.INSUFFICIENT_FUNDS);
    await expectRefused(() => books.holdFunds({ merchantId: blue, accountId: holder, currency: 'USD', amount: 4_01n }), ErrorCode.INSUFFICIENT_FUNDS);
    await expectSoundBooks(db);
  });

  it('a hold split in parts takes all of them or none, and each part is settled on its own', async () => {
    const holder = await fundedCustomer(10_00n);
    const base = { merchantId: blue, accountId: holder, currency: 'USD' as const };
    // the parts must add up to the amount, and be amounts
    expect(await refusalOf(books.holdFunds({ ...base, amount: 5_00n, parts: [2_00n, 2_00n] }))).toBe(ErrorCode.AMOUNT_INVALID);
    expect(await refusalOf(books.holdFunds({ ...base, amount: 5_00n, parts: [5_00n, 0n] }))).toBe(ErrorCode.AMOUNT_INVALID);
    expect(await refusalOf(books.holdFunds({ ...base, amount: 0n, parts: [] }))).toBe(ErrorCode.AMOUNT_INVALID);
    // the wallet must afford the whole: one part it could pay alone is not held either
    await expectRefused(() => books.holdFunds({ ...base, amount: 10_01n, parts: [1_00n, 9_01n] }), ErrorCode.INSUFFICIENT_FUNDS);
    expect(await wallet(holder)).toEqual({ balance: 10_00n, held: 0n });

    const { answer } = await books.holdFunds({ ...base, amount: 7_00n, parts: [1_50n, 5_50n], key: `parts-${holder}` });
    expect(answer.holdIds).toHaveLength(2);
    expect(answer.holdId).toBe(answer.holdIds?.[0]);
    expect(answer.accounts).toEqual([{ kind: 'WALLET', ownerId: holder, holderId: holder, balance: '10.00', held: '7.00', available: '3.00' }]);
    const rows = await query(sql`select id, amount::text as amount, status from ledger_holds where holder_id = ${holder} order by amount`);
    expect(rows).toEqual([
      { id: answer.holdIds?.[0], amount: '150', status: 'ACTIVE' },
      { id: answer.holdIds?.[1], amount: '550', status: 'ACTIVE' },
    ]);
    // the same key answers the same holds and holds nothing more
    expect((await books.holdFunds({ ...base, amount: 7_00n, parts: [1_50n, 5_50n], key: `parts-${holder}` })).answer).toEqual(answer);
    expect(await refusalOf(books.holdFunds({ ...base, amount: 7_00n, parts: [2_00n, 5_00n], key: `parts-${holder}` }))).toBe(ErrorCode.IDEMPOTENCY_CONFLICT);
    // one posted, the other released
    await books.postHold({ merchantId: blue, holdId: answer.holdIds?.[0] as string, type: 'OPEN_CARD', to: [{ account: MERCHANT_FEE_INCOME, amount: 1_50n }] });
    await books.releaseHold({ merchantId: blue, holdId: answer.holdIds?.[1] as string });
    expect(await wallet(holder)).toEqual({ balance: 8_50n, held: 0n });
    await expectSoundBooks(db);
  });

  it('posting a hold moves what it names and releases the rest, exactly once', async () => {
    const holder = await fundedCustomer(10_00n);
    const card = randomUUID();
    const { answer: hold } = await books.holdFunds({ merchantId: blue, accountId: holder, currency: 'USD', amount: 6_00n, reference: `batch:${card}` });
    const holdId = hold.holdId as string;
    const { answer } = await books.postHold({
      merchantId: blue,
      holdId,
      type: 'OPEN_CARD',
      to: [
        { account: cardAccountOf(card, holder), amount: 4_00n },
        { account: MERCHANT_FEE_INCOME, amount: 1_00n },
      ],
    });
    expect(answer).toMatchObject({ operation: 'post-hold', type: 'OPEN_CARD', amount: '5.00', holdId });
    expect(await wallet(holder)).toEqual({ balance: 5_00n, held: 0n });
    expect(await account(blue, 'USD', 'CARD', card)).toEqual({ balance: 4_00n, held: 0n });
    const [row] = await query(sql`select status, settled_transaction_id, reference from ledger_holds where id = ${holdId}`);
    expect(row).toEqual({ status: 'POSTED', settled_transaction_id: answer.transactionId, reference: `batch:${card}` });
    await expectRefused(
      () => books.postHold({ merchantId: blue, holdId, type: 'OPEN_CARD', to: [{ account: MERCHANT_FEE_INCOME, amount: 1n }] }),
      ErrorCode.HOLD_SETTLED,
    );
    await expectRefused(() => books.releaseHold({ merchantId: blue, holdId }), ErrorCode.HOLD_SETTLED);
    await expectSoundBooks(db);
  });

  it('a released hold comes back to available, once', async () => {
    const holder = await fundedCustomer(10_00n);
    const { answer } = await books.holdFunds({ merchantId: blue, accountId: holder, currency: 'USD', amount: 10_00n });
    const holdId = answer.holdId as string;
    const released = await books.releaseHold({ merchantId: blue, holdId });
    expect(released.answer.accounts[0]).toMatchObject({ held: '0.00', available: '10.00' });
    await expectRefused(() => books.releaseHold({ merchantId: blue, holdId }), ErrorCode.HOLD_SETTLED);
    await expectRefused(
      () => books.postHold({ merchantId: blue, holdId, type: 'OPEN_CARD', to: [{ account: MERCHANT_FEE_INCOME, amount: 1_00n }] }),
      ErrorCode.HOLD_SETTLED,
    );
  });

  it("an unknown hold, or another merchant's, is not found", async () => {
    const holder = await fundedCustomer(10_00n);
    const { answer } = await books.holdFunds({ merchantId: blue, accountId: holder, currency: 'USD', amount: 1_00n });
    await expectRefused(() => books.releaseHold({ merchantId: orange, holdId: answer.holdId as string }), ErrorCode.HOLD_NOT_FOUND);
    await expectRefused(() => books.releaseHold({ merchantId: blue, holdId: randomUUID() }), ErrorCode.HOLD_NOT_FOUND);
  });

  it('posting more than the hold is a programming error and writes nothing', async () => {
    const holder = await fundedCustomer(10_00n);
    const { answer } = await books.holdFunds({ merchantId: blue, accountId: holder, currency: 'USD', amount: 1_00n });
    const before = await booksSnapshot(db);
    await expect(
      books.postHold({ merchantId: blue, holdId: answer.holdId as string, type: 'OPEN_CARD', to: [{ account: MERCHANT_FEE_INCOME, amount: 1_01n }] }),
    ).rejects.toThrow(RangeError);
    expect(await booksSnapshot(db)).toBe(before);
  });
});

describe('a frozen wallet: nothing leaves it', () => {
  it('refuses every way out, allows money in, held money back and the posting of a hold taken before, until unfrozen', async () => {
    const holder = await fundedCustomer(20_00n);
    const card = randomUUID();
    await books.transferToCard({ merchantId: blue, accountId: holder, cardId: card, currency: 'USD', amount: 5_00n });
    const { answer: hold } = await books.holdFunds({ merchantId: blue, accountId: holder, currency: 'USD', amount: 2_00n });
    const { answer: secondHold } = await books.holdFunds({ merchantId: blue, accountId: holder, currency: 'USD', amount: 1_00n });
    expect(await wallets.freeze({ merchantId: blue, accountId: holder, reason: '风控审核' })).toBe(true);

    const base = { merchantId: blue, accountId: holder, currency: 'USD' as const, amount: 1_00n };
    await expectRefused(() => books.deduct(base), ErrorCode.WALLET_FROZEN);
    await expectRefused(() => books.adjustOut(base), ErrorCode.WALLET_FROZEN);
    await expectRefused(() => books.holdFunds(base), ErrorCode.WALLET_FROZEN);
    await expectRefused(() => books.chargeFee({ ...base, type: 'OPEN_CARD' }), ErrorCode.WALLET_FROZEN);
    await expectRefused(() => books.transferToCard({ ...base, cardId: card }), ErrorCode.WALLET_FROZEN);

    await books.recharge(base);
    await books.transferFromCard({ ...base, cardId: card });
    await books.releaseHold({ merchantId: blue, holdId: secondHold.holdId as string });
    expect(await wallet(holder)).toEqual({ balance: 17_00n, held: 2_00n });
    // money held before the freeze completes the operation it was held for (a card issued after it)
    await books.postHold({ merchantId: blue, holdId: hold.holdId as string, type: 'OPEN_CARD', to: [{ account: MERCHANT_FEE_INCOME, amount: 2_00n }] });
    expect(await wallet(holder)).toEqual({ balance: 15_00n, held: 0n });

    expect(await wallets.unfreeze({ merchantId: blue, accountId: holder })).toBe(true);
    await books.deduct(base);
    expect(await wallet(holder)).toEqual({ balance: 14_00n, held: 0n });
    await expectSoundBooks(db);
  });

  it('freezing sends one FREEZE station message; freezing again sends none, and unfreezing tells the customer too', async () => {
    const holder = await newCustomer(db, blue);
    const messages = async () =>
      query(sql`select type, title, content from station_messages where account_id = ${holder} order by created_at, id`);
    expect(await wallets.freeze({ merchantId: blue, accountId: holder, reason: '<b>可疑交易</b>' })).toBe(true);
    expect(await wallets.freeze({ merchantId: blue, accountId: holder, reason: '再次' })).toBe(false);
    const frozen = await messages();
    expect(frozen).toHaveLength(1);
    expect(frozen[0]).toMatchObject({ type: 'FREEZE', title: '钱包已冻结' });
    expect(frozen[0]?.content).toContain('原因：&lt;b&gt;可疑交易&lt;/b&gt;');
    expect(await wallets.unfreeze({ merchantId: blue, accountId: holder })).toBe(true);
    expect(await wallets.unfreeze({ merchantId: blue, accountId: holder })).toBe(false);
    expect((await messages()).map((m) => [m.type, m.title])).toEqual([
      ['FREEZE', '钱包已冻结'],
      ['FREEZE', '钱包已解冻'],
    ]);
  });

  it("does not freeze another merchant's customer", async () => {
    const foreigner = await newCustomer(db, orange);
    await wallets.freeze({ merchantId: orange, accountId: foreigner, reason: '' });
    expect(await wallets.freeze({ merchantId: blue, accountId: foreigner, reason: '' })).toBe(false);
    expect(await wallets.unfreeze({ merchantId: blue, accountId: foreigner })).toBe(false);
    const [row] = await query(sql`select status, merchant_id from wallets where account_id = ${foreigner}`);
    expect(row).toEqual({ status: 'BALANCE_STATUS_FROZEN', merchant_id: orange });
  });
});

describe('corrections are reversing transactions', () => {
  it('a reversal posts the opposite of each posting, once, and refers to the original', async () => {
    const holder = await newCustomer(db, blue);
    const { answer } = await books.recharge({ merchantId: blue, accountId: holder, currency: 'CNY', amount: 88_00n, reference: 'ops:r1' });
    const reversal = await books.reverse({ merchantId: blue, transactionId: answer.transactionId as string, memo: '误充值' });
    expect(reversal.answer).toMatchObject({ operation: 'reverse', type: 'ADMIN_RECHARGE_IN', amount: '88.00' });
    expect(await wallet(holder, 'CNY')).toEqual({ balance: 0n, held: 0n });
    const [row] = await query(sql`select reverses_id, reference, memo from ledger_transactions where id = ${reversal.answer.transactionId}`);
    expect(row).toEqual({ reverses_id: answer.transactionId, reference: 'ops:r1', memo: '误充值' });
    await expectRefused(() => books.reverse({ merchantId: blue, transactionId: answer.transactionId as string }), ErrorCode.ALREADY_REVERSED);
    await expectRefused(() => books.reverse({ merchantId: blue, transactionId: reversal.answer.transactionId as string }), ErrorCode.ALREADY_REVERSED);
    await expectSoundBooks(db);
  });

  it('a reversal that would take a customer below zero is refused', async () => {
    const holder = await newCustomer(db, blue);
    const { answer } = await books.recharge({ merchantId: blue, accountId: holder, currency: 'USD', amount: 10_00n });
    await books.deduct({ merchantId: blue, accountId: holder, currency: 'USD', amount: 6_00n });
    await expectRefused(() => books.reverse({ merchantId: blue, transactionId: answer.transactionId as string }), ErrorCode.INSUFFICIENT_FUNDS);
  });

  it("an unknown transaction, or another merchant's, is not found", async () => {
    const holder = await fundedCustomer(1_00n, 'USD', orange);
    const [row] = await query(sql`select id from ledger_transactions where holder_id = ${holder}`);
    await expectRefused(() => books.reverse({ merchantId: blue, transactionId: row?.id as string }), ErrorCode.LEDGER_TRANSACTION_NOT_FOUND);
    await expectRefused(() => books.reverse({ merchantId: blue, transactionId: randomUUID() }), ErrorCode.LEDGER_TRANSACTION_NOT_FOUND);
  });
});

describe('the database guards the books too', () => {
  it('postings and transactions cannot be changed or deleted', async () => {
    await fundedCustomer(1_00n);
    await expect(db.execute(sql`update ledger_postings set amount = amount + 1`)).rejects.toThrow();
    await expect(db.execute(sql`delete from ledger_postings`)).rejects.toThrow();
    await expect(db.execute(sql`update ledger_transactions set memo = 'x'`)).rejects.toThrow();
    await expect(db.execute(sql`delete from ledger_transactions`)).rejects.toThrow();
    await expectSoundBooks(db);
  });

  it("a customer's account cannot be written below zero available", async () => {
    const holder = await fundedCustomer(1_00n);
    await expect(db.execute(sql`update ledger_accounts set held = balance + 1 where owner_id = ${holder}`)).rejects.toThrow();
    await expect(db.execute(sql`update ledger_accounts set held = -1 where owner_id = ${holder}`)).rejects.toThrow();
  });

  it('the audit finds a balance that does not match its postings', async () => {
    const holder = await fundedCustomer(1_00n);
    const before = await booksOn(db, systemClock).audit();
    expect(before.violations).toEqual([]);
    await db.execute(sql`update ledger_accounts set balance = balance + 1 where owner_id = ${holder} and kind = 'WALLET'`);
    try {
      const after = await booksOn(db, systemClock).audit();
      expect(after.violations.map((v) => v.rule)).toEqual(
        expect.arrayContaining(['every currency sums to zero', 'each balance equals the sum of its postings', "each account's last posting shows its balance"]),
      );
    } finally {
      await db.execute(sql`update ledger_accounts set balance = balance - 1 where owner_id = ${holder} and kind = 'WALLET'`);
    }
    await expectSoundBooks(db);
  });
});

describe('the demo wallets', () => {
  it('are funded at seeding with 1000.00 USD and 5000.00 CNY each, as balanced recharges, then pay for the demo cards', async () => {
    const rows = await query(sql`
      select m.slug, la.currency, la.balance::text as balance from ledger_accounts la join merchants m on m.id = la.merchant_id
      join members a on a.account_id = la.owner_id and a.role = 'OWNER' where la.kind = 'WALLET' and a.phone = '13800138000' order by m.slug, la.currency`);
    expect(rows).toHaveLength(10);
    // the two demo cards cost 208.00 (5.00 + 200.00 + 3.00), a top-up 101.50 and 52.80 (2.00 + 50.00 + 0.80)
    for (const row of rows) expect(row.balance).toBe(row.currency === 'USD' ? '63770' : '500000');
    const recharges = await query(sql`
      select la.currency, sum(p.amount)::text as amount from ledger_postings p join ledger_accounts la on la.id = p.ledger_account_id
      join ledger_transactions tr on tr.id = p.transaction_id join members a on a.account_id = la.owner_id and a.role = 'OWNER'
      where la.kind = 'WALLET' and a.phone = '13800138000' and tr.type = 'ADMIN_RECHARGE_IN' group by la.currency order by la.currency`);
    expect(recharges).toEqual([
      { currency: 'CNY', amount: '2500000' },
      { currency: 'USD', amount: '500000' },
    ]);
    await expectSoundBooks(db);
  });
});
