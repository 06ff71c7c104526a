/**
 * The merchant's console: operators made by the command line sign in with a password and a TOTP code
 * (enrolled at the first sign-in, a code accepted once in its step ±1, recovery codes each used once),
 * are locked after repeated wrong answers, expire when idle, call what their role allows on their own
 * merchant's host alone, and every action of theirs (and of the command line) is an audit row.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { AuditItem, ConsoleLoginAnswer, ConsoleOverview } from '@portal/contract/console';
import { CONSOLE_API_BASE, consoleCalls } from '@portal/contract/api/console';
import { ConsoleErrorCode } from '@portal/contract/console-errors';
import { sql } from 'drizzle-orm';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/engine.ts';
import { ManualClock } from '../../src/lib/clock.ts';
import { sha256 } from '../../src/lib/crypto.ts';
import { freshIp, signUp } from '../helpers/accounts.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { runOpsOn as runOpsWith } from '../helpers/ops.ts';
import { queryRows } from '../helpers/sql.ts';

const clock = new ManualClock(new Date('2026-12-02T02:00:10Z'));
/** the command line at the test's time, as the sessions and audit rows it compares with were made */
const runOpsOn = (database: Database, argv: string[]) => runOpsWith(database, argv, {}, clock);
let t: TestApp;
let consoleDist: string;
beforeAll(async () => {
  consoleDist = await mkdtemp(path.join(os.tmpdir(), 'console-dist-'));
  await writeFile(path.join(consoleDist, 'index.html'), '<!doctype html><title>商户控制台</title><div id="root"></div>');
  t = await createTestApp({ clock, config: { consoleDist } });
});
afterAll(() => t?.close());

const C = (p: string) => `/api/console/v1${p}`;
let serial = 0;
const freshOperatorEmail = () => `op${Date.now().toString(36)}${++serial}@ops.example`;

/** `ops operator:create`: the password it prints once. */
async function createOperator(host: string, role: string, email = freshOperatorEmail()) {
  const run = await runOpsOn(t.database, ['operator:create', '--host', host, '--email', email, '--role', role]);
  expect(run.code, run.stderr).toBe(0);
  const password = /password: (\S+)/.exec(run.stdout)?.[1];
  expect(password).toBeDefined();
  return { email, password: password as string, host };
}

const codeAt = (secret: string, at: Date) => generate({ secret, epoch: Math.floor(at.getTime() / 1000) });

async function login(who: { email: string; password: string; host: string }, totp?: string) {
  return t.api(who.host).post<ConsoleLoginAnswer>(C('/auth/login'), { email: who.email, password: who.password, ...(totp ? { totp } : {}) });
}

/** Signs a new operator in for the first time: enrols, and answers the FULL token, the secret and the recovery codes. */
async function enrolled(host: string, role: string) {
  const who = await createOperator(host, role);
  const first = await login(who);
  expect(first.code, first.message).toBe(0);
  const secret = first.data.totp_enrolment?.secret as string;
  const given = await t.api(host, first.data.token).post<{ token: string; recovery_codes: string[] }>(C('/auth/totp'), { code: await codeAt(secret, clock.now()) });
  expect(given.code, given.message).toBe(0);
  clock.advance(30_000);
  return { ...who, secret, token: given.data.token, recovery: given.data.recovery_codes };
}

const auditOf = async (host: string, token: string, query: Record<string, string> = {}) =>
  (await t.api(host, token).data<{ items: AuditItem[]; total: number }>('GET', C('/audit'), { query: { page_size: '100', ...query } })).items;

describe("the console's calls", () => {
  it("are what the server answers under /api/console/v1: the contract's table, and nothing else", () => {
    const registered = t.routes
      .list()
      .filter(({ method, url }) => url.startsWith(`${CONSOLE_API_BASE}/`) && method !== 'HEAD')
      .map(({ method, url }) => `${method} ${url}`);
    expect(registered.sort()).toEqual(Object.values(consoleCalls).map((call) => `${call.method} ${CONSOLE_API_BASE}${call.path}`).sort());
  });

  it('refuse a call without a token, and bad input with the field at fault, changing nothing', async () => {
    expect((await t.api('localhost').get(C('/overview'))).code).toBe(ConsoleErrorCode.SIGN_IN_REQUIRED);
    const bad = await t.api('localhost').post(C('/auth/login'), { email: 'not-an-email', password: 'x' });
    expect(bad.code).toBe(1001);
    expect(bad.message).toBe('请输入正确的邮箱');
    const [{ count }] = (await queryRows<{ count: number }>(t.database.db, sql`select count(*)::int as count from operator_audit where target = 'not-an-email'`)) as [{ count: number }];
    expect(count).toBe(0);
  });
});

