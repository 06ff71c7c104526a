import { ErrorCode } from '@portal/contract/errors';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/engine.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { type LedgerService, MERCHANT_FEE_INCOME, walletOf } from '../../src/modules/ledger/service.ts';
import type { WalletService } from '../../src/modules/wallet/service.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { booksSnapshot, expectSoundBooks, ledgerOn, merchantOf, newCustomer, walletOn } from '../helpers/ledger.ts';
import { queryRows } from '../helpers/sql.ts';

let t: TestApp;
let db: Db;
let ledger: LedgerService;
let wallets: WalletService;
let blue: string;

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.db;
  ledger = ledgerOn(db, systemClock);
  wallets = walletOn(db, systemClock);
  blue = (await merchantOf(db, 'localhost')).id;
});
afterAll(() => t.close());

const balanceOf = async (holder: string) =>
  BigInt((await queryRows<{ b: string }>(db, sql`select coalesce(sum(balance), 0)::text as b from ledger_accounts where kind = 'WALLET' and holder_id = ${holder}`))[0]?.b ?? '0');
const fee = (holder: string, key: string, amount: bigint) => ({
  merchantId: blue,
  key,
  currency: 'USD' as const,
  type: 'DECLINED_FEE',
  holderId: holder,
  lines: [
    { account: walletOf(holder), amount: -amount },
    { account: MERCHANT_FEE_INCOME, amount },
  ],
});

describe("the ledger's batch of transfers (transferMany, rechargeMany)", () => {
  it('applies each in order under its own key, refuses one that would overdraw or leave a frozen wallet alone, and replays a key', async () => {
    const [a, b, frozen] = [await newCustomer(db, blue), await newCustomer(db, blue), await newCustomer(db, blue)];
    const id = Date.now().toString(36);
    const money = (holder: string, key: string, amount: bigint) => ({ merchantId: blue, accountId: holder, currency: 'USD' as const, amount, key: `${id}-${key}` });
    // accounts that do not exist yet are made on the way
    const first = await db.transaction((tx) => ledger.rechargeMany(tx, [money(a, 'a1', 10_00n), money(b, 'b1', 5_00n), money(a, 'a2', 2_50n), money(frozen, 'f1', 3_00n)]));
    expect(first.map((o) => o.result?.replayed)).toEqual([false, false, false, false]);
    expect(first[2]?.result?.answer.accounts[0]).toMatchObject({ kind: 'WALLET', balance: '12.50', available: '12.50' });
    expect(await balanceOf(a)).toBe(12_50n);
    expect(await wallets.freeze({ merchantId: blue, accountId: frozen, reason: '风控审核' })).toBe(true);

    const before = await booksSnapshot(db);
    const second = await db.transaction((tx) =>
      ledger.transferMany(tx, [
        fee(a, `${id}-fee1`, 12_00n),
        fee(a, `${id}-fee2`, 1_00n), // only 0.50 is left after the first
        fee(frozen, `${id}-fee3`, 1_00n),
        fee(b, `${id}-fee4`, 5_00n),
      ]),
    );
    expect(second.map((o) => o.refused?.code ?? 'ok')).toEqual(['ok', ErrorCode.INSUFFICIENT_FUNDS, ErrorCode.WALLET_FROZEN, 'ok']);
    expect(second[1]?.refused?.data).toMatchObject({ available: '0.50' });
    expect(await balanceOf(a)).toBe(50n);
    expect(await balanceOf(b)).toBe(0n);
    expect(await booksSnapshot(db)).not.toBe(before);
    // the refused ones left their keys unused: the same request goes through once there is money
    const keys = await queryRows<{ key: string }>(db, sql`select key from ledger_idempotency_keys where key in (${`${id}-fee2`}, ${`${id}-fee3`})`);
    expect(keys).toEqual([]);

    // again: the done ones answer their first result and move nothing; another request under a used key is a conflict
    const settled = await booksSnapshot(db);
    const again = await db.transaction((tx) => ledger.transferMany(tx, [fee(a, `${id}-fee1`, 12_00n), fee(b, `${id}-fee4`, 4_00n)]));
    expect(again[0]?.result).toMatchObject({ replayed: true, answer: { transactionId: second[0]?.result?.answer.transactionId } });
    expect(again[1]?.refused?.code).toBe(ErrorCode.IDEMPOTENCY_CONFLICT);
    expect(await booksSnapshot(db)).toBe(settled);
    await expectSoundBooks(db);
  });

  it("writes each account's postings in the order they happened, balance_after following one another", async () => {
    const holder = await newCustomer(db, blue);
    const id = `seq-${Date.now().toString(36)}`;
    const requests = Array.from({ length: 40 }, (_, n) => ({ merchantId: blue, accountId: holder, currency: 'USD' as const, amount: BigInt(n + 1), key: `${id}-${n}` }));
    await db.transaction((tx) => ledger.rechargeMany(tx, requests));
    const afters = await queryRows<{ after: string }>(
      db,
      sql`select p.balance_after::text as after from ledger_postings p join ledger_accounts la on la.id = p.ledger_account_id where la.kind = 'WALLET' and la.holder_id = ${holder} order by p.id`,
    );
    expect(afters.map((row) => BigInt(row.after))).toEqual(requests.map((_, n) => BigInt(((n + 1) * (n + 2)) / 2)));
    await expectSoundBooks(db);
  });
});
