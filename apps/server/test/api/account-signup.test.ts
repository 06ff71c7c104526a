import { messages } from '@portal/contract/validation';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshEmail, freshIp, freshPhone, lastCode, PASSWORD, phoneTo, signUp } from '../helpers/accounts.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { queryRows } from '../helpers/sql.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const registerCode = (phone: string) => ({ send_type: 'SEND_TYPE_PHONE', mark_type: 'MARK_TYPE_REGISTER', phone_info: { phone, phone_prefix: '86' } });

describe('sign-up', () => {
  it('registers with the SMS code, then the token can only bind an e-mail, which gives a full session', async () => {
    const phone = freshPhone();
    const email = freshEmail();
    const client = t.api();
    const ip = freshIp();
    const sent = await client.post<{ resend_after: number; masked_target: string }>('/account/send/code', registerCode(phone), { remoteAddress: ip });
    expect(sent.code).toBe(0);
    expect(sent.data.resend_after).toBe(60);
    expect(sent.data.masked_target).toBe(`+86 ${phone.slice(0, 3)}****${phone.slice(-4)}`);
    const registered = await client.post<{ token: string }>(
      '/account/register',
      { phone_prefix: '86', phone, password: PASSWORD, captcha: await lastCode(t, phoneTo(phone)), invitation_code: null },
      { remoteAddress: ip },
    );
    expect(registered.code).toBe(0);
    expect(registered.data).toMatchObject({ signed_in: false });
    const binding = client.withToken(registered.data.token);
    const info = await binding.get('/account/info');
    expect([info.status, info.code, info.message]).toEqual([403, 2012, '请先绑定邮箱']);

    await binding.post('/account/send/code', { send_type: 'SEND_TYPE_EMAIL', mark_type: 'MARK_TYPE_BIND_EMAIL', email }, { remoteAddress: ip });
    const bound = await binding.post<{ token: string }>('/account/email/bind', { email, captcha: await lastCode(t, email) });
    expect(bound.code).toBe(0);
    expect(bound.data.token).toBeTruthy();
    const me = await client.withToken(bound.data.token).data<Record<string, unknown>>('GET', '/account/info');
    expect(me).toMatchObject({ email, phone, phone_prefix: '86' });
    expect(typeof me.id).toBe('string');
    // the sign-up token was replaced by the full one
    expect((await binding.get('/account/info')).code).toBe(608);
  });

  it('refuses a code for, and a sign-up with, a phone that already has an account', async () => {
    const { phone } = await signUp(t);
    const again = await t.api().post('/account/send/code', registerCode(phone), { remoteAddress: freshIp() });
    expect([again.code, again.message]).toEqual([2007, '该手机号已注册，请直接登录']);
  });

  it('the same phone may hold one account at each of two merchants', async () => {
    const phone = freshPhone();
    await signUp(t, 'localhost', { phone });
    const other = await signUp(t, 'orange.localhost', { phone });
    const me = await t.api('orange.localhost', other.token).data<{ phone: string }>('GET', '/account/info');
    expect(me.phone).toBe(phone);
  });

  it('answers the form messages of spec §5 for bad input and creates nothing', async () => {
    const client = t.api();
    const cases: [Record<string, unknown>, string][] = [
      [{ phone: '', password: PASSWORD }, messages.required],
      [{ phone: '12345678901', password: PASSWORD }, messages.phoneFormat],
      [{ phone: '1381234567', password: PASSWORD }, messages.phoneFormat],
      [{ password: 'Ab1' }, messages.passwordTooShort],
      [{ password: 'Abcdefgh12345678X' }, messages.passwordTooLong],
      [{ password: 'abcdefgh1' }, messages.passwordPattern],
      [{ password: 'Abcdefg!1' }, messages.passwordPattern],
      [{ captcha: '12345' }, messages.code],
      [{ invitation_code: 'AB1' }, messages.invitationCode],
      [{ invitation_code: 'AB!1' }, messages.invitationCode],
    ];
    for (const [override, message] of cases) {
      const phone = freshPhone();
      const body = { phone_prefix: '86', phone, password: PASSWORD, captcha: '123456', invitation_code: null, ...override };
      const answer = await client.post('/account/register', body);
      expect([answer.status, answer.code, answer.message], JSON.stringify(override)).toEqual([400, 1001, message]);
    }
    const [row] = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from accounts`);
    const before = row?.n;
    expect((await client.post('/account/register', { phone_prefix: '86', phone: freshPhone(), password: 'weak', captcha: '123456' })).code).toBe(1001);
    const [after] = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from accounts`);
    expect(after?.n).toBe(before);
  });

  it('refuses a sign-up before any code was requested', async () => {
    const answer = await t.api().post('/account/register', { phone_prefix: '86', phone: freshPhone(), password: PASSWORD, captcha: '123456', invitation_code: null });
    expect([answer.code, answer.message]).toEqual([2018, '请先获取验证码']);
  });

  it('ties the account to the customer manager of the invitation code, in any letter case', async () => {
    const { phone } = await signUp(t, 'localhost', { invitation: 'bl01' });
    const rows = await queryRows<{ invitation_code: string }>(t.database.db, sql`select m.invitation_code from accounts a join customer_managers m on m.id = a.manager_id join members o on o.account_id = a.id where o.phone = ${phone}`);
    expect(rows).toEqual([{ invitation_code: 'BL01' }]);
  });

  it("refuses an unknown invitation code, and another merchant's, without using the SMS code", async () => {
    const phone = freshPhone();
    const ip = freshIp();
    await t.api().post('/account/send/code', registerCode(phone), { remoteAddress: ip });
    const code = await lastCode(t, phoneTo(phone));
    for (const invitation of ['ZZ99', 'OR01']) {
      const answer = await t.api().post('/account/register', { phone_prefix: '86', phone, password: PASSWORD, captcha: code, invitation_code: invitation });
      expect([answer.code, answer.message]).toEqual([2013, '邀请码不存在']);
    }
    const ok = await t.api().post('/account/register', { phone_prefix: '86', phone, password: PASSWORD, captcha: code, invitation_code: null });
    expect(ok.code).toBe(0);
  });

  it('refuses binding an e-mail that another account of the merchant has', async () => {
    const first = await signUp(t);
    const phone = freshPhone();
    const ip = freshIp();
    await t.api().post('/account/send/code', registerCode(phone), { remoteAddress: ip });
    const registered = await t.api().post<{ token: string }>('/account/register', {
      phone_prefix: '86',
      phone,
      password: PASSWORD,
      captcha: await lastCode(t, phoneTo(phone)),
      invitation_code: null,
    });
    const answer = await t
      .api('localhost', registered.data.token)
      .post('/account/send/code', { send_type: 'SEND_TYPE_EMAIL', mark_type: 'MARK_TYPE_BIND_EMAIL', email: first.email.toUpperCase() }, { remoteAddress: ip });
    expect([answer.code, answer.message]).toEqual([2008, '该邮箱已被其他账户绑定']);
  });

  it('a full session cannot bind a second e-mail', async () => {
    const { token } = await signUp(t);
    const answer = await t.api('localhost', token).post('/account/email/bind', { email: freshEmail(), captcha: '123456' });
    expect([answer.status, answer.code, answer.message]).toEqual([409, 2017, '账户已绑定邮箱']);
  });
});