describe('enrolment at the first sign-in', () => {
  it('answers a token that can only enrol, then a full token and ten recovery codes for the right code; every step is an audit row', async () => {
    const who = await createOperator('localhost', 'SUPPORT');
    const first = await login(who);
    expect(first.code, first.message).toBe(0);
    expect(first.data.totp_required).toBe(true);
    expect(first.data.totp_enrolment?.otpauth_url).toMatch(/^otpauth:\/\/totp\/.+secret=/);
    const enrolling = t.api('localhost', first.data.token);
    expect((await enrolling.get(C('/overview'))).code).toBe(ConsoleErrorCode.TOTP_REQUIRED);
    expect((await enrolling.post(C('/auth/totp'), { code: '000000' })).code).toBe(ConsoleErrorCode.TOTP_WRONG);
    const secret = first.data.totp_enrolment?.secret as string;
    const given = await enrolling.post<{ token: string; recovery_codes: string[] }>(C('/auth/totp'), { code: await codeAt(secret, clock.now()) });
    expect(given.code, given.message).toBe(0);
    expect(given.data.recovery_codes).toHaveLength(10);
    expect(new Set(given.data.recovery_codes).size).toBe(10);
    // the enrolling token was replaced
    expect((await enrolling.get(C('/me'))).code).toBe(ConsoleErrorCode.SESSION_INVALID);
    const me = await t.api('localhost', given.data.token).data<{ operator: { email: string; totp_enrolled: boolean; role: string }; recovery_codes_left: number }>('GET', C('/me'));
    expect(me).toMatchObject({ operator: { email: who.email, totp_enrolled: true, role: 'SUPPORT' }, recovery_codes_left: 10 });
    // nothing secret is kept as it was given: the secret sealed, tokens and codes hashed
    const [row] = await queryRows<Record<string, unknown>>(t.database.db, sql`select * from operators where email = ${who.email}`);
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(String(row?.password_hash)).toMatch(/^\$argon2id\$/);
    const codes = await queryRows<{ code_hash: string }>(t.database.db, sql`select code_hash from operator_recovery_codes where operator_id = ${row?.id as string}`);
    expect(codes.map((c) => c.code_hash).join()).not.toContain((given.data.recovery_codes[0] as string).replace('-', ''));
    const sessions = await queryRows<{ token_hash: string }>(t.database.db, sql`select token_hash from operator_sessions where operator_id = ${row?.id as string}`);
    expect(sessions.map((s) => s.token_hash)).toContain(sha256(given.data.token));
    const actions = (await auditOf('localhost', given.data.token, { operator_id: row?.id as string })).map((item) => item.action);
    expect(actions).toEqual(['SIGN_IN', 'TOTP_ENROLLED', 'SIGN_IN_FAILED', 'SIGN_IN_PASSWORD']);
    const created = (await auditOf('localhost', given.data.token, { action: 'OPERATOR_CREATED' })).find((item) => item.target === who.email);
    expect(created).toMatchObject({ channel: 'CLI', operator_id: null, after: { email: who.email, role: 'SUPPORT' } });
    expect(created?.actor).toMatch(/^命令行：/);
  });
});

