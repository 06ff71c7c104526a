import { messages } from '@portal/contract/validation';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.ts';
import { freshEmail, freshIp, freshPhone, lastCode, lastMessage, PASSWORD, phoneTo, signIn, signUp } from '../helpers/accounts.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { mailText, startSmtpServer } from '../helpers/smtp.ts';

const NEW_PASSWORD = 'NewPassw0rd';
const clock = new ManualClock(new Date('2026-11-22T08:00:00Z'));
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(() => t.close());

const phoneInfo = (phone: string) => ({ phone, phone_prefix: '86' });
const loginWith = (phone: string, password: string) =>
  t.api().post('/account/login', { phone_info: phoneInfo(phone), password }, { remoteAddress: freshIp() });

describe('password recovery by phone', () => {
  it('code → check → ticket → new password; every old session ends; the ticket works once', async () => {
    const who = await signUp(t);
    const client = t.api();
    const sent = await client.post<{ masked_target: string }>('/account/forget-password/code', { phone_info: phoneInfo(who.phone) }, { remoteAddress: freshIp() });
    expect(sent.code).toBe(0);
    const code = await lastCode(t, phoneTo(who.phone));
    expect((await lastMessage(t, phoneTo(who.phone))).text).toContain('用于重置登录密码');
    const checked = await client.post<{ ticket: string }>('/account/forget-password/check', { phone_info: phoneInfo(who.phone), captcha: code });
    expect(checked.code).toBe(0);
    const reset = await client.put('/account/forget-password', { phone_info: phoneInfo(who.phone), password: NEW_PASSWORD, ticket: checked.data.ticket });
    expect(reset.code).toBe(0);
    expect((await t.api('localhost', who.token).get('/account/info')).code).toBe(608);
    expect((await loginWith(who.phone, PASSWORD)).code).toBe(2009);
    expect((await loginWith(who.phone, NEW_PASSWORD)).code).toBe(0);
    const again = await client.put('/account/forget-password', { phone_info: phoneInfo(who.phone), password: PASSWORD, ticket: checked.data.ticket });
    expect([again.code, again.message]).toEqual([2016, '验证已失效，请重新获取验证码']);
  });

  it('is never authorised by knowing a phone number alone', async () => {
    const who = await signUp(t);
    const noTicket = await t.api().put('/account/forget-password', { phone_info: phoneInfo(who.phone), password: NEW_PASSWORD });
    expect(noTicket.code).toBe(1001);
    const madeUp = await t.api().put('/account/forget-password', { phone_info: phoneInfo(who.phone), password: NEW_PASSWORD, ticket: 'x'.repeat(43) });
    expect(madeUp.code).toBe(2016);
    expect((await loginWith(who.phone, PASSWORD)).code).toBe(0);
  });

  it("a ticket for one phone does not reset another's password, and is not used up by trying", async () => {
    const victim = await signUp(t);
    const attacker = await signUp(t);
    await t.api().post('/account/forget-password/code', { phone_info: phoneInfo(attacker.phone) }, { remoteAddress: freshIp() });
    const { data } = await t.api().post<{ ticket: string }>('/account/forget-password/check', {
      phone_info: phoneInfo(attacker.phone),
      captcha: await lastCode(t, phoneTo(attacker.phone)),
    });
    const crossed = await t.api().put('/account/forget-password', { phone_info: phoneInfo(victim.phone), password: NEW_PASSWORD, ticket: data.ticket });
    expect(crossed.code).toBe(2016);
    expect((await loginWith(victim.phone, PASSWORD)).code).toBe(0);
    const own = await t.api().put('/account/forget-password', { phone_info: phoneInfo(attacker.phone), password: NEW_PASSWORD, ticket: data.ticket });
    expect(own.code).toBe(0);
  });

  it('a ticket expires after 10 minutes', async () => {
    const who = await signUp(t);
    await t.api().post('/account/forget-password/code', { phone_info: phoneInfo(who.phone) }, { remoteAddress: freshIp() });
    const { data } = await t.api().post<{ ticket: string }>('/account/forget-password/check', {
      phone_info: phoneInfo(who.phone),
      captcha: await lastCode(t, phoneTo(who.phone)),
    });
    clock.advance(10 * 60_000 + 1000);
    const late = await t.api().put('/account/forget-password', { phone_info: phoneInfo(who.phone), password: NEW_PASSWORD, ticket: data.ticket });
    expect(late.code).toBe(2016);
  });

  it('tells an unregistered phone and e-mail apart from a registered one', async () => {
    const phone = await t.api().post('/account/forget-password/code', { phone_info: phoneInfo(freshPhone()) }, { remoteAddress: freshIp() });
    expect([phone.code, phone.message]).toEqual([2014, '该手机号未注册']);
    const email = await t.api().post('/account/forget-password/code', { email: freshEmail() }, { remoteAddress: freshIp() });
    expect([email.code, email.message]).toEqual([2015, '该邮箱未绑定账户']);
  });

  it('checks the new password with the sign-up rules', async () => {
    const who = await signUp(t);
    const weak = await t.api().put('/account/forget-password', { phone_info: phoneInfo(who.phone), password: 'short', ticket: 'abc' });
    expect([weak.code, weak.message]).toEqual([1001, messages.passwordTooShort]);
  });
});

