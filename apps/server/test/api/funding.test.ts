import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { DepositInstructions, DepositItem, DepositPage, DepositReceipt } from '@portal/contract/funding';
import { FundingErrorCode } from '@portal/contract/funding-errors';
import { TeamErrorCode } from '@portal/contract/team-errors';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastMessage, signUp } from '../helpers/accounts.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { booksSnapshot, expectSoundBooks } from '../helpers/ledger.ts';
import { runOpsOn } from '../helpers/ops.ts';
import { queryRows } from '../helpers/sql.ts';
import { joinTeam, teamOwner } from '../helpers/team.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const ops = (...argv: string[]) => runOpsOn(t.database, argv);
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 7)]);
const at = () => new Date(Date.now() - 3600_000).toISOString();

async function customer(host = 'localhost') {
  const who = await signUp(t, host);
  const api = t.api(host, who.token);
  const info = await api.data<{ id: string }>('GET', '/account/info');
  return { ...who, api, accountId: info.id };
}
type Customer = Awaited<ReturnType<typeof customer>>;

const instructions = (who: Customer, currency = 'USD') => who.api.data<DepositInstructions>('GET', '/wallet/deposit-instructions', { query: { currency } });
const notice = (who: Customer, body: Record<string, unknown>) =>
  who.api.post<DepositItem>('/wallet/deposits', { currency: 'USD', amount: '100.00', payer_name: '张三', transferred_at: at(), ...body });
const upload = (who: Customer, bytes: Buffer, type = 'image/png') =>
  t.app.inject({ method: 'POST', url: '/api/v1/wallet/deposits/receipts', headers: { host: who.api.host, authorization: `Bearer ${who.token}`, 'content-type': type }, payload: bytes });
const available = async (who: Customer, currency = 'USD') =>
  (await who.api.data<Array<{ currency: string; available: string }>>('GET', '/balance/account-balance')).find((row) => row.currency === currency)?.available;

describe('deposit instructions', () => {
  it('answer a stable reference of the account, and bank null until the operator sets the receiving account', async () => {
    const who = await customer();
    const first = await instructions(who, 'CNY');
    expect(first).toMatchObject({ currency: 'CNY', bank: null, usdt: null });
    expect(first.reference).toMatch(/^TP[2-9A-HJ-NP-Z]{8}$/);
    expect((await instructions(who, 'USD')).reference).toBe(first.reference);
    const other = await customer();
    expect((await instructions(other, 'CNY')).reference).not.toBe(first.reference);

    const set = await ops('merchant:set-deposit-account', '--host', 'localhost', '--currency', 'CNY', '--bank-name', '招商银行', '--account-name', '蓝鲸科技有限公司', '--account-number', '6225 8802 1234 5678', '--branch', '深圳分行');
    expect(set.code, set.stderr).toBe(0);
    expect((await instructions(who, 'CNY')).bank).toEqual({ name: '招商银行', account_name: '蓝鲸科技有限公司', account_number: '6225 8802 1234 5678', branch: '深圳分行', swift: null });
    expect((await instructions(who, 'USD')).bank).toBeNull();
    // another merchant's customers never see it
    const orange = await customer('orange.localhost');
    expect((await instructions(orange, 'CNY')).bank).toBeNull();
    const refused = await who.api.get('/wallet/deposit-instructions', { query: { currency: 'EUR' } });
    expect(refused.code).toBe(1001);
    expect(refused.message).toContain('请选择币种');
  });
});