describe('the TOTP code', () => {
  it('is accepted once: the same code again is refused, the next step’s is accepted', async () => {
    const who = await enrolled('localhost', 'FINANCE');
    const code = await codeAt(who.secret, clock.now());
    const once = await login(who, code);
    expect(once.code, once.message).toBe(0);
    expect(once.data.totp_required).toBe(false);
    expect((await login(who, code)).code).toBe(ConsoleErrorCode.TOTP_WRONG);
    // and through the second step of a sign-in too
    const verifying = await login(who);
    expect(verifying.data.totp_required).toBe(true);
    expect((await t.api('localhost', verifying.data.token).post(C('/auth/totp'), { code })).code).toBe(ConsoleErrorCode.TOTP_WRONG);
    clock.advance(30_000);
    expect((await t.api('localhost', verifying.data.token).post(C('/auth/totp'), { code: await codeAt(who.secret, clock.now()) })).code).toBe(0);
  });

  it('is accepted in its 30-second step and one step either side, not two', async () => {
    const who = await enrolled('localhost', 'RISK');
    clock.advance(5 * 60_000);
    const now = clock.now();
    expect((await login(who, await codeAt(who.secret, new Date(now.getTime() - 60_000)))).code).toBe(ConsoleErrorCode.TOTP_WRONG);
    expect((await login(who, await codeAt(who.secret, new Date(now.getTime() - 30_000)))).code).toBe(0);
    expect((await login(who, await codeAt(who.secret, new Date(now.getTime() + 60_000)))).code).toBe(ConsoleErrorCode.TOTP_WRONG);
    expect((await login(who, await codeAt(who.secret, new Date(now.getTime() + 30_000)))).code).toBe(0);
    // a step older than one already used never works after it
    expect((await login(who, await codeAt(who.secret, now))).code).toBe(ConsoleErrorCode.TOTP_WRONG);
  });

  it('can be replaced by a recovery code, each used once', async () => {
    const who = await enrolled('localhost', 'SUPPORT');
    const recovery = who.recovery[3] as string;
    const first = await login(who);
    const used = await t.api('localhost', first.data.token).post<{ token: string }>(C('/auth/totp'), { code: recovery.toLowerCase() });
    expect(used.code, used.message).toBe(0);
    expect((await t.api('localhost', used.data.token).data<{ recovery_codes_left: number }>('GET', C('/me'))).recovery_codes_left).toBe(9);
    const again = await login(who);
    expect((await t.api('localhost', again.data.token).post(C('/auth/totp'), { code: recovery })).code).toBe(ConsoleErrorCode.TOTP_WRONG);
    expect((await auditOf('localhost', used.data.token, { action: 'RECOVERY_CODE_USED' })).some((item) => item.actor === who.email)).toBe(true);
  });
});

describe('lockout', () => {
  it('locks sign-in for 15 minutes after five wrong passwords or codes, warning from the third; the right password then waits', async () => {
    const who = await enrolled('localhost', 'SUPPORT');
    const answers = [];
    for (let i = 0; i < 3; i += 1) answers.push(await login({ ...who, password: 'wrong-password' }));
    answers.push(await login(who, '000000'));
    answers.push(await login({ ...who, password: 'wrong-password' }));
    expect(answers.map((a) => a.code)).toEqual([6005, 6005, 6005, 6009, 6006]);
    expect(answers[2]?.message).toContain('再错 2 次');
    const locked = await login(who, await codeAt(who.secret, clock.now()));
    expect(locked.code).toBe(ConsoleErrorCode.LOCKED);
    expect(locked.status).toBe(429);
    clock.advance(15 * 60_000 + 1_000);
    expect((await login(who, await codeAt(who.secret, clock.now()))).code).toBe(0);
  });
});

describe('sessions', () => {
  it('expire after 30 minutes idle and after 12 hours however active; logout ends one at once', async () => {
    const who = await enrolled('localhost', 'SUPPORT');
    const idle = t.api('localhost', who.token);
    clock.advance(29 * 60_000);
    expect((await idle.get(C('/me'))).code).toBe(0);
    clock.advance(31 * 60_000);
    expect((await idle.get(C('/me'))).code).toBe(ConsoleErrorCode.SESSION_EXPIRED);

    clock.advance(30_000);
    const busy = await login(who, await codeAt(who.secret, clock.now()));
    const signedInAt = clock.now().getTime();
    const active = t.api('localhost', busy.data.token);
    let answer = 0;
    while (answer === 0 && clock.now().getTime() - signedInAt < 13 * 60 * 60_000) {
      clock.advance(29 * 60_000);
      answer = (await active.get(C('/me'))).code;
    }
    expect(answer).toBe(ConsoleErrorCode.SESSION_EXPIRED);
    const lasted = clock.now().getTime() - signedInAt;
    expect(lasted).toBeGreaterThanOrEqual(12 * 60 * 60_000);
    expect(lasted).toBeLessThan(12 * 60 * 60_000 + 29 * 60_000);

    clock.advance(30_000);
    const leaving = t.api('localhost', (await login(who, await codeAt(who.secret, clock.now()))).data.token);
    expect((await leaving.post(C('/auth/logout'))).code).toBe(0);
    expect((await leaving.get(C('/me'))).code).toBe(ConsoleErrorCode.SESSION_INVALID);
    const reader = await enrolled('localhost', 'ADMIN');
    expect((await auditOf('localhost', reader.token, { action: 'SIGN_OUT' })).some((item) => item.actor === who.email)).toBe(true);
  });
});

