import type { BalanceStatusAnswer, WalletTransactionPage } from '@portal/contract/wallet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from '../helpers/accounts.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { booksSnapshot, expectSoundBooks } from '../helpers/ledger.ts';
import { expectOpsRefused, runOpsOn } from '../helpers/ops.ts';
import { openEventStream } from '../helpers/sse.ts';

let database: TestDatabase;
let t: TestApp;
let base: string;
beforeAll(async () => {
  database = await createTestDatabase();
  // a listening app on the same database, as a running server would be, to see what customers see
  t = await createTestApp({ database });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
});
afterAll(async () => {
  await t?.close();
  await database?.close();
});

/** `npm run ops -- ...argv`, in this process, on the test database. */
const ops = (...argv: string[]) => runOpsOn(database, argv);

/** A command that must be refused with this exit code and message, changing nothing of the books. */
const expectRefused = (argv: string[], code: 1 | 2, message: RegExp) =>
  expectOpsRefused(database, () => booksSnapshot(database.db), argv, code, message);

async function customer() {
  const who = await signUp(t);
  return { ...who, api: t.api('localhost', who.token) };
}

const balances = (api: ReturnType<TestApp['api']>) => api.data<Array<{ currency: string; available: string; anew: string }>>('GET', '/balance/account-balance');

