import type { DepositInstructions, DepositItem, DepositPage } from '@portal/contract/funding';
import { TRC20_ADDRESS_PATTERN } from '@portal/contract/usdt';
import { UsdtErrorCode } from '@portal/contract/usdt-errors';
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastMessage, signUp } from '../helpers/accounts.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { depositData, freePort, sendGatewayEvent, startGatewayProcess } from '../helpers/crypto-gateway.ts';
import { booksSnapshot, expectSoundBooks } from '../helpers/ledger.ts';
import { runOpsOn } from '../helpers/ops.ts';
import { until } from '../helpers/until.ts';
import { usdtReconcilePart } from '../../src/modules/funding/usdt-reconcile.ts';
import { createHttpGateway } from '../../src/providers/crypto/http.ts';
import { queryRows } from '../helpers/sql.ts';

// USDT top-ups the whole way: the portal asks the simulated gateway (its own process, over HTTP, signed)
// for addresses; the gateway, told by crypto:simulate-deposit, sends signed events to the listening portal.
const SECRET = 'usdt-test-crypto-webhook-secret-0123456789';
let t: TestApp;
let gateway: Awaited<ReturnType<typeof startGatewayProcess>>;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  const port = await freePort();
  env = { CRYPTO_GATEWAY_URL: `http://127.0.0.1:${port}`, CRYPTO_WEBHOOK_SECRET: SECRET };
  t = await createTestApp({ env });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const portal = (t.app.server.address() as { port: number }).port;
  gateway = await startGatewayProcess({ port, webhookUrl: `http://127.0.0.1:${portal}/api/v1/crypto/webhook`, secret: SECRET });
});
afterAll(async () => {
  await gateway?.stop();
  await t?.close();
});

const ops = (...argv: string[]) => runOpsOn(t.database, argv, env);

async function customer(host = 'localhost') {
  const who = await signUp(t, host);
  const api = t.api(host, who.token);
  const info = await api.data<{ id: string }>('GET', '/account/info');
  return { ...who, api, host, accountId: info.id };
}
type Customer = Awaited<ReturnType<typeof customer>>;

const instructions = (who: Customer, currency = 'USD') => who.api.data<DepositInstructions>('GET', '/wallet/deposit-instructions', { query: { currency } });
const deposits = (who: Customer) => who.api.data<DepositPage>('GET', '/wallet/deposits', { query: { page: 1, page_size: 50 } });
const usdOf = async (who: Customer) =>
  (await who.api.data<Array<{ currency: string; available: string }>>('GET', '/balance/account-balance')).find((row) => row.currency === 'USD')?.available;
const addressOf = async (who: Customer) => (await instructions(who)).usdt?.address as string;
const send = (data: Record<string, unknown>, options: { id?: string; at?: Date; secret?: string; signature?: string } = {}) => sendGatewayEvent(t, data, { secret: SECRET, ...options });

/** A USDT deposit made through the gateway by the operator command, with the ids it printed. */
async function simulate(who: Customer, amount: string, confirmations: number, { lose = false }: { lose?: boolean } = {}) {
  const run = await ops('crypto:simulate-deposit', '--host', who.host, '--account', who.phone, '--amount', amount, '--confirmations', String(confirmations), ...(lose ? ['--lose-event'] : []));
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toMatch(lose ? /lost on purpose/ : /delivered to the portal \(200\)/);
  return { depositId: /deposit\s+(dep_\S+)/.exec(run.stdout)?.[1] as string, txId: /transaction\s+([0-9a-f]{64})/.exec(run.stdout)?.[1] as string, stdout: run.stdout };
}
const raise = (depositId: string, confirmations: number, { lose = false }: { lose?: boolean } = {}) =>
  ops('crypto:simulate-deposit', '--deposit', depositId, '--confirmations', String(confirmations), ...(lose ? ['--lose-event'] : []));
const rechargesOf = (who: Customer) =>
  queryRows(t.database.db, sql`select reference, count(*)::int as n from ledger_transactions where type = 'ADMIN_RECHARGE_IN' and reference in (select 'deposit:' || id from deposits where account_id = ${who.accountId}) group by reference`);
const usdtRows = (who: Customer) => deposits(who).then((page) => page.items.filter((item) => item.kind === 'USDT'));