describe('roles and calls', () => {
  it('lets every role read the overview and the audit log, and ADMIN alone the operators', async () => {
    for (const role of ['SUPPORT', 'FINANCE', 'RISK', 'ADMIN']) {
      const who = await enrolled('purple.localhost', role);
      const client = t.api('purple.localhost', who.token);
      expect((await client.get(C('/overview'))).code, role).toBe(0);
      expect((await client.get(C('/audit'))).code, role).toBe(0);
      const operators = await client.get<{ items: Array<{ email: string }> }>(C('/operators'));
      if (role === 'ADMIN') {
        expect(operators.code).toBe(0);
        expect(operators.data.items.map((item) => item.email)).toContain(who.email);
      } else {
        expect(operators.code, role).toBe(ConsoleErrorCode.ROLE_DENIED);
        expect(operators.status).toBe(403);
        expect(operators.message).toBe('权限不足：仅管理员可以执行此操作');
      }
    }
  });
});

describe('tenants', () => {
  it("keeps one merchant's operators off another's host and out of its audit log", async () => {
    const blue = await enrolled('blue.localhost', 'ADMIN');
    const red = await enrolled('red.localhost', 'ADMIN');
    // the same e-mail and password on another merchant's host is no operator there
    expect((await login({ ...blue, host: 'red.localhost' }, await codeAt(blue.secret, clock.now()))).code).toBe(ConsoleErrorCode.BAD_CREDENTIALS);
    expect((await t.api('red.localhost', blue.token).get(C('/me'))).code).toBe(ConsoleErrorCode.SESSION_INVALID);
    const redAudit = await auditOf('red.localhost', red.token);
    // red's log holds the failed try on its own host (an e-mail that is no operator there), nothing of blue's own
    expect(redAudit.filter((item) => item.target === blue.email || item.actor === blue.email).map((item) => [item.action, item.actor])).toEqual([['SIGN_IN_FAILED', '—']]);
    const blueAudit = await auditOf('blue.localhost', blue.token);
    expect(blueAudit.some((item) => item.actor === red.email || item.target === red.email)).toBe(false);
    const redOperators = await t.api('red.localhost', red.token).data<{ items: Array<{ email: string }> }>('GET', C('/operators'));
    expect(redOperators.items.map((item) => item.email)).not.toContain(blue.email);
    // a host with no merchant has no console, neither its calls nor its page
    expect((await t.api('nobody.example', red.token).get(C('/me'))).code).toBe(1003);
    const page = await t.app.inject({ method: 'GET', url: '/console/', headers: { host: 'nobody.example' } });
    expect(page.statusCode).toBe(404);
    expect(page.body).toContain('没有对应的商户');
    const served = await t.app.inject({ method: 'GET', url: '/console/audit', headers: { host: 'red.localhost' } });
    expect(served.statusCode).toBe(200);
    expect(served.body).toContain('<title>商户控制台</title>');
  });

  it('refuses a customer’s token on console calls and an operator’s token on portal calls', async () => {
    const customer = await signUp(t, 'yellow.localhost');
    const operator = await enrolled('yellow.localhost', 'ADMIN');
    const onConsole = await t.api('yellow.localhost', customer.token).get(C('/overview'));
    expect(onConsole.code).toBe(ConsoleErrorCode.PORTAL_TOKEN_ON_CONSOLE);
    expect(onConsole.status).toBe(401);
    const onPortal = await t.api('yellow.localhost', operator.token).get('/account/info');
    expect(onPortal.code).toBe(ConsoleErrorCode.TOKEN_ON_PORTAL);
    expect((await t.api('yellow.localhost', operator.token).get('/card')).code).toBe(ConsoleErrorCode.TOKEN_ON_PORTAL);
  });
});

