import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshIp, freshPhone, lastCode, PASSWORD, phoneTo, signUp } from '../helpers/accounts.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { queryRows } from '../helpers/sql.ts';

// PGlite has one connection and would hide these races: this file runs on PostgreSQL only
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('one correct code submitted twice at the same moment', () => {
  it('gives exactly one session at the second verification', async () => {
    for (let round = 0; round < 5; round++) {
      const who = await signUp(t);
      const login = await t.api().post<{ token: string }>('/account/login', { phone_info: { phone: who.phone, phone_prefix: '86' }, password: PASSWORD }, { remoteAddress: freshIp() });
      const verifying = t.api('localhost', login.data.token);
      await verifying.post('/account/send/code-auto', { send_type: 'SEND_TYPE_PHONE', mark_type: 'MARK_TYPE_ACCESS' }, { remoteAddress: freshIp() });
      const code = await lastCode(t, phoneTo(who.phone));
      const body = { captcha: code, thirty_day: false, send_type: 'SEND_TYPE_PHONE' };
      const answers = await Promise.all([verifying.post('/account/login/code/check', body), verifying.post('/account/login/code/check', body)]);
      expect(answers.filter((a) => a.code === 0)).toHaveLength(1);
      const rows = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from sessions s join members a on a.id = s.member_id where a.phone = ${who.phone} and s.stage = 'FULL' and s.revoked_at is null`);
      // the full session of the sign-up, and exactly one from this sign-in
      expect(rows[0]?.n).toBe(2);
    }
  });

  it('registers one account', async () => {
    const phone = freshPhone();
    await t.api().post('/account/send/code', { send_type: 'SEND_TYPE_PHONE', mark_type: 'MARK_TYPE_REGISTER', phone_info: { phone, phone_prefix: '86' } }, { remoteAddress: freshIp() });
    const code = await lastCode(t, phoneTo(phone));
    const body = { phone_prefix: '86', phone, password: PASSWORD, captcha: code, invitation_code: null };
    const answers = await Promise.all([1, 2, 3].map(() => t.api().post('/account/register', body)));
    expect(answers.filter((a) => a.code === 0)).toHaveLength(1);
    const rows = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from members where phone = ${phone}`);
    expect(rows[0]?.n).toBe(1);
  });

  it('five wrong tries at once still burn the code', async () => {
    const phone = freshPhone();
    await t.api().post('/account/send/code', { send_type: 'SEND_TYPE_PHONE', mark_type: 'MARK_TYPE_REGISTER', phone_info: { phone, phone_prefix: '86' } }, { remoteAddress: freshIp() });
    const code = await lastCode(t, phoneTo(phone));
    const wrong = String((Number(code) + 7) % 1_000_000).padStart(6, '0');
    const body = (captcha: string) => ({ phone_prefix: '86', phone, password: PASSWORD, captcha, invitation_code: null });
    await Promise.all(Array.from({ length: 8 }, () => t.api().post('/account/register', body(wrong))));
    expect((await t.api().post('/account/register', body(code))).code).toBe(2003);
  });
});

describe('the password lockout under a storm of parallel sign-ins', () => {
  const login = (phone: string, password: string) =>
    t.api().post('/account/login', { phone_info: { phone, phone_prefix: '86' }, password }, { remoteAddress: freshIp() });

  it('checks at most five passwords in the window, however many tries arrive at once', async () => {
    const who = await signUp(t);
    const answers = await Promise.all(Array.from({ length: 200 }, () => login(who.phone, 'Wrong1234x')));
    const codes = answers.map((answer) => answer.code);
    // five were checked and found wrong: four say so, the fifth answers the lock it set; every other
    // try was refused by the lock without a check
    expect(codes.filter((code) => code === 2009)).toHaveLength(4);
    expect(codes.filter((code) => code === 2010)).toHaveLength(196);
    // and the right password, too, waits for the lock to end
    expect((await login(who.phone, PASSWORD)).code).toBe(2010);
  });

  it('lets the right password through only as one of those five checks', async () => {
    for (let round = 0; round < 3; round++) {
      const who = await signUp(t);
      // the right password at #61 and #151 of 200 at once
      const passwords = Array.from({ length: 200 }, (_, index) => (index === 60 || index === 150 ? PASSWORD : 'Wrong1234x'));
      const codes = (await Promise.all(passwords.map((password) => login(who.phone, password)))).map((answer) => answer.code);
      const checked = codes.filter((code) => code === 0 || code === 2009).length;
      expect(checked).toBeLessThanOrEqual(5);
      expect(codes.filter((code) => code !== 0 && code !== 2009 && code !== 2010)).toEqual([]);
    }
  });
});
