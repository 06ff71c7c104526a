/**
 * Money in the console: operators decide the customers' top-up notices (with the receipt), import the
 * bank statement and credit its unmatched lines, and move money under four eyes above the merchant's
 * threshold; every money call takes the operator's code again, each role may only what the design
 * says, merchants never meet, every action is an audit row and the books stay sound.
 */
import type { AuditItem } from '@portal/contract/console';
import type { ConsoleDepositItem, MoneyRequestAnswer, MoneyRequestPage, StatementImportAnswer } from '@portal/contract/console-money';
import { ConsoleErrorCode } from '@portal/contract/console-errors';
import { ConsoleMoneyErrorCode } from '@portal/contract/console-money-errors';
import { FundingErrorCode } from '@portal/contract/funding-errors';
import { CardErrorCode } from '@portal/contract/card-errors';
import type { DepositInstructions, DepositItem } from '@portal/contract/funding';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.ts';
import { signUp } from '../helpers/accounts.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { testEngine } from '../helpers/database.ts';
import { expectSoundBooks } from '../helpers/ledger.ts';
import { runOpsOn } from '../helpers/ops.ts';
import { C, type ConsoleOperator, consoleOperators } from '../helpers/console.ts';

const clock = new ManualClock(new Date('2026-12-02T02:00:10Z'));
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(() => t?.close());

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 7)]);

type Operator = ConsoleOperator;
const { operator, code, signInAgain } = consoleOperators(() => t, clock, 'money');

const as = (who: Operator) => t.api(who.host, who.token);
let keys = 0;
const key = () => `money-test-${Date.now().toString(36)}-${++keys}`;

async function customer(host = 'localhost') {
  const who = await signUp(t, host);
  const api = t.api(host, who.token);
  const info = await api.data<{ id: string }>('GET', '/account/info');
  const reference = (await api.data<DepositInstructions>('GET', '/wallet/deposit-instructions', { query: { currency: 'USD' } })).reference;
  return { ...who, api, accountId: info.id, reference };
}
type Customer = Awaited<ReturnType<typeof customer>>;

const available = async (who: Customer, currency = 'USD') =>
  (await who.api.data<Array<{ currency: string; available: string }>>('GET', '/balance/account-balance')).find((row) => row.currency === currency)?.available;

async function fileNotice(who: Customer, amount = '100.00', receipt = false) {
  let receiptId: string | undefined;
  if (receipt) {
    const uploaded = await t.app.inject({
      method: 'POST',
      url: '/api/v1/wallet/deposits/receipts',
      headers: { host: who.api.host, authorization: `Bearer ${who.token}`, 'content-type': 'image/png' },
      payload: PNG,
    });
    receiptId = uploaded.json().data.id;
  }
  return who.api.data<DepositItem>('POST', '/wallet/deposits', {
    body: { currency: 'USD', amount, payer_name: '张三', transferred_at: new Date(clock.now().getTime() - 3600_000).toISOString(), ...(receiptId ? { receipt_file_id: receiptId } : {}) },
  });
}

const propose = async (who: Operator, body: Record<string, unknown>, idempotencyKey = key()) =>
  as(who).post<MoneyRequestAnswer>(C('/money-requests'), { currency: 'USD', reason: '客户补偿', totp: await code(who), ...body }, { headers: { 'idempotency-key': idempotencyKey } });
const approve = async (who: Operator, id: string) => as(who).post<MoneyRequestAnswer>(C(`/money-requests/${id}/approve`), { totp: await code(who) });
const auditOf = async (who: Operator) => (await as(who).data<{ items: AuditItem[] }>('GET', C('/audit'), { query: { page_size: '100' } })).items;

let finance: Operator;
let finance2: Operator;
let admin: Operator;
let support: Operator;
let risk: Operator;
let orangeFinance: Operator;
beforeAll(async () => {
  finance = await operator('localhost', 'FINANCE');
  finance2 = await operator('localhost', 'FINANCE');
  admin = await operator('localhost', 'ADMIN');
  support = await operator('localhost', 'SUPPORT');
  risk = await operator('localhost', 'RISK');
  orangeFinance = await operator('orange.localhost', 'FINANCE');
});

