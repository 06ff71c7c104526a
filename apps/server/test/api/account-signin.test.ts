import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoAccount } from '../../src/demo-data.ts';
import { ManualClock } from '../../src/lib/clock.ts';
import { freshEmail, freshIp, freshPhone, lastCode, PASSWORD, phoneTo, signIn, signUp } from '../helpers/accounts.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { queryRows } from '../helpers/sql.ts';

let t: TestApp;
const clock = new ManualClock(new Date('2026-11-22T08:00:00Z'));
beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(() => t.close());

const login = (host: string, body: object, headers: Record<string, string> = {}) =>
  t.api(host).post<{ token: string; email: string | null; check: boolean }>('/account/login', body, { headers, remoteAddress: freshIp() });

describe('sign-in', () => {
  it('a new device must pass the second verification; until then the token does nothing else', async () => {
    const who = await signUp(t);
    const answer = await login('localhost', { phone_info: { phone: who.phone, phone_prefix: '86' }, password: who.password });
    expect(answer.code).toBe(0);
    expect(answer.data).toMatchObject({ email: who.email, check: true });
    const verifying = t.api('localhost', answer.data.token);
    for (const [method, path] of [['GET', '/account/info'], ['GET', '/account/devices']] as const) {
      const refused = await verifying.request(method, path);
      expect([refused.status, refused.code, refused.message]).toEqual([403, 2011, '请先完成登录安全验证']);
    }
    const bind = await verifying.post('/account/email/bind', { email: 'x@y.zz', captcha: '123456' });
    expect(bind.code).toBe(2011);

    await verifying.post('/account/send/code-auto', { send_type: 'SEND_TYPE_PHONE', mark_type: 'MARK_TYPE_ACCESS' }, { remoteAddress: freshIp() });
    const code = await lastCode(t, phoneTo(who.phone));
    const checked = await verifying.post<{ token: string; email: string }>('/account/login/code/check', { captcha: code, thirty_day: false, send_type: 'SEND_TYPE_PHONE' });
    expect(checked.code).toBe(0);
    expect(checked.data.email).toBe(who.email);
    expect(checked.headers['set-cookie']).toBeUndefined();
    const me = await t.api('localhost', checked.data.token).data<{ phone: string }>('GET', '/account/info');
    expect(me.phone).toBe(who.phone);
    expect((await verifying.get('/account/info')).code).toBe(608);
  });

  it('signs in by e-mail, with the access code sent to that e-mail', async () => {
    const who = await signUp(t);
    const { token, login: first } = await signIn(t, 'localhost', { email: who.email });
    expect(first.data.check).toBe(true);
    expect((await t.api('localhost', token).get('/account/info')).code).toBe(0);
    // e-mail addresses match without regard to case
    expect((await login('localhost', { email: who.email.toUpperCase(), password: PASSWORD })).code).toBe(0);
  });

  it('30天内此设备免验证: the device skips the check for 30 days and not after', async () => {
    const who = await signUp(t);
    const trusted = await signIn(t, 'localhost', { phone: who.phone }, { thirtyDay: true });
    expect(trusted.cookie).toMatch(/^portal_device=/);
    const cookie = trusted.cookie as string;
    clock.advance(29 * 24 * 3600_000);
    const again = await login('localhost', { phone_info: { phone: who.phone, phone_prefix: '86' }, password: PASSWORD }, { cookie });
    expect(again.data.check).toBe(false);
    expect((await t.api('localhost', again.data.token).get('/account/info')).code).toBe(0);
    // the secret is good for this account only
    const other = await signUp(t);
    const foreign = await login('localhost', { phone_info: { phone: other.phone, phone_prefix: '86' }, password: PASSWORD }, { cookie });
    expect(foreign.data.check).toBe(true);
    clock.advance(1 * 24 * 3600_000 + 1000);
    const expired = await login('localhost', { phone_info: { phone: who.phone, phone_prefix: '86' }, password: PASSWORD }, { cookie });
    expect(expired.data.check).toBe(true);
  });

  it('lists trusted devices and stops trusting a revoked one', async () => {
    const who = await signUp(t);
    const trusted = await signIn(t, 'localhost', { phone: who.phone }, { thirtyDay: true });
    const cookie = trusted.cookie as string;
    const client = t.api('localhost', trusted.token);
    const devices = await client.data<{ id: string; current: boolean }[]>('GET', '/account/devices', { headers: { cookie } });
    expect(devices).toHaveLength(1);
    expect(devices[0]?.current).toBe(true);
    expect((await client.delete(`/account/devices/${devices[0]?.id}`)).code).toBe(0);
    expect((await client.delete(`/account/devices/${devices[0]?.id}`)).code).toBe(2019);
    const next = await login('localhost', { phone_info: { phone: who.phone, phone_prefix: '86' }, password: PASSWORD }, { cookie });
    expect(next.data.check).toBe(true);
  });

  it('five wrong passwords lock password sign-in for 15 minutes; the third and fourth say how many tries are left', async () => {
    const who = await signUp(t);
    const body = (password: string) => ({ phone_info: { phone: who.phone, phone_prefix: '86' }, password });
    const refusals = [];
    for (let i = 0; i < 4; i++) {
      const answer = await login('localhost', body('Wrong1234'));
      refusals.push([answer.status, answer.code, answer.message, answer.data]);
    }
    expect(refusals).toEqual([
      [400, 2009, '账号或密码错误', null],
      [400, 2009, '账号或密码错误', null],
      [400, 2009, '账号或密码错误，再错2次将锁定15分钟', { remaining: 2 }],
      [400, 2009, '账号或密码错误，再错1次将锁定15分钟', { remaining: 1 }],
    ]);
    const fifth = await login('localhost', body('Wrong1234'));
    expect([fifth.status, fifth.code, fifth.message]).toEqual([429, 2010, '密码错误次数过多，账户已锁定，请15分钟后再试']);
    const right = await login('localhost', body(PASSWORD));
    expect(right.code).toBe(2010);
    clock.advance(14 * 60_000);
    expect((await login('localhost', body(PASSWORD))).message).toBe('密码错误次数过多，账户已锁定，请1分钟后再试');
    clock.advance(60_000 + 1000);
    expect((await login('localhost', body(PASSWORD))).code).toBe(0);
  });

  it('wrong passwords spread over more than 15 minutes do not lock', async () => {
    const who = await signUp(t);
    const body = (password: string) => ({ phone_info: { phone: who.phone, phone_prefix: '86' }, password });
    for (let i = 0; i < 4; i++) expect((await login('localhost', body('Wrong1234'))).code).toBe(2009);
    clock.advance(16 * 60_000);
    // a new window: the first failure in it, with no warning
    expect(await login('localhost', body('Wrong1234'))).toMatchObject({ code: 2009, message: '账号或密码错误' });
    expect((await login('localhost', body(PASSWORD))).code).toBe(0);
  });

  it('an unknown account and a wrong password answer alike', async () => {
    const unknown = await login('localhost', { phone_info: { phone: '13100000000', phone_prefix: '86' }, password: PASSWORD });
    expect([unknown.status, unknown.code, unknown.message]).toEqual([400, 2009, '账号或密码错误']);
  });

  it('the lock does not tell accounts from unknown phones and e-mails: seven wrong passwords answer alike, also past the IP cap', async () => {
    const who = await signUp(t);
    const seven = async (body: (password: string) => object, ip: string) => {
      const answers = [];
      for (let i = 0; i < 7; i++) {
        const answer = await t.api().post('/account/login', body('Wrong1234'), { remoteAddress: ip });
        answers.push([answer.status, answer.code, answer.message, answer.data]);
      }
      return answers;
    };
    const byPhone = (phone: string) => (password: string) => ({ phone_info: { phone, phone_prefix: '86' }, password });
    const byEmail = (email: string) => (password: string) => ({ email, password });
    const known = await seven(byPhone(who.phone), freshIp());
    expect(known.map(([, code]) => code)).toEqual([2009, 2009, 2009, 2009, 2010, 2010, 2010]);
    expect(await seven(byPhone(freshPhone()), freshIp())).toEqual(known);
    expect(await seven(byEmail(freshEmail()), freshIp())).toEqual(known);
    // the e-mail's case is no other identifier: the unknown one stays locked as the account would
    const unknownEmail = freshEmail();
    await seven(byEmail(unknownEmail), freshIp());
    const upper = await login('localhost', byEmail(unknownEmail.toUpperCase())(PASSWORD));
    expect(upper.code).toBe(2010);

    // an address past the code cap (answers that tell whether an account exists): sign-in still answers alike
    const capped = freshIp();
    for (let i = 0; i < 30; i++) await t.api().post('/account/forget-password/code', { phone_info: { phone: freshPhone(), phone_prefix: '86' } }, { remoteAddress: capped });
    const refused = await t.api().post('/account/forget-password/code', { phone_info: { phone: freshPhone(), phone_prefix: '86' } }, { remoteAddress: capped });
    expect(refused.code).toBe(2006);
    const other = await signUp(t);
    const knownCapped = await seven(byPhone(other.phone), capped);
    expect(knownCapped).toEqual(known);
    expect(await seven(byPhone(freshPhone()), capped)).toEqual(knownCapped);

    // 15 minutes on, both are unlocked again and counted from one
    clock.advance(15 * 60_000 + 1000);
    const unknownPhone = freshPhone();
    await seven(byPhone(unknownPhone), freshIp());
    clock.advance(15 * 60_000 + 1000);
    const again = await login('localhost', byPhone(unknownPhone)('Wrong1234'));
    expect([again.code, again.message]).toEqual([2009, '账号或密码错误']);
    expect((await login('localhost', byPhone(who.phone)(PASSWORD))).code).toBe(0);
  });

  it('keeps no unknown phone or e-mail in clear', async () => {
    const phone = freshPhone();
    const email = freshEmail();
    await login('localhost', { phone_info: { phone, phone_prefix: '86' }, password: 'Wrong1234' });
    await login('localhost', { email, password: 'Wrong1234' });
    const rows = await queryRows<{ row: string }>(t.database.db, sql`select row_to_json(u)::text as row from unknown_sign_ins u`);
    expect(rows.length).toBeGreaterThanOrEqual(2);
    for (const { row } of rows) {
      expect(row).not.toContain(phone);
      expect(row).not.toContain(email);
    }
  });

  it('logout ends the session at once', async () => {
    const who = await signUp(t);
    const client = t.api('localhost', who.token);
    expect((await client.delete('/account/login')).code).toBe(0);
    const after = await client.get('/account/info');
    expect([after.status, after.code, after.message]).toEqual([401, 608, '登录已失效，请重新登录']);
  });

  it('answers each session code for its own reason', async () => {
    const missing = await t.api().get('/account/info');
    expect([missing.status, missing.code, missing.message]).toEqual([401, 605, '请先登录']);
    const unknown = await t.api('localhost', 'not-a-token').get('/account/info');
    expect([unknown.code, unknown.message]).toEqual([606, '登录状态无效，请重新登录']);
    const who = await signUp(t);
    clock.advance(7 * 24 * 3600_000 + 60_000);
    const expired = await t.api('localhost', who.token).get('/account/info');
    expect([expired.code, expired.message]).toEqual([607, '登录已过期，请重新登录']);
    const active = await signUp(t);
    await t.database.db.execute(sql`update accounts set status = 'DISABLED' where id = (select account_id from members where phone = ${active.phone})`);
    const disabled = await t.api('localhost', active.token).get('/account/info');
    expect([disabled.status, disabled.code, disabled.message]).toEqual([403, 1000, '账户已被停用，请联系客服']);
  });

  it('a session in use stays alive past 7 days of total age', async () => {
    const who = await signUp(t);
    const client = t.api('localhost', who.token);
    for (let day = 0; day < 9; day++) {
      clock.advance(24 * 3600_000);
      expect((await client.get('/account/info')).code).toBe(0);
    }
  });

  it("an account of one merchant cannot sign in on another merchant's host, nor use its token there", async () => {
    const who = await signUp(t, 'localhost');
    const elsewhere = await login('orange.localhost', { phone_info: { phone: who.phone, phone_prefix: '86' }, password: PASSWORD });
    expect(elsewhere.code).toBe(2009);
    const foreignToken = await t.api('orange.localhost', who.token).get('/account/info');
    expect(foreignToken.code).toBe(606);
  });

  it('the demo account signs in on each demo merchant with the README credentials', async () => {
    for (const host of ['localhost', 'orange.localhost', 'purple.localhost', 'red.localhost', 'yellow.localhost']) {
      const answer = await login(host, { phone_info: { phone: demoAccount.phone, phone_prefix: '86' }, password: demoAccount.password });
      expect(answer.code, host).toBe(0);
      expect(answer.data.email).toMatch(/^demo@/);
    }
  });

  it('keeps only hashes of session tokens and device secrets', async () => {
    const who = await signUp(t);
    const trusted = await signIn(t, 'localhost', { phone: who.phone }, { thirtyDay: true });
    const secret = (trusted.cookie as string).split('=')[1] as string;
    const sessions = JSON.stringify(await queryRows(t.database.db, sql`select * from sessions`));
    const devices = JSON.stringify(await queryRows(t.database.db, sql`select * from trusted_devices`));
    for (const token of [who.token, who.registerToken, trusted.token]) expect(sessions).not.toContain(token);
    expect(devices).not.toContain(secret);
    const passwords = JSON.stringify(await queryRows(t.database.db, sql`select password_hash from members`));
    expect(passwords).not.toContain(PASSWORD);
    expect(passwords).toContain('$argon2id$');
  });
});