describe('wallet:recharge, wallet:deduct, wallet:adjust', () => {
  it('recharge moves money into the wallet, says what it did, and the customer sees the row', async () => {
    const who = await customer();
    const run = await ops('wallet:recharge', '--host', 'localhost', '--account', who.phone, '--amount', '100', '--currency', 'usd', '--note', '线下转账');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^Recharged 100\\.00 USD to the wallet of ${who.phone} \\(${who.email}\\) at merchant blue:`));
    expect(run.stdout).toMatch(/type {9}ADMIN_RECHARGE_IN \(充值\)/);
    expect(run.stdout).toMatch(/available {4}100\.00 USD/);
    expect(await balances(who.api)).toContainEqual({ currency: 'USD', available: '100.00', anew: '0.00' });
    const list = await who.api.data<WalletTransactionPage>('GET', '/balance/transactions');
    expect(list.items[0]).toMatchObject({ type: 'ADMIN_RECHARGE_IN', amount: '100.00', balance_after: '100.00', memo: '线下转账', reference: 'ops' });
  });

  it('with --key, running the same command again moves nothing and prints the first result', async () => {
    const who = await customer();
    const argv = ['wallet:recharge', '--host', 'localhost', '--account', who.email, '--amount', '12.34', '--currency', 'CNY', '--key', `topup-${who.phone}`];
    const first = await ops(...argv);
    expect(first.code, first.stderr).toBe(0);
    const before = await booksSnapshot(database.db);
    const again = await ops(...argv);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^Key topup-\d+ was used before for this same request: nothing moved again\. The first result:/);
    expect(again.stdout.split('\n').slice(1)).toEqual(first.stdout.split('\n').slice(1));
    expect(await booksSnapshot(database.db)).toBe(before);
    expect(await balances(who.api)).toContainEqual({ currency: 'CNY', available: '12.34', anew: '0.00' });
    await expectRefused(
      ['wallet:recharge', '--host', 'localhost', '--account', who.email, '--amount', '12.35', '--currency', 'CNY', '--key', `topup-${who.phone}`],
      1,
      /refused: this --key was already used for a different request/,
    );
  });

  it('a deduction beyond the available balance is refused with the balance, moving nothing', async () => {
    const who = await customer();
    await ops('wallet:recharge', '--host', 'localhost', '--account', who.phone, '--amount', '30', '--currency', 'USD');
    await expectRefused(
      ['wallet:deduct', '--host', 'localhost', '--account', who.phone, '--amount', '30.01', '--currency', 'USD'],
      1,
      /refused: cannot deduct 30\.01 USD: the wallet has only 30\.00 USD available \(钱包可用余额不足（可用 30\.00 USD）\)\nNothing was changed\./,
    );
    const run = await ops('wallet:deduct', '--host', 'localhost', '--account', who.phone, '--amount', '30', '--currency', 'USD');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^Deducted 30\.00 USD from the wallet of/);
    expect(await balances(who.api)).toContainEqual({ currency: 'USD', available: '0.00', anew: '0.00' });
  });

  it('adjust takes money out as 调整转出', async () => {
    const who = await customer();
    await ops('wallet:recharge', '--host', 'localhost', '--account', who.phone, '--amount', '10', '--currency', 'USD');
    const run = await ops('wallet:adjust', '--host', 'localhost', '--account', who.phone, '--amount', '0.5', '--currency', 'USD', '--note', '手续费调整');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/type {9}ADJUST_OUT \(调整转出\)/);
    const list = await who.api.data<WalletTransactionPage>('GET', '/balance/transactions');
    expect(list.items[0]).toMatchObject({ type: 'ADJUST_OUT', amount: '-0.50', balance_after: '9.50', memo: '手续费调整' });
  });

  it('refuses bad input, saying what was expected, and changes nothing', async () => {
    const who = await customer();
    const base = ['--host', 'localhost', '--account', who.phone, '--currency', 'USD'];
    for (const amount of ['1.005', '0', '0.00', '-1', 'abc', '1e3', '10000000000000.01']) {
      await expectRefused(['wallet:recharge', ...base, `--amount=${amount}`], 1, /--amount must be|--amount is more than/);
    }
    await expectRefused(['wallet:recharge', '--host', 'localhost', '--account', who.phone, '--amount', '1', '--currency', 'EUR'], 1, /--currency must be USD or CNY, not "EUR"/);
    await expectRefused(['wallet:recharge', '--host', 'nowhere.example', '--account', who.phone, '--amount', '1', '--currency', 'USD'], 1, /no merchant has the host nowhere\.example/);
    await expectRefused(['wallet:recharge', '--host', 'localhost', '--account', '13912345678', '--amount', '1', '--currency', 'USD'], 1, /merchant blue has no account with the phone 13912345678/);
    // the same phone is another person at another merchant: it has no account there
    await expectRefused(['wallet:recharge', '--host', 'orange.localhost', '--account', who.phone, '--amount', '1', '--currency', 'USD'], 1, /merchant orange has no account/);
    await expectRefused(['wallet:recharge', '--host', 'localhost', '--account', who.phone, '--amount', '1', '--currency', 'USD', '--key', 'has space'], 1, /--key must be/);
    await expectRefused(['wallet:recharge', '--host', 'localhost', '--account', who.phone, '--currency', 'USD'], 2, /--amount is required/);
    await expectRefused(['wallet:deduct', '--host', 'localhost', '--account', who.phone, '--amount', '1', '--currency', 'USD', '--force'], 2, /unknown flag --force/);
  });
});

describe('wallet:freeze and wallet:unfreeze', () => {
  it('freezing tells the open portal at once, blocks money out, and unfreezing lets it go again', async () => {
    const who = await customer();
    await ops('wallet:recharge', '--host', 'localhost', '--account', who.phone, '--amount', '50', '--currency', 'USD');
    const tab = await openEventStream(base, 'localhost', who.token);
    try {
      await tab.next((e) => e.type === 'UNREAD_QUANTITY');
      const frozen = await ops('wallet:freeze', '--host', 'localhost', '--account', who.phone, '--reason', '账户安全审核中');
      expect(frozen.code, frozen.stderr).toBe(0);
      expect(frozen.stdout).toMatch(/^Froze the wallet of .* at merchant blue\.\n {2}reason {3}账户安全审核中/);
      expect(await tab.next((e) => e.type === 'FREEZE')).toMatchObject({ type: 'FREEZE', title: '钱包已冻结', kind: 'message' });
      expect(await who.api.data<BalanceStatusAnswer>('GET', '/balance/account-balance-status')).toMatchObject({
        status: 'BALANCE_STATUS_FROZEN',
        reason: '账户安全审核中',
      });

      await expectRefused(
        ['wallet:deduct', '--host', 'localhost', '--account', who.phone, '--amount', '1', '--currency', 'USD'],
        1,
        /refused: cannot deduct 1\.00 USD: the wallet is frozen .*run wallet:unfreeze first/,
      );
      const recharged = await ops('wallet:recharge', '--host', 'localhost', '--account', who.phone, '--amount', '1', '--currency', 'USD');
      expect(recharged.code, recharged.stderr).toBe(0);

      const from = tab.events.length;
      const again = await ops('wallet:freeze', '--host', 'localhost', '--account', who.phone);
      expect(again.code).toBe(0);
      expect(again.stdout).toMatch(/was frozen already \(since .*, reason: 账户安全审核中\); nothing changed and no message was sent\./);

      const unfrozen = await ops('wallet:unfreeze', '--host', 'localhost', '--account', who.email);
      expect(unfrozen.code, unfrozen.stderr).toBe(0);
      // the one event after the second freeze is the unfreeze: the repeated freeze sent nothing
      expect(await tab.next((e) => e.type === 'FREEZE', { from })).toMatchObject({ title: '钱包已解冻' });
      expect(tab.events.slice(from).filter((e) => e.type === 'FREEZE')).toHaveLength(1);
      expect((await who.api.data<BalanceStatusAnswer>('GET', '/balance/account-balance-status')).status).toBe('BALANCE_STATUS_AVAILABLE');
      expect((await ops('wallet:unfreeze', '--host', 'localhost', '--account', who.email)).stdout).toMatch(/was not frozen; nothing changed/);
      const deducted = await ops('wallet:deduct', '--host', 'localhost', '--account', who.phone, '--amount', '1', '--currency', 'USD');
      expect(deducted.code, deducted.stderr).toBe(0);
      expect(await balances(who.api)).toContainEqual({ currency: 'USD', available: '50.00', anew: '0.00' });
    } finally {
      tab.close();
    }
  });
});

describe('wallet:show and ledger:check', () => {
  it('shows status, balances and the newest transactions', async () => {
    const who = await customer();
    await ops('wallet:recharge', '--host', 'localhost', '--account', who.phone, '--amount', '8', '--currency', 'CNY');
    const run = await ops('wallet:show', '--host', 'localhost', '--account', who.phone);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/: BALANCE_STATUS_AVAILABLE\n/);
    expect(run.stdout).toMatch(/^CNY\s+8\.00\s+0\.00\s+0\.00$/m);
    expect(run.stdout).toMatch(/充值\s+8\.00 CNY\s+8\.00/);
    expect(run.stdout).toMatch(/1 of 1 transaction, newest first$/);
    const json = JSON.parse((await ops('wallet:show', '--host', 'localhost', '--account', who.phone, '--json')).stdout);
    expect(json.balances).toContainEqual({ currency: 'CNY', available: '8.00', anew: '0.00' });
    await expectRefused(['wallet:show', '--host', 'localhost', '--account', who.phone, '--limit', '0'], 1, /--limit must be a whole number from 1 to 100/);
  });

  it('ledger:check finds the books sound', async () => {
    const run = await ops('ledger:check');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^The books are sound: \d+ ledger accounts, \d+ transactions, \d+ postings, \d+ holds\./);
    expect(run.stdout).toMatch(/ok {2}every currency sums to zero/);
    await expectSoundBooks(database.db);
  });
});