describe('roles', () => {
  it('let every role read deposits, lines and requests, and only FINANCE and ADMIN act on money', async () => {
    const who = await customer();
    const notice = await fileNotice(who);
    for (const reader of [support, risk, finance, admin]) {
      expect((await as(reader).get(C('/deposits'))).code).toBe(0);
      expect((await as(reader).get(C('/deposits/lines'))).code).toBe(0);
      expect((await as(reader).get(C('/money-requests'))).code).toBe(0);
    }
    for (const reader of [support, risk]) {
      const calls = [
        as(reader).post(C(`/deposits/${notice.id}/confirm`), { totp: '123456' }),
        as(reader).post(C(`/deposits/${notice.id}/reject`), { reason: '不符' }),
        as(reader).post(C('/deposits/statements'), { currency: 'USD', csv: 'bank_txn_id,date,amount,currency,payer,memo\n', totp: '123456' }),
        as(reader).post(C('/deposits/lines/X1/credit'), { reference: who.reference, totp: '123456' }, { headers: { 'idempotency-key': key() } }),
        as(reader).post(C('/money-requests'), { account_id: who.accountId, kind: 'RECHARGE', amount: '1.00', currency: 'USD', reason: 'x', totp: '123456' }, { headers: { 'idempotency-key': key() } }),
        as(reader).post(C(`/money-requests/${notice.id}/approve`), { totp: '123456' }),
        as(reader).post(C(`/money-requests/${notice.id}/reject`), { reason: 'x' }),
      ];
      for (const answer of await Promise.all(calls)) {
        expect(answer.code).toBe(ConsoleErrorCode.ROLE_DENIED);
        expect(answer.message).toBe('权限不足：仅财务、管理员可以执行此操作');
      }
    }
    expect(await available(who)).toBe('0.00');
    const me = await as(support).data<{ actions: string[] }>('GET', C('/me'));
    expect(me.actions).toEqual(expect.arrayContaining(['deposits.read', 'money.read']));
    expect(me.actions).not.toContain('money.propose');
    expect((await t.api('localhost').get(C('/money-requests'))).code).toBe(ConsoleErrorCode.SIGN_IN_REQUIRED);
  });
});