describe('top-up notices and receipts', () => {
  it('files a PENDING notice with a receipt the team alone can read, listed newest first', async () => {
    const who = await customer();
    const stored = await upload(who, PNG);
    expect(stored.statusCode).toBe(200);
    const receipt = (stored.json() as { data: DepositReceipt }).data;
    expect(receipt).toMatchObject({ content_type: 'image/png', size: PNG.length });
    const filed = await notice(who, { amount: '100.5', receipt_file_id: receipt.id });
    expect(filed.code, filed.message).toBe(0);
    expect(filed.data).toMatchObject({ status: 'PENDING', amount: '100.50', payer_name: '张三', receipt_file_id: receipt.id, kind: 'BANK', source: 'NOTICE', confirmations: null });
    const image = await t.app.inject({ method: 'GET', url: `/api/v1/wallet/deposits/receipts/${receipt.id}`, headers: { host: 'localhost', authorization: `Bearer ${who.token}` } });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.rawPayload.equals(PNG)).toBe(true);
    const files = await queryRows<{ file_name: string }>(t.database.db, sql`select file_name from deposit_receipts where id = ${receipt.id}`);
    expect(files[0]?.file_name).toMatch(/^[0-9a-f-]{36}\.png$/);

    // another account, of this merchant or another, neither reads nor uses it
    const other = await customer();
    const theirs = await other.api.get(`/wallet/deposits/receipts/${receipt.id}`);
    expect(theirs.code).toBe(FundingErrorCode.RECEIPT_NOT_FOUND);
    expect((await notice(other, { receipt_file_id: receipt.id })).code).toBe(FundingErrorCode.RECEIPT_NOT_FOUND);
    const orange = await customer('orange.localhost');
    expect((await orange.api.get(`/wallet/deposits/receipts/${receipt.id}`)).code).toBe(FundingErrorCode.RECEIPT_NOT_FOUND);
    expect((await other.api.data<DepositPage>('GET', '/wallet/deposits')).total).toBe(0);
    // a receipt serves one notice
    expect((await notice(who, { receipt_file_id: receipt.id })).code).toBe(FundingErrorCode.RECEIPT_USED);

    await notice(who, { amount: '7', payer_name: '李四' });
    const page = await who.api.data<DepositPage>('GET', '/wallet/deposits', { query: { page: 1, page_size: 10 } });
    expect(page.total).toBe(2);
    expect(page.items.map((item) => item.amount)).toEqual(['7.00', '100.50']);
  });

  it('refuses receipts of another kind or above 5 MB, and bad notices, storing nothing', async () => {
    const who = await customer();
    const text = await upload(who, Buffer.from('not an image at all'), 'image/png');
    expect(text.json()).toMatchObject({ code: FundingErrorCode.RECEIPT_TYPE, message: '凭证只能是 PNG、JPEG、WebP 或 GIF 图片' });
    const pdf = await upload(who, Buffer.from('%PDF-1.4 ...'), 'application/pdf');
    expect(pdf.json()).toMatchObject({ code: FundingErrorCode.RECEIPT_TYPE });
    const big = await upload(who, Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]));
    expect(big.json()).toMatchObject({ code: FundingErrorCode.RECEIPT_TOO_LARGE, message: '凭证图片不能超过5MB' });
    const jpeg = await upload(who, Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]), 'image/jpeg');
    expect(jpeg.statusCode).toBe(200);
    const rows = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from deposit_receipts where account_id = ${who.accountId}`);
    expect(rows[0]?.n).toBe(1);

    const cases: Array<[Record<string, unknown>, string]> = [
      [{ amount: '0' }, '充值金额须大于0'],
      [{ amount: '1.234' }, '充值金额须大于0'],
      [{ amount: '-5' }, '充值金额须大于0'],
      [{ amount: '' }, '请输入充值金额'],
      [{ payer_name: ' ' }, '请输入付款人名称'],
      [{ transferred_at: 'yesterday' }, '转账时间格式不正确'],
      [{ currency: 'EUR' }, '请选择币种'],
    ];
    for (const [body, message] of cases) {
      const answer = await notice(who, body);
      expect(answer.code, JSON.stringify(body)).toBe(1001);
      expect(answer.message).toContain(message);
    }
    const future = await notice(who, { transferred_at: new Date(Date.now() + 86400_000).toISOString() });
    expect(future).toMatchObject({ code: FundingErrorCode.TRANSFER_TIME_FUTURE, message: '转账时间不能晚于当前时间' });
    expect((await who.api.data<DepositPage>('GET', '/wallet/deposits')).total).toBe(0);
  });

  it('lets FINANCE file, VIEWER read, and refuses MEMBER both', async () => {
    const owner = await teamOwner(t);
    const finance = await joinTeam(t, owner, 'FINANCE');
    const viewer = await joinTeam(t, owner, 'VIEWER');
    const member = await joinTeam(t, owner, 'MEMBER', '10.00');
    const body = { currency: 'USD', amount: '5.00', payer_name: '王五', transferred_at: at() };
    expect((await finance.api.post('/wallet/deposits', body)).code).toBe(0);
    expect((await viewer.api.post('/wallet/deposits', body)).code).toBe(TeamErrorCode.PERMISSION_DENIED);
    expect((await viewer.api.data<DepositPage>('GET', '/wallet/deposits')).total).toBe(1);
    expect((await member.api.get('/wallet/deposits')).code).toBe(TeamErrorCode.PERMISSION_DENIED);
    expect((await member.api.get('/wallet/deposit-instructions', { query: { currency: 'USD' } })).code).toBe(TeamErrorCode.PERMISSION_DENIED);
  });
});

describe('the operator credits or rejects a notice', () => {
  it('deposit:confirm credits once, with a message and an e-mail; again it moves nothing', async () => {
    const who = await customer();
    const filed = (await notice(who, { amount: '250.00' })).data;
    const run = await ops('deposit:confirm', '--host', 'localhost', '--id', filed.id);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^Credited 250\.00 USD to the wallet at merchant blue:/);
    expect(await available(who)).toBe('250.00');
    const before = await booksSnapshot(t.database.db);
    const again = await ops('deposit:confirm', '--host', 'localhost', '--id', filed.id);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^The notice was credited before: nothing moved again\./);
    expect(await booksSnapshot(t.database.db)).toBe(before);
    const [item] = (await who.api.data<DepositPage>('GET', '/wallet/deposits')).items;
    expect(item).toMatchObject({ status: 'CREDITED', credited_amount: '250.00' });
    const mail = await lastMessage(t, who.email);
    expect(mail.subject).toContain('充值已到账 250.00 USD');
    const messages = await who.api.data<{ items: Array<{ title: string }> }>('GET', '/msg-center/station-msg/list', { query: { page: 1, page_size: 5 } });
    expect(messages.items.map((m) => m.title)).toContain('充值已到账');
    // a notice of another merchant is none of this host's
    const orange = await customer('orange.localhost');
    const theirs = (await notice(orange, {})).data;
    const refused = await ops('deposit:confirm', '--host', 'localhost', '--id', theirs.id);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('充值通知不存在');
    await expectSoundBooks(t.database.db);
  });

  it('deposit:reject rejects with the reason; a rejected notice is never credited', async () => {
    const who = await customer();
    const filed = (await notice(who, {})).data;
    const run = await ops('deposit:reject', '--host', 'localhost', '--id', filed.id, '--reason', '未查到该笔转账');
    expect(run.code, run.stderr).toBe(0);
    const [item] = (await who.api.data<DepositPage>('GET', '/wallet/deposits')).items;
    expect(item).toMatchObject({ status: 'REJECTED', reason: '未查到该笔转账' });
    const confirm = await ops('deposit:confirm', '--host', 'localhost', '--id', filed.id);
    expect(confirm.code).toBe(1);
    expect(confirm.stderr).toContain('该充值通知已处理');
    expect(await available(who)).toBe('0.00');
  });
});

describe('deposit:import', () => {
  it('credits each line whose memo holds a reference once, lists the rest, and a second import credits nothing', async () => {
    const a = await customer();
    const b = await customer();
    const refA = (await instructions(a)).reference;
    const refB = (await instructions(b)).reference;
    const pending = (await notice(a, { amount: '30.00' })).data;
    const id = Date.now().toString(36);
    const csv = [
      'date,bank_txn_id,amount,currency,payer,memo,balance',
      `2026-03-01,${id}-1,30.00,USD,张三,充值 ${refA.toLowerCase()} 谢谢,1`,
      `2026-03-01,${id}-2,"1,200.50",USD,"Acme, Inc.",REF:${refB},2`,
      `2026-03-02,${id}-3,9.99,USD,无名,没有参考号,3`,
      `2026-03-02,${id}-4,abc,USD,坏行,${refA},4`,
      `2026-03-02,${id}-5,5.00,CNY,币种不对,${refA},5`,
    ].join('\n');
    const file = path.join(t.dataDir, `statement-${id}.csv`);
    await writeFile(file, csv);
    const first = await ops('deposit:import', file, '--host', 'localhost', '--currency', 'USD');
    expect(first.code).toBe(1);
    expect(first.stdout).toMatch(/Credited \(2\):/);
    expect(first.stdout).toMatch(/Unmatched \(1\):[\s\S]*line 4 {2}\S+-3 {2}9\.99 USD/);
    expect(first.stdout).toMatch(/line 5 \(\S+-4\): amount must be above zero/);
    expect(first.stdout).toMatch(/line 6 \(\S+-5\): currency is CNY/);
    expect(first.stderr).toMatch(/2 line\(s\) could not be imported/);
    expect(await available(a)).toBe('30.00');
    expect(await available(b)).toBe('1200.50');
    // the pending notice of that amount is the one credited
    const items = (await a.api.data<DepositPage>('GET', '/wallet/deposits')).items;
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ id: pending.id, status: 'CREDITED' });
    expect((await b.api.data<DepositPage>('GET', '/wallet/deposits')).items[0]).toMatchObject({ source: 'STATEMENT', payer_name: 'Acme, Inc.', amount: '1200.50' });

    const before = await booksSnapshot(t.database.db);
    const second = await ops('deposit:import', '--file', file, '--host', 'localhost', '--currency', 'USD');
    expect(second.stdout).toMatch(/Credited \(0\):/);
    expect(second.stdout).toMatch(/已导入 \(3\)/);
    expect(await booksSnapshot(t.database.db)).toBe(before);
    const listed = await ops('deposit:list', '--host', 'localhost');
    expect(listed.stdout).toContain(`${id}-3`);
    await expectSoundBooks(t.database.db);
  });

  it('a transfer credited by hand from its notice is not credited again when its statement line comes', async () => {
    const who = await customer();
    const reference = (await instructions(who)).reference;
    const filed = (await notice(who, { amount: '75.00' })).data;
    expect((await ops('deposit:confirm', '--host', 'localhost', '--id', filed.id)).code).toBe(0);
    expect(await available(who)).toBe('75.00');
    const id = `hand-${Date.now().toString(36)}`;
    const file = path.join(t.dataDir, `statement-${id}.csv`);
    await writeFile(file, ['bank_txn_id,date,amount,currency,payer,memo', `${id}-1,2026-03-03,75.00,USD,张三,${reference}`, `${id}-2,2026-03-04,75.00,USD,张三,${reference}`].join('\n'));
    const before = await booksSnapshot(t.database.db);
    const run = await ops('deposit:import', file, '--host', 'localhost', '--currency', 'USD');
    expect(run.code, run.stderr).toBe(0);
    // the first line claims the notice credited by hand; the second is another transfer of the same amount, and is credited
    expect(run.stdout).toMatch(/Credited by hand before \(1\):[\s\S]*\S+-1 {2}75\.00 USD/);
    expect(run.stdout).toMatch(/Credited \(1\):[\s\S]*\S+-2 {2}75\.00 USD/);
    expect(await available(who)).toBe('150.00');
    expect(await booksSnapshot(t.database.db)).not.toBe(before);
    const items = (await who.api.data<DepositPage>('GET', '/wallet/deposits')).items;
    expect(items.filter((item) => item.status === 'CREDITED')).toHaveLength(2);
    const again = await ops('deposit:import', file, '--host', 'localhost', '--currency', 'USD');
    expect(again.stdout).toMatch(/已导入 \(2\)/);
    expect(await available(who)).toBe('150.00');
    await expectSoundBooks(t.database.db);
  });

  it('refuses a file without the columns, changing nothing', async () => {
    const file = path.join(t.dataDir, 'no-columns.csv');
    await writeFile(file, 'id,amount\n1,2\n');
    const run = await ops('deposit:import', file, '--host', 'localhost', '--currency', 'USD');
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/missing: bank_txn_id, date, currency, payer, memo/);
  });
});

describe('charges owed are collected from the next money in', () => {
  it('takes what is owed in that currency, up to what came in, in the same transaction, and says so', async () => {
    const who = await customer();
    const [merchant] = await queryRows<{ merchant_id: string }>(t.database.db, sql`select merchant_id from accounts where id = ${who.accountId}`);
    const mid = String(merchant?.merchant_id);
    await t.database.db.execute(
      sql`insert into charges_owed (merchant_id, account_id, kind, currency, amount, authorization_id, created_at) values (${mid}, ${who.accountId}, 'DECLINED_FEE', 'USD', 300, ${`auth-a-${who.accountId}`}, now() - interval '2 minutes'), (${mid}, ${who.accountId}, 'SETTLEMENT_OVER', 'USD', 500, ${`auth-b-${who.accountId}`}, now() - interval '1 minute'), (${mid}, ${who.accountId}, 'DECLINED_FEE', 'CNY', 100, ${`auth-c-${who.accountId}`}, now())`,
    );
    const first = (await notice(who, { amount: '5.00' })).data;
    expect((await ops('deposit:confirm', '--host', 'localhost', '--id', first.id)).stdout).toMatch(/collected {4}5\.00 USD/);
    expect(await available(who)).toBe('0.00');
    const owed = await queryRows<{ amount: string; collected: string; done: boolean }>(
      t.database.db,
      sql`select amount::text, collected::text, collected_at is not null as done from charges_owed where account_id = ${who.accountId} and currency = 'USD' order by amount`,
    );
    expect(owed).toEqual([
      { amount: '300', collected: '300', done: true },
      { amount: '500', collected: '200', done: false },
    ]);
    const run = await ops('wallet:recharge', '--host', 'localhost', '--account', who.phone, '--amount', '10', '--currency', 'USD');
    expect(run.stdout).toMatch(/collected {4}3\.00 USD/);
    expect(await available(who)).toBe('7.00');
    expect(await available(who, 'CNY')).toBe('0.00');
    const messages = await who.api.data<{ items: Array<{ title: string; content: string }> }>('GET', '/msg-center/station-msg/list', { query: { page: 1, page_size: 10 } });
    const collected = messages.items.filter((m) => m.title === '已收取欠费');
    expect(collected).toHaveLength(2);
    expect(collected[0]?.content).toContain('共 3.00 USD');
    expect(collected[1]?.content).toMatch(/共 5\.00 USD[\s\S]*拒付手续费 3\.00 USD[\s\S]*超出授权的结算金额 2\.00 USD/);
    await expectSoundBooks(t.database.db);
  });
});