describe('the USDT address', () => {
  it('is a TRC20 address asked of the gateway once, stable per account and distinct between accounts and merchants, with the rate and fee', async () => {
    const who = await customer();
    const first = await instructions(who);
    expect(first.usdt).toMatchObject({ network: 'TRC20', confirmations_required: 20, rate: '1.00', fee_percent: '1.00' });
    expect(first.usdt?.address).toMatch(TRC20_ADDRESS_PATTERN);
    expect((await instructions(who)).usdt?.address).toBe(first.usdt?.address);
    expect(await queryRows(t.database.db, sql`select address from usdt_addresses where account_id = ${who.accountId}`)).toEqual([{ address: first.usdt?.address }]);
    expect((await instructions(who, 'CNY')).usdt).toBeNull();

    const other = await customer();
    const orange = await customer('orange.localhost');
    const orangeUsdt = (await instructions(orange)).usdt;
    expect(orangeUsdt).toMatchObject({ rate: '1.00', fee_percent: '1.50' });
    const addresses = new Set([first.usdt?.address, await addressOf(other), orangeUsdt?.address]);
    expect(addresses.size).toBe(3);
  });

  it('is null while the merchant offers no USDT (merchant:set-usdt --off), and shows a new rate and fee at once', async () => {
    const who = await customer('purple.localhost');
    const off = await ops('merchant:set-usdt', '--host', 'purple.localhost', '--off');
    expect(off.code, off.stderr).toBe(0);
    expect((await instructions(who)).usdt).toBeNull();
    const on = await ops('merchant:set-usdt', '--host', 'purple.localhost', '--on', '--rate', '0.9985', '--fee-percent', '2.5');
    expect(on.code, on.stderr).toBe(0);
    expect((await instructions(who)).usdt).toMatchObject({ rate: '0.9985', fee_percent: '2.50' });
    const refused = await ops('merchant:set-usdt', '--host', 'purple.localhost', '--fee-percent', '10.5');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('--fee-percent');
    expect((await instructions(who)).usdt?.fee_percent).toBe('2.50');
  });
});