describe('deposit notices', () => {
  it("are confirmed with the operator's code: the wallet is credited once, the receipt is readable, the audit row names who", async () => {
    const who = await customer();
    const notice = await fileNotice(who, '250.00', true);
    const list = await as(support).data<{ items: ConsoleDepositItem[] }>('GET', C('/deposits'), { query: { status: 'PENDING', page_size: 100 } });
    const listed = list.items.find((item) => item.id === notice.id);
    expect(listed).toMatchObject({ account_id: who.accountId, account_reference: who.reference, amount: '250.00', status: 'PENDING' });
    const receipt = await t.app.inject({ method: 'GET', url: C(`/deposits/receipts/${listed?.receipt_file_id}`), headers: { host: 'localhost', authorization: `Bearer ${support.token}` } });
    expect(receipt.statusCode).toBe(200);
    expect(receipt.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(receipt.rawPayload, PNG)).toBe(0);
    // another merchant's operator reads neither the notice nor its receipt
    const foreign = await t.app.inject({ method: 'GET', url: C(`/deposits/receipts/${listed?.receipt_file_id}`), headers: { host: 'orange.localhost', authorization: `Bearer ${orangeFinance.token}` } });
    expect(foreign.json().code).toBe(FundingErrorCode.RECEIPT_NOT_FOUND);
    expect((await as(orangeFinance).data<{ items: ConsoleDepositItem[] }>('GET', C('/deposits'), { query: { page_size: 100 } })).items.map((item) => item.id)).not.toContain(notice.id);
    expect((await as(orangeFinance).post(C(`/deposits/${notice.id}/confirm`), { totp: await code(orangeFinance) })).code).toBe(FundingErrorCode.DEPOSIT_NOT_FOUND);

    // a wrong code changes nothing, and is audit-logged
    const wrong = await as(finance).post(C(`/deposits/${notice.id}/confirm`), { totp: '000000' });
    expect(wrong.code).toBe(ConsoleErrorCode.TOTP_WRONG);
    expect(await available(who)).toBe('0.00');
    const used = await code(finance);
    const confirmed = await as(finance).post<ConsoleDepositItem>(C(`/deposits/${notice.id}/confirm`), { totp: used });
    expect(confirmed.code, confirmed.message).toBe(0);
    expect(confirmed.data).toMatchObject({ status: 'CREDITED', credited_amount: '250.00', account_reference: who.reference });
    expect(await available(who)).toBe('250.00');
    // the same code again is refused, and a second confirmation moves nothing
    expect((await as(finance).post(C(`/deposits/${notice.id}/confirm`), { totp: used })).code).toBe(ConsoleErrorCode.TOTP_WRONG);
    expect((await as(finance2).post(C(`/deposits/${notice.id}/confirm`), { totp: await code(finance2) })).code).toBe(0);
    expect(await available(who)).toBe('250.00');
    const rows = (await auditOf(support)).filter((row) => row.target === notice.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ action: 'DEPOSIT_CONFIRMED', actor: finance.email, channel: 'CONSOLE', after: { status: 'CREDITED', credited_amount: '250.00' } });
    expect((await auditOf(finance)).some((row) => row.action === 'ACTION_CODE_FAILED' && row.actor === finance.email)).toBe(true);
  });

  it('are rejected with the reason the customer reads; a rejected notice cannot be confirmed', async () => {
    const who = await customer();
    const notice = await fileNotice(who);
    expect((await as(finance).post(C(`/deposits/${notice.id}/reject`), { reason: '' })).message).toBe('请填写原因');
    const rejected = await as(finance).post<ConsoleDepositItem>(C(`/deposits/${notice.id}/reject`), { reason: '未收到该笔转账' });
    expect(rejected.data).toMatchObject({ status: 'REJECTED', reason: '未收到该笔转账' });
    const confirm = await as(finance).post(C(`/deposits/${notice.id}/confirm`), { totp: await code(finance) });
    expect(confirm.code).toBe(FundingErrorCode.DEPOSIT_DECIDED);
    expect(await available(who)).toBe('0.00');
    const mine = await who.api.data<{ items: DepositItem[] }>('GET', '/wallet/deposits');
    expect(mine.items[0]).toMatchObject({ id: notice.id, status: 'REJECTED', reason: '未收到该笔转账' });
    expect((await auditOf(finance)).find((row) => row.target === notice.id)).toMatchObject({ action: 'DEPOSIT_REJECTED', actor: finance.email });
  });
});

describe('the bank statement', () => {
  it('credits the lines naming a reference once, lists 已导入 and the unmatched lines, which an operator credits by hand', async () => {
    const who = await customer();
    const id = Date.now().toString(36);
    const csv = ['bank_txn_id,date,amount,currency,payer,memo', `A${id},2026-12-01,120.00,USD,李四,充值 ${who.reference}`, `B${id},2026-12-01,80.00,USD,王五,no reference`].join('\n');
    expect((await as(finance).post(C('/deposits/statements'), { currency: 'USD', csv: 'date,amount\n1,2', totp: '123456' })).message).toBe(
      '对账单缺少列：bank_txn_id, currency, payer, memo（需要 bank_txn_id,date,amount,currency,payer,memo）',
    );
    const first = await as(finance).post<StatementImportAnswer>(C('/deposits/statements'), { currency: 'USD', csv, totp: await code(finance) });
    expect(first.code, first.message).toBe(0);
    expect(first.data.credited).toEqual([expect.objectContaining({ bank_txn_id: `A${id}`, amount: '120.00', account_id: who.accountId, reference: who.reference })]);
    expect(first.data.unmatched).toEqual([expect.objectContaining({ bank_txn_id: `B${id}`, why: '备注中没有客户的参考号' })]);
    expect(await available(who)).toBe('120.00');
    const again = await as(finance).post<StatementImportAnswer>(C('/deposits/statements'), { currency: 'USD', csv, totp: await code(finance) });
    expect(again.data.credited).toEqual([]);
    expect(again.data.already.map((line) => line.bank_txn_id).sort()).toEqual([`A${id}`, `B${id}`]);
    expect(await available(who)).toBe('120.00');

    const lines = await as(support).data<{ items: Array<{ bank_txn_id: string }> }>('GET', C('/deposits/lines'));
    expect(lines.items.map((line) => line.bank_txn_id)).toContain(`B${id}`);
    expect((await as(orangeFinance).data<{ items: Array<{ bank_txn_id: string }> }>('GET', C('/deposits/lines'))).items.map((line) => line.bank_txn_id)).not.toContain(`B${id}`);
    const wrongReference = await as(finance).post(C(`/deposits/lines/B${id}/credit`), { reference: 'TP22222222', totp: '123456' }, { headers: { 'idempotency-key': key() } });
    expect(wrongReference.code).toBe(ConsoleMoneyErrorCode.REFERENCE_NOT_FOUND);
    const credited = await as(finance).post<MoneyRequestAnswer>(C(`/deposits/lines/B${id}/credit`), { reference: who.reference.toLowerCase(), totp: await code(finance) }, { headers: { 'idempotency-key': key() } });
    expect(credited.code, credited.message).toBe(0);
    expect(credited.data.status).toBe('APPLIED');
    expect(await available(who)).toBe('200.00');
    const twice = await as(finance2).post(C(`/deposits/lines/B${id}/credit`), { reference: who.reference, totp: await code(finance2) }, { headers: { 'idempotency-key': key() } });
    expect(twice.code).toBe(FundingErrorCode.STATEMENT_LINE_CREDITED);
    expect(await available(who)).toBe('200.00');
    const audit = await auditOf(finance);
    expect(audit.find((row) => row.action === 'STATEMENT_IMPORTED')).toMatchObject({ actor: finance.email, after: { credited: 0, already: 2 } });
    expect(audit.find((row) => row.target === credited.data.id && row.action === 'MONEY_APPLIED')).toMatchObject({ after: { kind: 'LINE_CREDIT', bank_txn_id: `B${id}` } });
  });
});