describe('the overview', () => {
  it("counts the money the merchant's customers hold per currency", async () => {
    const admin = await enrolled('orange.localhost', 'ADMIN');
    const client = t.api('orange.localhost', admin.token);
    const before = await client.data<ConsoleOverview>('GET', C('/overview'));
    const customer = await signUp(t, 'orange.localhost');
    const run = await runOpsOn(t.database, ['wallet:recharge', '--host', 'orange.localhost', '--account', customer.phone, '--amount', '123.45', '--currency', 'USD']);
    expect(run.code, run.stderr).toBe(0);
    const after = await client.data<ConsoleOverview>('GET', C('/overview'));
    const usd = (o: ConsoleOverview) => Number(o.held.find((row) => row.currency === 'USD')?.wallets ?? '0');
    expect(Math.round((usd(after) - usd(before)) * 100)).toBe(12345);
    expect(after.day).toBe('2026-12-02');
    expect(after.jobs.running.map((row) => row.kind)).toEqual(['CARD_BATCH', 'CARD_EXPORT', 'CARD_BULK']);
  });
});

describe('the command line', () => {
  it('disables and resets an operator, audit-logged, ending their sessions', async () => {
    const admin = await enrolled('localhost', 'ADMIN');
    const who = await enrolled('localhost', 'SUPPORT');
    const reset = await runOpsOn(t.database, ['operator:reset', '--host', 'localhost', '--email', who.email]);
    expect(reset.code, reset.stderr).toBe(0);
    expect((await t.api('localhost', who.token).get(C('/me'))).code).toBe(ConsoleErrorCode.SESSION_INVALID);
    const password = /password: (\S+)/.exec(reset.stdout)?.[1] as string;
    expect((await login({ ...who, password: who.password })).code).toBe(ConsoleErrorCode.BAD_CREDENTIALS);
    const again = await login({ ...who, password });
    expect(again.data.totp_enrolment).toBeDefined();
    const disabled = await runOpsOn(t.database, ['operator:disable', '--host', 'localhost', '--email', who.email]);
    expect(disabled.code, disabled.stderr).toBe(0);
    expect((await login({ ...who, password })).code).toBe(ConsoleErrorCode.OPERATOR_DISABLED);
    const listed = await runOpsOn(t.database, ['operator:list', '--host', 'localhost']);
    expect(listed.stdout).toMatch(new RegExp(`${who.email.replace('.', '\\.')}.*已停用`));
    const rows = (await auditOf('localhost', admin.token)).filter((item) => item.target === who.email);
    expect(rows.map((item) => item.action)).toEqual(['OPERATOR_DISABLED', 'OPERATOR_RESET', 'OPERATOR_CREATED']);
    expect(rows[0]).toMatchObject({ channel: 'CLI', before: { status: 'ACTIVE' }, after: { status: 'DISABLED' } });
    // bad input is refused and changes nothing
    const refused = await runOpsOn(t.database, ['operator:create', '--host', 'localhost', '--email', who.email, '--role', 'BOSS']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('--role must be one of');
    const taken = await runOpsOn(t.database, ['operator:create', '--host', 'localhost', '--email', who.email, '--role', 'ADMIN']);
    expect(taken.code).not.toBe(0);
    expect(taken.stderr).toContain('该邮箱已是本商户的操作员');
  });

  it('exports the audit log as CSV with the same filters, and the export is itself a row', async () => {
    const admin = await enrolled('localhost', 'FINANCE');
    const exported = await t.app.inject({
      method: 'GET',
      url: C('/audit/export'),
      query: { action: 'TOTP_ENROLLED' },
      headers: { host: 'localhost', authorization: `Bearer ${admin.token}` },
      remoteAddress: freshIp(),
    });
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-type']).toContain('text/csv');
    const lines = exported.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('时间,渠道,操作人,操作,对象,变更前,变更后,IP');
    expect(lines.slice(1).every((line) => line.includes('绑定身份验证器'))).toBe(true);
    expect(lines.some((line) => line.includes(admin.email))).toBe(true);
    const rows = await auditOf('localhost', admin.token, { action: 'AUDIT_EXPORTED' });
    expect(rows[0]).toMatchObject({ actor: admin.email, after: { action: 'TOTP_ENROLLED' } });
  });
});