describe('password recovery by e-mail, over SMTP', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let mailApp: TestApp;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    mailApp = await createTestApp({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'no-reply@bluewhale.example' } });
  });
  afterAll(async () => {
    await mailApp.close();
    await smtp.close();
  });

  /** signs up on the SMTP app: codes by SMS from the outbox, the e-mail code from the received mail */
  async function signUpBySmtp() {
    const phone = freshPhone();
    const email = freshEmail();
    const client = mailApp.api();
    await client.post('/account/send/code', { send_type: 'SEND_TYPE_PHONE', mark_type: 'MARK_TYPE_REGISTER', phone_info: phoneInfo(phone) }, { remoteAddress: freshIp() });
    const registered = await client.post<{ token: string }>('/account/register', {
      phone_prefix: '86',
      phone,
      password: PASSWORD,
      captcha: await lastCode(mailApp, phoneTo(phone)),
      invitation_code: null,
    });
    const binding = client.withToken(registered.data.token);
    await binding.post('/account/send/code', { send_type: 'SEND_TYPE_EMAIL', mark_type: 'MARK_TYPE_BIND_EMAIL', email }, { remoteAddress: freshIp() });
    const mail = mailText((await smtp.mailTo(email)).raw);
    const code = /验证码为 (\d{6})/.exec(mail)?.[1];
    expect(code).toBeTruthy();
    const bound = await binding.post<{ token: string }>('/account/email/bind', { email, captcha: code });
    expect(bound.code).toBe(0);
    return { phone, email };
  }

  it('mails a reset link that opens /reset-password with email, code and type, and works once', async () => {
    const who = await signUpBySmtp();
    const before = smtp.received.length;
    const sent = await mailApp.api().post('/account/forget-password/code', { email: who.email }, { remoteAddress: freshIp() });
    expect(sent.code).toBe(0);
    await expect.poll(() => smtp.received.length).toBeGreaterThan(before);
    const text = mailText((await smtp.mailTo(who.email)).raw);
    const link = /(http:\/\/localhost:3000\/reset-password\?\S+)/.exec(text)?.[1];
    expect(link).toBeTruthy();
    const url = new URL(link as string);
    expect(url.searchParams.get('email')).toBe(who.email);
    expect(url.searchParams.get('type')).toBe('FORGET_PASSWORD');
    const code = url.searchParams.get('code') as string;
    expect(code).toMatch(/^\d{6}$/);
    const reset = await mailApp.api().put('/account/forget-password', { email: who.email, password: NEW_PASSWORD, captcha: code });
    expect(reset.code).toBe(0);
    const login = await mailApp.api().post('/account/login', { email: who.email, password: NEW_PASSWORD }, { remoteAddress: freshIp() });
    expect(login.code).toBe(0);
    const reuse = await mailApp.api().put('/account/forget-password', { email: who.email, password: PASSWORD, captcha: code });
    expect(reuse.code).toBe(2002);
  });

  it('says whether a link still works when it is opened, without using it up; a used link says so', async () => {
    const who = await signUpBySmtp();
    await mailApp.api().post('/account/forget-password/code', { email: who.email }, { remoteAddress: freshIp() });
    await expect.poll(async () => mailText((await smtp.mailTo(who.email)).raw)).toContain('reset-password');
    const url = new URL(/(http:\/\/localhost:3000\/reset-password\?\S+)/.exec(mailText((await smtp.mailTo(who.email)).raw))?.[1] as string);
    const code = url.searchParams.get('code') as string;
    const look = (captcha: string, type = 'FORGET_PASSWORD', email = who.email) =>
      mailApp.api().post<{ expires_at: string }>('/account/forget-password/link', { email, captcha, type });

    // good, and as often as it is opened: looking costs no try
    for (let n = 0; n < 6; n++) expect((await look(code)).code).toBe(0);
    expect(Number.isNaN(Date.parse((await look(code)).data.expires_at))).toBe(false);
    // a wrong code or the other purpose is refused, and a wrong code counts as a try
    const wrong = await look(code === '000000' ? '111111' : '000000');
    expect([wrong.code, (wrong.data as { remaining?: number }).remaining]).toEqual([2001, 4]);
    expect((await look(code, 'FORGET_TRX_PASSWORD')).code).toBe(2018);
    expect((await look(code, 'FORGET_PASSWORD', freshEmail())).code).toBe(2018);

    // still good for the reset itself; once used, opening the link again says it is spent
    expect((await mailApp.api().put('/account/forget-password', { email: who.email, password: NEW_PASSWORD, captcha: code })).code).toBe(0);
    expect((await look(code)).code).toBe(2002);
  });

  it('resets the trade password with a FORGET_TRX_PASSWORD link and the trade-password rule', async () => {
    const who = await signUpBySmtp();
    await mailApp.api().post('/account/forget-password/code', { email: who.email, type: 'FORGET_TRX_PASSWORD' }, { remoteAddress: freshIp() });
    await expect.poll(async () => mailText((await smtp.mailTo(who.email)).raw)).toContain('FORGET_TRX_PASSWORD');
    const text = mailText((await smtp.mailTo(who.email)).raw);
    expect(text).toContain('重置交易密码');
    const url = new URL(/(http:\/\/localhost:3000\/reset-password\?\S+)/.exec(text)?.[1] as string);
    const code = url.searchParams.get('code') as string;
    const bad = await mailApp.api().put('/account/forget-trx-password', { email: who.email, trx_password: 'abc', captcha: code });
    expect([bad.code, bad.message]).toEqual([1001, messages.tradePassword]);
    const ok = await mailApp.api().put('/account/forget-trx-password', { email: who.email, trx_password: 'Trade123', captcha: code });
    expect(ok.code).toBe(0);
    // a login-password link code does not set the trade password
    const wrongPurpose = await mailApp.api().put('/account/forget-password', { email: who.email, password: NEW_PASSWORD, captcha: code });
    expect(wrongPurpose.code).toBe(2018);
  });
});

describe('recovery cannot cross merchants', () => {
  it("a phone of one merchant is unknown to another merchant's recovery", async () => {
    const who = await signUp(t, 'localhost');
    const answer = await t.api('red.localhost').post('/account/forget-password/code', { phone_info: phoneInfo(who.phone) }, { remoteAddress: freshIp() });
    expect(answer.code).toBe(2014);
    // and a sign-in after recovery still works on its own merchant
    expect((await signIn(t, 'localhost', { phone: who.phone })).token).toBeTruthy();
  });
});