describe('money requests', () => {
  it('apply at once up to the threshold and wait above it for a second operator; the proposer cannot approve, nor can anyone twice', async () => {
    const who = await customer();
    const small = await propose(finance, { account_id: who.accountId, kind: 'RECHARGE', amount: '1000.00' });
    expect(small.data).toEqual({ id: expect.any(String), status: 'APPLIED' });
    expect(await available(who)).toBe('1000.00');

    const big = await propose(finance, { account_id: who.accountId, kind: 'RECHARGE', amount: '1000.01' });
    expect(big.data.status).toBe('PENDING_APPROVAL');
    expect(await available(who)).toBe('1000.00');
    const own = await approve(finance, big.data.id);
    expect(own.code).toBe(ConsoleMoneyErrorCode.OWN_REQUEST);
    expect(own.message).toBe('不能审批自己发起的申请，请由另一位操作员审批');
    const wrongCode = await as(finance2).post(C(`/money-requests/${big.data.id}/approve`), { totp: '000000' });
    expect(wrongCode.code).toBe(ConsoleErrorCode.TOTP_WRONG);
    const approved = await approve(finance2, big.data.id);
    expect(approved.data).toEqual({ id: big.data.id, status: 'APPLIED' });
    expect(await available(who)).toBe('2000.01');
    const again = await approve(admin, big.data.id);
    expect(again.code).toBe(ConsoleMoneyErrorCode.REQUEST_DECIDED);
    expect(again.message).toBe('该申请已执行，不能再次处理');
    expect(await available(who)).toBe('2000.01');

    const page = await as(support).data<MoneyRequestPage>('GET', C('/money-requests'), { query: { status: 'APPLIED', page_size: 100 } });
    expect(page.threshold).toBe('1000.00');
    expect(page.items.find((item) => item.id === big.data.id)).toMatchObject({
      kind: 'RECHARGE',
      amount: '1000.01',
      account_reference: who.reference,
      proposed_by: { email: finance.email },
      approved_by: { email: finance2.email },
      needs_approval: true,
    });
    // the customer reads it as 充值 in the wallet's history, with the reason
    const history = await who.api.data<{ items: Array<{ type: string; amount: string; memo: string }> }>('GET', '/balance/transactions', { query: { page: 1, page_size: 10 } });
    expect(history.items.filter((item) => item.type === 'ADMIN_RECHARGE_IN').map((item) => item.amount)).toEqual(expect.arrayContaining(['1000.01', '1000.00']));
    expect(history.items[0]?.memo).toBe('客户补偿');
    const audit = (await auditOf(support)).filter((row) => row.target === big.data.id);
    expect(audit.map((row) => [row.action, row.actor])).toEqual([
      ['MONEY_APPLIED', finance2.email],
      ['MONEY_PROPOSED', finance.email],
    ]);
    await expectSoundBooks(t.database.db);
  });

  it('refuse a deduction beyond the available balance with a clear message, before the code is taken', async () => {
    const who = await customer();
    expect((await propose(finance, { account_id: who.accountId, kind: 'RECHARGE', amount: '50.00' })).data.status).toBe('APPLIED');
    const totp = await code(finance);
    const refused = await as(finance).post(C('/money-requests'), { account_id: who.accountId, kind: 'DEDUCT', amount: '50.01', currency: 'USD', reason: '扣回', totp }, { headers: { 'idempotency-key': key() } });
    expect(refused.code).toBe(ConsoleMoneyErrorCode.BALANCE_SHORT);
    expect(refused.message).toBe('客户钱包可用余额不足：可用 50.00 USD，不能扣减 50.01 USD');
    // the code was not used: it confirms the next action
    const deducted = await as(finance).post<MoneyRequestAnswer>(C('/money-requests'), { account_id: who.accountId, kind: 'ADJUST', amount: '20.00', currency: 'USD', reason: '手续费调整', totp }, { headers: { 'idempotency-key': key() } });
    expect(deducted.data.status).toBe('APPLIED');
    expect(await available(who)).toBe('30.00');
    const history = await who.api.data<{ items: Array<{ type: string }> }>('GET', '/balance/transactions', { query: { page: 1, page_size: 10 } });
    expect(history.items[0]?.type).toBe('ADJUST_OUT');
    // a deduction proposed above the threshold against a wallet that later has too little is refused at approval
    await runOpsOn(t.database, ['merchant:set', '--host', 'localhost', '--approval-threshold', '10.00']);
    const pending = await propose(finance, { account_id: who.accountId, kind: 'DEDUCT', amount: '25.00' });
    expect(pending.data.status).toBe('PENDING_APPROVAL');
    expect((await propose(finance, { account_id: who.accountId, kind: 'DEDUCT', amount: '10.00' })).data.status).toBe('APPLIED');
    const short = await approve(finance2, pending.data.id);
    expect(short.code).toBe(ConsoleMoneyErrorCode.BALANCE_SHORT);
    expect(await available(who)).toBe('20.00');
    expect((await runOpsOn(t.database, ['merchant:set', '--host', 'localhost', '--approval-threshold', '1000.00'])).code).toBe(0);
    await expectSoundBooks(t.database.db);
  });

  it('answer a replayed Idempotency-Key with the first request, and refuse the key for another body', async () => {
    const who = await customer();
    const missing = await as(finance).post(C('/money-requests'), { account_id: who.accountId, kind: 'RECHARGE', amount: '5.00', currency: 'USD', reason: 'x', totp: await code(finance) });
    expect(missing.code).toBe(CardErrorCode.IDEMPOTENCY_KEY_MISSING);
    const k = key();
    const first = await propose(finance, { account_id: who.accountId, kind: 'RECHARGE', amount: '5.00' }, k);
    const replay = await propose(finance, { account_id: who.accountId, kind: 'RECHARGE', amount: '5.00' }, k);
    expect(replay.data).toEqual(first.data);
    expect(await available(who)).toBe('5.00');
    expect((await propose(finance, { account_id: who.accountId, kind: 'RECHARGE', amount: '6.00' }, k)).code).toBe(ConsoleMoneyErrorCode.REQUEST_KEY_REUSED);
    const bad = await propose(finance, { account_id: who.accountId, kind: 'RECHARGE', amount: '-1' });
    expect(bad.message).toBe('请输入大于 0 的金额，最多两位小数');
  });

  it('are rejected by a second operator (or withdrawn by the proposer), and expire after 24 hours', async () => {
    const who = await customer();
    const one = await propose(finance, { account_id: who.accountId, kind: 'RECHARGE', amount: '5000.00' });
    const rejected = await as(admin).post<MoneyRequestAnswer>(C(`/money-requests/${one.data.id}/reject`), { reason: '金额有误' });
    expect(rejected.data).toEqual({ id: one.data.id, status: 'REJECTED' });
    expect((await approve(finance2, one.data.id)).code).toBe(ConsoleMoneyErrorCode.REQUEST_DECIDED);
    const two = await propose(finance, { account_id: who.accountId, kind: 'RECHARGE', amount: '5000.00' });
    clock.advance(24 * 60 * 60_000);
    for (const who of [finance, finance2, admin, support, risk, orangeFinance]) await signInAgain(who);
    const late = await approve(finance2, two.data.id);
    expect(late.code).toBe(ConsoleMoneyErrorCode.REQUEST_EXPIRED);
    expect(late.message).toBe('该申请超过 24 小时未获审批，已过期，请重新发起');
    expect(await available(who)).toBe('0.00');
    const expired = await as(support).data<MoneyRequestPage>('GET', C('/money-requests'), { query: { status: 'EXPIRED', page_size: 100 } });
    expect(expired.items.map((item) => item.id)).toContain(two.data.id);
    const gone = await as(support).data<MoneyRequestPage>('GET', C('/money-requests'), { query: { status: 'REJECTED', page_size: 100 } });
    expect(gone.items.find((item) => item.id === one.data.id)).toMatchObject({ rejected_by: { email: admin.email }, rejection_reason: '金额有误' });
    expect((await auditOf(admin)).find((row) => row.target === one.data.id && row.action === 'MONEY_REJECTED')).toMatchObject({ actor: admin.email });
  });

  it("stay within their merchant: another merchant's operator neither lists, approves nor moves its customers' money", async () => {
    const who = await customer();
    const pending = await propose(finance, { account_id: who.accountId, kind: 'RECHARGE', amount: '2000.00' });
    const orangeList = await as(orangeFinance).data<MoneyRequestPage>('GET', C('/money-requests'), { query: { page_size: 100 } });
    expect(orangeList.items.map((item) => item.id)).not.toContain(pending.data.id);
    expect((await approve(orangeFinance, pending.data.id)).code).toBe(ConsoleMoneyErrorCode.REQUEST_NOT_FOUND);
    expect((await propose(orangeFinance, { account_id: who.accountId, kind: 'RECHARGE', amount: '1.00' })).code).toBe(ConsoleMoneyErrorCode.ACCOUNT_NOT_FOUND);
    // a blue operator's token is no session on the orange host
    expect((await t.api('orange.localhost', finance.token).get(C('/money-requests'))).code).toBe(ConsoleErrorCode.SESSION_INVALID);
    // the orange merchant's own threshold, set by the command line, is its alone
    const bad = await runOpsOn(t.database, ['merchant:set', '--host', 'orange.localhost', '--approval-threshold', '5O']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--approval-threshold must be an amount above zero');
    const set = await runOpsOn(t.database, ['merchant:set', '--host', 'orange.localhost', '--approval-threshold', '50.00']);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toContain('1000.00 → 50.00');
    const orangeCustomer = await customer('orange.localhost');
    expect((await propose(orangeFinance, { account_id: orangeCustomer.accountId, kind: 'RECHARGE', amount: '60.00' })).data.status).toBe('PENDING_APPROVAL');
    expect((await as(finance).data<MoneyRequestPage>('GET', C('/money-requests'))).threshold).toBe('1000.00');
    expect((await auditOf(orangeFinance)).find((row) => row.action === 'APPROVAL_THRESHOLD_SET')).toMatchObject({ channel: 'CLI', after: { threshold: '50.00' } });
    expect((await auditOf(finance)).some((row) => row.action === 'APPROVAL_THRESHOLD_SET' && row.after?.threshold === '50.00')).toBe(false);
  });

  it.runIf(testEngine() === 'postgres')('apply once when two operators approve at the same moment', async () => {
    const who = await customer();
    const pending = await propose(finance, { account_id: who.accountId, kind: 'RECHARGE', amount: '3000.00' });
    const codes = [await code(finance2), await code(admin)];
    const answers = await Promise.all([
      as(finance2).post<MoneyRequestAnswer>(C(`/money-requests/${pending.data.id}/approve`), { totp: codes[0] }),
      as(admin).post<MoneyRequestAnswer>(C(`/money-requests/${pending.data.id}/approve`), { totp: codes[1] }),
    ]);
    expect(answers.map((answer) => answer.code).sort()).toEqual([0, ConsoleMoneyErrorCode.REQUEST_DECIDED]);
    expect(await available(who)).toBe('3000.00');
    await expectSoundBooks(t.database.db);
  });
});