describe('a USDT deposit', () => {
  it('is pending with its confirmations, credited once at 20 at the rate less the fee, with a message and an e-mail', async () => {
    const who = await customer();
    const made = await simulate(who, '100.00', 3);
    expect(made.stdout).toContain(`--deposit ${made.depositId}`);
    const [pending] = await usdtRows(who);
    expect(pending).toMatchObject({ kind: 'USDT', source: 'CHAIN', status: 'PENDING', amount: '100.00', confirmations: 3, confirmations_required: 20, credited_amount: null });
    expect(await usdOf(who)).toBe('0.00');

    expect((await raise(made.depositId, 19)).code).toBe(0);
    expect((await usdtRows(who))[0]).toMatchObject({ status: 'PENDING', confirmations: 19 });
    expect(await usdOf(who)).toBe('0.00');

    const twenty = await raise(made.depositId, 20);
    expect(twenty.code, twenty.stderr).toBe(0);
    expect((await usdtRows(who))[0]).toMatchObject({ status: 'CREDITED', confirmations: 20, credited_amount: '99.00' });
    expect(await usdOf(who)).toBe('99.00');
    const moved = await who.api.data<{ items: Array<{ type: string; amount: string; memo: string }> }>('GET', '/balance/transactions', { query: { page: 1, page_size: 10 } });
    expect(moved.items.filter((row) => row.type === 'ADMIN_RECHARGE_IN')).toEqual([expect.objectContaining({ amount: '99.00', memo: expect.stringContaining('USDT（TRC20）') })]);
    // the e-mail goes out once the gateway has its answer
    const mail = await until('the credit e-mail', async () => {
      const sent = await lastMessage(t, who.email);
      return sent.subject.includes('充值已到账') ? sent : undefined;
    });
    expect(mail.subject).toContain('充值已到账 99.00 USD');

    // more confirmations, and the same again, credit nothing more
    expect((await raise(made.depositId, 25)).code).toBe(0);
    expect((await raise(made.depositId, 25)).code).toBe(0);
    expect(await usdOf(who)).toBe('99.00');
    expect((await usdtRows(who)).length).toBe(1);
    await expectSoundBooks(t.database.db);
  });

  it('confirmations only rise: a lower count after a higher one changes nothing; the gateway refuses to lower them too', async () => {
    const who = await customer();
    const address = await addressOf(who);
    const data = depositData(address, 12);
    expect((await send(data)).status).toBe(200);
    const lower = await send({ ...data, confirmations: 4 });
    expect(lower.status).toBe(200);
    expect((await usdtRows(who))[0]).toMatchObject({ status: 'PENDING', confirmations: 12 });
    // an event after the credit that says fewer changes nothing either
    expect((await send({ ...data, confirmations: 20 })).body.data).toMatchObject({ status: 'CREDITED', credited: true });
    expect((await send({ ...data, confirmations: 19 })).body.data).toMatchObject({ status: 'CREDITED', credited: false, confirmations: 20 });
    expect(await usdOf(who)).toBe('99.00');

    const made = await simulate(who, '5.00', 8);
    const lowered = await raise(made.depositId, 2);
    expect(lowered.code).not.toBe(0);
    expect(lowered.stderr).toContain('confirmations only rise');
  });

  it('a replayed event (same id) and duplicate events (same transaction) credit once', async () => {
    const who = await customer();
    const data = depositData(await addressOf(who), 20, { amount: '50.00' });
    const first = await send(data, { id: 'evt_replayed_once' });
    expect(first.body.data).toMatchObject({ duplicate: false, status: 'CREDITED', credited: true });
    const before = await booksSnapshot(t.database.db);
    const replay = await send(data, { id: 'evt_replayed_once' });
    expect(replay.status).toBe(200);
    expect(replay.body.data).toEqual({ id: 'evt_replayed_once', duplicate: true });
    const duplicates = await Promise.all(Array.from({ length: 6 }, () => send(data)));
    expect(duplicates.map((answer) => answer.status)).toEqual(Array(6).fill(200));
    expect(duplicates.every((answer) => answer.body.data.credited === false)).toBe(true);
    expect(await booksSnapshot(t.database.db)).toEqual(before);
    expect(await usdOf(who)).toBe('49.50');
    expect((await usdtRows(who)).length).toBe(1);
  });

  it('many first events of one transaction at once make one deposit and credit it once', async () => {
    const who = await customer();
    const data = depositData(await addressOf(who), 20, { amount: '10.00' });
    const answers = await Promise.all(Array.from({ length: 8 }, () => send(data)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(200));
    expect(answers.filter((answer) => answer.body.data.credited === true)).toHaveLength(1);
    expect(await usdOf(who)).toBe('9.90');
    expect((await usdtRows(who)).length).toBe(1);
    await expectSoundBooks(t.database.db);
  });

  it('a forged signature or a stale timestamp is refused with 3131 and changes nothing; a malformed event with 3132', async () => {
    const who = await customer();
    const data = depositData(await addressOf(who), 20);
    const snapshot = async () => JSON.stringify([await booksSnapshot(t.database.db), await usdtRows(who), await queryRows(t.database.db, sql`select count(*)::int as n from crypto_gateway_events`)]);
    const before = await snapshot();
    const forged = await send(data, { secret: 'not-the-secret-of-the-gateway-0123456789' });
    expect(forged.status).toBe(401);
    expect(forged.body).toMatchObject({ code: UsdtErrorCode.GATEWAY_SIGNATURE_INVALID, message: '加密货币网关签名无效或已过期' });
    const stale = await send(data, { at: new Date(Date.now() - 10 * 60_000) });
    expect(stale.status).toBe(401);
    expect(stale.body.code).toBe(UsdtErrorCode.GATEWAY_SIGNATURE_INVALID);
    const unsigned = await send(data, { signature: '' });
    expect(unsigned.body.code).toBe(UsdtErrorCode.GATEWAY_SIGNATURE_INVALID);
    const malformed = await send({ ...data, network: 'ERC20' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe(UsdtErrorCode.GATEWAY_EVENT_INVALID);
    expect(await snapshot()).toBe(before);
    expect(await usdOf(who)).toBe('0.00');
  });

  it("belongs to its account alone: other accounts and merchants never see it, an unknown address is ignored, and the operator cannot confirm it", async () => {
    const who = await customer();
    const other = await customer();
    const orange = await customer('orange.localhost');
    await simulate(who, '30.00', 1);
    expect((await usdtRows(who)).length).toBe(1);
    expect(await usdtRows(other)).toEqual([]);
    expect(await usdtRows(orange)).toEqual([]);

    const stranger = await send(depositData('T'.padEnd(34, 'x'), 20));
    expect(stranger.status).toBe(200);
    expect(stranger.body.data).toMatchObject({ duplicate: false, outcome: 'ignored' });

    const [row] = await usdtRows(who);
    const confirm = await ops('deposit:confirm', '--host', 'localhost', '--id', (row as DepositItem).id);
    expect(confirm.code).not.toBe(0);
    expect(confirm.stderr).toContain('USDT 充值按链上确认自动入账');
    expect((await usdtRows(who))[0]).toMatchObject({ status: 'PENDING', confirmations: 1 });
  });

  it('a bank statement line of the same amount never credits a pending USDT deposit', async () => {
    const who = await customer();
    await simulate(who, '77.00', 2);
    const { reference } = await instructions(who);
    const file = `${t.dataDir}/statement-${randomBytes(4).toString('hex')}.csv`;
    const { writeFile } = await import('node:fs/promises');
    await writeFile(file, `bank_txn_id,date,amount,currency,payer,memo\nB-${randomBytes(4).toString('hex')},2026-11-30,77.00,USD,张三,${reference}\n`);
    const imported = await ops('deposit:import', file, '--host', 'localhost', '--currency', 'USD');
    expect(imported.code, imported.stderr).toBe(0);
    expect((await usdtRows(who))[0]).toMatchObject({ status: 'PENDING', confirmations: 2 });
    expect(await usdOf(who)).toBe('77.00');
  });
});

describe('a USDT amount to 6 decimals', () => {
  it('is kept exactly as the gateway sent it; the credit follows the rule (value and credit floored to the cent) and the record shows rate, value and fee', async () => {
    const who = await customer();
    const made = await simulate(who, '12.345678', 3);
    expect(made.stdout).toContain('12.345678 USDT');
    expect((await usdtRows(who))[0]).toMatchObject({ amount: '12.345678', status: 'PENDING', conversion: null });
    expect((await raise(made.depositId, 20)).code).toBe(0);
    const [row] = await usdtRows(who);
    // 12.345678 × 1.00 = 12.345678 USD: worth 12.34; less 1 %: 12.22222122 → 12.22; fee 12.34 − 12.22 = 0.12
    expect(row).toMatchObject({ amount: '12.345678', status: 'CREDITED', credited_amount: '12.22', conversion: { rate: '1.00', fee_percent: '1.00', value: '12.34', fee: '0.12' } });
    expect(await usdOf(who)).toBe('12.22');
    const messages = await queryRows(t.database.db, sql`select content from station_messages where account_id = ${who.accountId} and title = '充值已到账'`);
    expect(messages).toEqual([{ content: expect.stringContaining('充值 12.345678 USDT 已确认') }]);
    await expectSoundBooks(t.database.db);
  });

  it('a dust deposit worth less than a cent after the fee is recorded, not credited, and says why', async () => {
    const who = await customer();
    await simulate(who, '0.000001', 20);
    expect((await usdtRows(who))[0]).toMatchObject({ amount: '0.000001', status: 'REJECTED', credited_amount: null, reason: '扣除手续费后不足 0.01 USD，未入账' });
    expect(await usdOf(who)).toBe('0.00');
  });

  it('an amount that is none is refused in 中文: by crypto:simulate-deposit, by the simulated gateway and at the webhook (3135), changing nothing', async () => {
    const who = await customer();
    for (const bad of ['1.1234567', '0.000000', '+5', '1e3', 'abc']) {
      const run = await ops('crypto:simulate-deposit', '--host', who.host, '--account', who.phone, '--amount', bad, '--confirmations', '20');
      expect(run.code, bad).toBe(1);
      expect(run.stderr).toContain('USDT 数量须大于 0、最多 6 位小数');
    }
    const address = await addressOf(who);
    const refused = await send(depositData(address, 20, { amount: '1.1234567' }));
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: UsdtErrorCode.GATEWAY_AMOUNT_INVALID, message: 'USDT 数量须大于 0、最多 6 位小数，且不超过 1000000000' });
    const { signIssuerPayload } = await import('../../src/lib/issuer-signature.ts');
    const body = JSON.stringify({ address, amount: '1.1234567', confirmations: 1 });
    const direct = await fetch(`${gateway.url}/v1/simulator/deposits`, { method: 'POST', headers: { 'content-type': 'application/json', 'gateway-signature': signIssuerPayload(SECRET, body, new Date()) }, body });
    expect(direct.status).toBe(400);
    expect(((await direct.json()) as { error: string }).error).toContain('最多 6 位小数');
    expect(await usdtRows(who)).toEqual([]);
    expect(await usdOf(who)).toBe('0.00');
  });
});

describe('the USDT reconciliation', () => {
  it('webhook events lost: the job finds the deposit at the gateway and credits it once; a run again and the late event credit nothing more', async () => {
    const who = await customer();
    const made = await simulate(who, '25.5', 20, { lose: true });
    const first = await t.services.usdtReconciler.reconcile({ olderThanSeconds: 300 });
    expect(first.unavailable).toBe(0);
    const [row] = await usdtRows(who);
    expect(row).toMatchObject({ amount: '25.50', status: 'CREDITED', credited_amount: '25.24', confirmations: 20 });
    expect(await usdOf(who)).toBe('25.24');
    const before = await booksSnapshot(t.database.db);

    // again, by the job and the operator's command: nothing new
    await t.services.usdtReconciler.reconcile({ olderThanSeconds: 0 });
    const command = await ops('crypto:reconcile', '--host', 'localhost');
    expect(command.code, command.stderr).toBe(0);
    expect(command.stdout).toMatch(/addresses? listed at merchant/);
    // the lost event, delivered late (the gateway's own retry), and a raise with its event
    const late = await send({ deposit_id: made.depositId, tx_id: made.txId, address: await addressOf(who), amount: '25.5', confirmations: 20, network: 'TRC20' });
    expect(late.body.data).toMatchObject({ status: 'CREDITED', credited: false });
    expect((await raise(made.depositId, 30)).code).toBe(0);
    expect(await booksSnapshot(t.database.db)).toEqual(before);
    expect(await rechargesOf(who)).toEqual([{ reference: `deposit:${row?.id}`, n: 1 }]);
    expect(await usdtRows(who)).toHaveLength(1);
  });

  it('a pending deposit whose later events were lost is read back after its quiet time and credited once', async () => {
    const who = await customer();
    const made = await simulate(who, '40.00', 5);
    // its address listed once: the next runs list it again only in an hour
    await t.services.usdtReconciler.reconcile({ olderThanSeconds: 3_600 });
    expect((await raise(made.depositId, 20, { lose: true })).stdout).toContain('lost on purpose');
    expect((await usdtRows(who))[0]).toMatchObject({ status: 'PENDING', confirmations: 5 });
    // heard of just now: not asked yet
    const early = await t.services.usdtReconciler.reconcile({ olderThanSeconds: 3_600 });
    expect(early.deposits.filter((item) => item.tx_id === made.txId && item.outcome === 'credited')).toEqual([]);
    await t.services.usdtReconciler.reconcile({ olderThanSeconds: 0 });
    expect((await usdtRows(who))[0]).toMatchObject({ status: 'CREDITED', confirmations: 20, credited_amount: '39.60' });
    // the operator's command and many runs at once credit nothing more
    await Promise.all([ops('crypto:reconcile'), t.services.usdtReconciler.reconcile({ olderThanSeconds: null }), t.services.usdtReconciler.reconcile({ olderThanSeconds: null })]);
    expect(await rechargesOf(who)).toEqual([{ reference: expect.stringMatching(/^deposit:/), n: 1 }]);
    expect(await usdOf(who)).toBe('39.60');
    await expectSoundBooks(t.database.db);
  });

  it('a deposit the gateway does not know is left pending and reported as unknown', async () => {
    const who = await customer();
    const address = await addressOf(who);
    const data = depositData(address, 3, { amount: '7.00' });
    expect((await send(data)).status).toBe(200);
    const report = await t.services.usdtReconciler.reconcile({ olderThanSeconds: null });
    expect(report.deposits.find((item) => item.tx_id === data.tx_id)).toMatchObject({ outcome: 'unknown', before: { status: 'PENDING', confirmations: 3 } });
    expect((await usdtRows(who))[0]).toMatchObject({ status: 'PENDING', confirmations: 3 });
  });

  it('a gateway that does not answer is counted, changes nothing, and leaves the address due for the next run', async () => {
    const who = await customer();
    const address = await addressOf(who);
    const merchant = await t.services.merchants.findByHost('localhost');
    const silent = createHttpGateway({ url: `http://127.0.0.1:${await freePort()}`, secret: SECRET, timeoutMs: 2_000 });
    const noJobs = { work() {}, schedule() {}, sendAtStart() {} } as unknown as Parameters<typeof usdtReconcilePart>[2];
    const part = usdtReconcilePart({ db: t.database.db, clock: t.services.clock, gateway: silent }, { applyEvent: t.services.funding.applyGatewayDeposit }, noJobs, { afterSeconds: 300 });
    const before = await booksSnapshot(t.database.db);
    const started = new Date();
    const report = await part.reconcile({ olderThanSeconds: null, allAddresses: true, merchantId: merchant?.id as string });
    expect(report.unavailable).toBeGreaterThan(0);
    expect(report.deposits).toEqual([]);
    // not stamped as listed by this run (the server's own job may have listed it before, at the real gateway)
    const [row] = await queryRows(t.database.db, sql`select checked_at from usdt_addresses where address = ${address}`);
    expect(row?.checked_at === null || new Date(row?.checked_at as string) < started).toBe(true);
    expect(await booksSnapshot(t.database.db)).toEqual(before);
  });
});