describe('an account without an e-mail', () => {
  it('signs in to a session that can only bind one, after the second verification', async () => {
    const who = await signUp(t);
    await t.database.db.execute(sql`update members set email = null where phone = ${who.phone}`);
    const answer = await login('localhost', { phone_info: { phone: who.phone, phone_prefix: '86' }, password: PASSWORD });
    expect(answer.data).toMatchObject({ email: null, check: true });
    const verifying = t.api('localhost', answer.data.token);
    await verifying.post('/account/send/code-auto', { send_type: 'SEND_TYPE_PHONE', mark_type: 'MARK_TYPE_ACCESS' }, { remoteAddress: freshIp() });
    const refusedMail = await verifying.post('/account/send/code-auto', { send_type: 'SEND_TYPE_EMAIL', mark_type: 'MARK_TYPE_ACCESS' }, { remoteAddress: freshIp() });
    expect(refusedMail.code).toBe(2020);
    const checked = await verifying.post<{ token: string; email: null }>('/account/login/code/check', {
      captcha: await lastCode(t, phoneTo(who.phone)),
      thirty_day: false,
      send_type: 'SEND_TYPE_PHONE',
    });
    expect(checked.data.email).toBeNull();
    expect((await t.api('localhost', checked.data.token).get('/account/info')).code).toBe(2012);
  });
});
