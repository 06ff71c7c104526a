import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { DepositInstructions, DepositItem, DepositPage } from '@portal/contract/funding';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from '../helpers/accounts.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { booksSnapshot, expectSoundBooks } from '../helpers/ledger.ts';
import { runOpsOn } from '../helpers/ops.ts';
import { queryRows } from '../helpers/sql.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const ops = (...argv: string[]) => runOpsOn(t.database, argv);

async function customer() {
  const who = await signUp(t, 'localhost');
  const api = t.api('localhost', who.token);
  const info = await api.data<{ id: string }>('GET', '/account/info');
  const reference = (await api.data<DepositInstructions>('GET', '/wallet/deposit-instructions', { query: { currency: 'USD' } })).reference;
  return { ...who, api, accountId: info.id, reference };
}
type Customer = Awaited<ReturnType<typeof customer>>;

const available = async (who: Customer) =>
  (await who.api.data<Array<{ currency: string; available: string }>>('GET', '/balance/account-balance')).find((row) => row.currency === 'USD')?.available;
const mailsTo = async (who: Customer) => (await t.api().get('/api/dev/outbox', { query: { to: who.email, limit: 50 } })).body as Array<{ subject?: string }>;
const lineRow = async (bankTxnId: string) =>
  (await queryRows<{ status: string; credited_by: string | null; credited: boolean; deposit_id: string | null }>(
    t.database.db,
    sql`select status, credited_by, credited_at is not null as credited, deposit_id from deposit_statement_lines where bank_txn_id = ${bankTxnId}`,
  ))[0];

describe('deposit:credit-line', () => {
  it('credits an unmatched line to the account named once, records who and when, and refuses it again, an unknown line or another currency', async () => {
    const a = await customer();
    const b = await customer();
    const id = `line-${Date.now().toString(36)}`;
    const file = path.join(t.dataDir, `${id}.csv`);
    await writeFile(file, ['bank_txn_id,date,amount,currency,payer,memo', `${id}-1,2026-03-05,12.34,USD,"李四, 个人",忘了写参考号`, `${id}-2,2026-03-05,8.00,USD,王五,"附言 ""无"""`].join('\n'));
    const imported = await ops('deposit:import', file, '--host', 'localhost', '--currency', 'USD');
    expect(imported.stdout).toMatch(/Unmatched \(2\)/);
    expect((await ops('deposit:list', '--host', 'localhost')).stdout).toContain(`${id}-1`);

    const before = await booksSnapshot(t.database.db);
    const unknown = await ops('deposit:credit-line', '--host', 'localhost', '--line', `${id}-9`, '--account', a.phone);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('银行流水不存在');
    const currency = await ops('deposit:credit-line', '--host', 'localhost', '--line', `${id}-1`, '--account', a.phone, '--currency', 'CNY');
    expect(currency.code).toBe(1);
    expect(currency.stderr).toContain('币种不符：该笔银行流水为 USD');
    const nobody = await ops('deposit:credit-line', '--host', 'localhost', '--line', `${id}-1`, '--account', 'TPZZZZZZZZ');
    expect(nobody.code).toBe(1);
    expect(nobody.stderr).toContain('未找到该客户账户');
    expect(await booksSnapshot(t.database.db)).toBe(before);
    expect((await lineRow(`${id}-1`))?.status).toBe('UNMATCHED');

    const run = await ops('deposit:credit-line', '--host', 'localhost', '--line', `${id}-1`, '--account', a.phone, '--currency', 'USD', '--by', '王会计');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^Credited 12\.34 USD to the wallet of TP\w{8} at merchant blue:/);
    expect(await available(a)).toBe('12.34');
    expect(await lineRow(`${id}-1`)).toMatchObject({ status: 'MATCHED', credited_by: '王会计', credited: true });
    const [item] = (await a.api.data<DepositPage>('GET', '/wallet/deposits')).items as DepositItem[];
    expect(item).toMatchObject({ status: 'CREDITED', source: 'STATEMENT', payer_name: '李四, 个人', amount: '12.34' });
    expect((await mailsTo(a)).filter((mail) => mail.subject?.includes('充值已到账 12.34 USD'))).toHaveLength(1);
    const [key] = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from ledger_idempotency_keys where key = ${`bank:${id}-1`}`);
    expect(key?.n).toBe(1);

    // by its reference code, any case
    const byReference = await ops('deposit:credit-line', '--host', 'localhost', '--line', `${id}-2`, '--account', b.reference.toLowerCase());
    expect(byReference.code, byReference.stderr).toBe(0);
    expect(await available(b)).toBe('8.00');

    const credited = await booksSnapshot(t.database.db);
    const again = await ops('deposit:credit-line', '--host', 'localhost', '--line', `${id}-1`, '--account', b.phone);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('该笔银行流水已入账，不能重复入账');
    const reimport = await ops('deposit:import', file, '--host', 'localhost', '--currency', 'USD');
    expect(reimport.stdout).toMatch(/已导入 \(2\)/);
    expect(await booksSnapshot(t.database.db)).toBe(credited);
    expect(await available(a)).toBe('12.34');
    expect((await ops('deposit:list', '--host', 'localhost')).stdout).not.toContain(`${id}-1`);
    await expectSoundBooks(t.database.db);
  });
});

describe("a credit's e-mail", () => {
  async function creditedDeposit(amount: string) {
    const who = await customer();
    const filed = await who.api.post<DepositItem>('/wallet/deposits', { currency: 'USD', amount, payer_name: '赵六', transferred_at: new Date(Date.now() - 60_000).toISOString() });
    expect((await ops('deposit:confirm', '--host', 'localhost', '--id', filed.data.id)).code).toBe(0);
    const sent = (await mailsTo(who)).filter((mail) => mail.subject?.includes(`充值已到账 ${amount} USD`)).length;
    expect(sent).toBe(1);
    return { who, id: filed.data.id };
  }
  const mailedAt = async (id: string) => (await queryRows<{ mailed: boolean }>(t.database.db, sql`select mailed_at is not null as mailed from deposits where id = ${id}`))[0]?.mailed;

  it('left claimed by a sender that stopped before sending is sent by the next round, once', async () => {
    const { who, id } = await creditedDeposit('21.00');
    // what a sender that died between its claim and its send leaves: a claim of ten minutes ago, nothing mailed
    await t.database.db.execute(sql`update deposits set mailed_at = null, mail_claimed_at = now() - interval '10 minutes' where id = ${id}`);
    expect(await t.services.funding.deliverMails()).toBeGreaterThanOrEqual(1);
    expect(await mailedAt(id)).toBe(true);
    await t.services.funding.deliverMails();
    expect((await mailsTo(who)).filter((mail) => mail.subject?.includes('充值已到账 21.00 USD'))).toHaveLength(2);
  });

  it('claimed by a sender at work is not sent by another', async () => {
    const { who, id } = await creditedDeposit('22.00');
    await t.database.db.execute(sql`update deposits set mailed_at = null, mail_claimed_at = now() where id = ${id}`);
    await t.services.funding.deliverMails();
    expect(await mailedAt(id)).toBe(false);
    expect((await mailsTo(who)).filter((mail) => mail.subject?.includes('充值已到账 22.00 USD'))).toHaveLength(1);
  });
});
