import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../src/config.ts';
import { ManualClock } from '../../src/lib/clock.ts';
import { keyedHash, sha256 } from '../../src/lib/crypto.ts';
import { freshIp, freshPhone, lastCode, PASSWORD, phoneTo, signUp } from '../helpers/accounts.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { queryRows } from '../helpers/sql.ts';

let t: TestApp;
const clock = new ManualClock(new Date('2026-11-22T08:00:00Z'));
beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(() => t.close());

const send = (phone: string, ip = freshIp()) =>
  t.api().post<{ retry_after?: number }>(
    '/account/send/code',
    { send_type: 'SEND_TYPE_PHONE', mark_type: 'MARK_TYPE_REGISTER', phone_info: { phone, phone_prefix: '86' } },
    { remoteAddress: ip },
  );
const register = (phone: string, captcha: string) =>
  t.api().post<{ token: string; remaining?: number }>('/account/register', { phone_prefix: '86', phone, password: PASSWORD, captcha, invitation_code: null });
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('one-time codes', () => {
  it('five wrong tries burn the code: even the right code fails after them', async () => {
    const phone = freshPhone();
    await send(phone);
    const code = await lastCode(t, phoneTo(phone));
    for (let remaining = 4; remaining >= 1; remaining--) {
      const answer = await register(phone, wrong(code));
      expect([answer.code, answer.message, (answer.data as { remaining: number }).remaining]).toEqual([2001, `验证码错误，还可尝试${remaining}次`, remaining]);
    }
    const fifth = await register(phone, wrong(code));
    expect([fifth.code, fifth.message]).toEqual([2003, '验证码错误次数过多，请重新获取']);
    const right = await register(phone, code);
    expect(right.code).toBe(2003);
  });

  it('a code works once', async () => {
    const phone = freshPhone();
    await send(phone);
    const code = await lastCode(t, phoneTo(phone));
    expect((await register(phone, code)).code).toBe(0);
    // the account exists now; the same code for a recovery check is not accepted either
    const again = await t.api().post('/account/forget-password/check', { phone_info: { phone, phone_prefix: '86' }, captcha: code });
    expect(again.code).toBe(2018);
  });

  it('a code expires after 10 minutes', async () => {
    const phone = freshPhone();
    await send(phone);
    const code = await lastCode(t, phoneTo(phone));
    clock.advance(10 * 60_000 + 1000);
    const answer = await register(phone, code);
    expect([answer.code, answer.message]).toEqual([2002, '验证码已失效，请重新获取']);
  });

  it('a new code for the same target is refused inside 60 s, with the seconds to wait, and sends nothing', async () => {
    const phone = freshPhone();
    expect((await send(phone)).code).toBe(0);
    const first = await lastCode(t, phoneTo(phone));
    clock.advance(20_000);
    const early = await send(phone);
    expect([early.status, early.code, early.message, early.data]).toEqual([429, 2004, '验证码发送过于频繁，请40秒后再试', { retry_after: 40 }]);
    expect(await lastCode(t, phoneTo(phone))).toBe(first);
    clock.advance(40_000);
    expect((await send(phone)).code).toBe(0);
  });

  it('a newer code replaces the older one', async () => {
    const phone = freshPhone();
    await send(phone);
    const older = await lastCode(t, phoneTo(phone));
    clock.advance(61_000);
    await send(phone);
    const newer = await lastCode(t, phoneTo(phone));
    if (older !== newer) expect((await register(phone, older)).code).toBe(2001);
    expect((await register(phone, newer)).code).toBe(0);
  });

  it('at most 10 codes a target a day', async () => {
    const phone = freshPhone();
    for (let i = 0; i < 10; i++) {
      expect((await send(phone)).code).toBe(0);
      clock.advance(61_000);
    }
    const eleventh = await send(phone);
    expect([eleventh.status, eleventh.code]).toEqual([429, 2005]);
    expect(eleventh.message).toMatch(/^今日验证码发送次数已达上限，请\d+秒后再试$/);
    const wait = (eleventh.data as { retry_after: number }).retry_after;
    expect(wait).toBeGreaterThan(23 * 3600);
    clock.advance(wait * 1000);
    expect((await send(phone)).code).toBe(0);
  });

  it('at most 30 codes from one IP address in 5 minutes', async () => {
    clock.advance(10 * 60_000);
    const ip = freshIp();
    for (let i = 0; i < 30; i++) expect((await send(freshPhone(), ip)).code).toBe(0);
    const phone = freshPhone();
    const refused = await send(phone, ip);
    expect([refused.status, refused.code]).toEqual([429, 2006]);
    expect(refused.message).toMatch(/^当前网络请求验证码过于频繁，请\d+秒后再试$/);
    const sent = await t.api().get('/api/dev/outbox', { query: { to: phoneTo(phone) } });
    expect(sent.body).toEqual([]);
    // another address is not affected
    expect((await send(phone)).code).toBe(0);
  });

  it('counts answers that tell whether an account exists against the IP cap, and past it answers the cap', async () => {
    clock.advance(10 * 60_000);
    const registered = await signUp(t);
    const ip = freshIp();
    // a sign-up code for a registered phone says so, and counts like a code sent
    for (let i = 0; i < 20; i++) expect((await send(registered.phone, ip)).code).toBe(2007);
    // a recovery for a phone or an e-mail nobody registered says so, and counts too
    const recover = (body: object) => t.api().post('/account/forget-password/code', body, { remoteAddress: ip });
    for (let i = 0; i < 5; i++) expect((await recover({ phone_info: { phone: freshPhone(), phone_prefix: '86' } })).code).toBe(2014);
    for (let i = 0; i < 5; i++) expect((await recover({ email: `nobody${i}-${Date.now()}@mail.example` })).code).toBe(2015);
    // thirty asked: from here every answer is the cap's, whether the account exists or not
    for (const answer of [
      await send(registered.phone, ip),
      await send(freshPhone(), ip),
      await recover({ phone_info: { phone: freshPhone(), phone_prefix: '86' } }),
      await recover({ phone_info: { phone: registered.phone, phone_prefix: '86' } }),
    ]) {
      expect([answer.status, answer.code]).toEqual([429, 2006]);
    }
    // another address is not held back by this one
    expect((await send(registered.phone, freshIp())).code).toBe(2007);
  });

  it('keeps no code in clear text', async () => {
    const phone = freshPhone();
    await send(phone);
    const code = await lastCode(t, phoneTo(phone));
    const rows = await queryRows(t.database.db, sql`select * from verification_codes where target = ${`phone:86:${phone}`}`);
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(code);
  });

  it('keeps a code as a keyed hash: the table and its row id alone do not give the code away', async () => {
    const phone = freshPhone();
    await send(phone);
    const code = await lastCode(t, phoneTo(phone));
    const [row] = await queryRows<{ id: string; code_hash: string }>(
      t.database.db,
      sql`select id, code_hash from verification_codes where target = ${`phone:86:${phone}`}`,
    );
    if (!row) throw new Error('no code row');
    // the plain hash of the row id and the code, which anyone could try the million codes against, is not it
    expect(row.code_hash).not.toBe(sha256(`${row.id}:${code}`));
    expect(row.code_hash).toBe(keyedHash(t.services.codeHashKey(), `${row.id}:${code}`));
    // the key is the server's: made in DATA_DIR outside production, readable by its user only
    const keyFile = path.join(t.dataDir, 'secrets', 'code-hash.key');
    expect(readFileSync(keyFile, 'utf8').trim()).toBe(t.services.codeHashKey());
    expect(statSync(keyFile).mode & 0o077).toBe(0);
    expect(t.services.codeHashKey()).toMatch(/^[0-9a-f]{64}$/);
  });

  it('keeps the reset ticket of a phone recovery as a keyed hash too', async () => {
    const who = await signUp(t);
    await t.api().post('/account/forget-password/code', { phone_info: { phone: who.phone, phone_prefix: '86' } }, { remoteAddress: freshIp() });
    const checked = await t.api().post<{ ticket: string }>('/account/forget-password/check', {
      phone_info: { phone: who.phone, phone_prefix: '86' },
      captcha: await lastCode(t, phoneTo(who.phone)),
    });
    const rows = await queryRows<{ ticket_hash: string }>(t.database.db, sql`select ticket_hash from reset_tickets order by created_at desc limit 1`);
    expect(rows[0]?.ticket_hash).not.toBe(sha256(checked.data.ticket));
    expect(JSON.stringify(rows)).not.toContain(checked.data.ticket);
  });
});

describe('the key of the codes in production', () => {
  it('is required: the server does not start without CODE_HASH_KEY, nor with a short one', () => {
    const production = {
      NODE_ENV: 'production',
      SMTP_URL: 'smtp://127.0.0.1:1',
      CARD_DATA_KEY: 'dGVzdC1vbmx5LWNhcmQtZGF0YS1rZXktMzItYnl0ZXM=',
      ISSUER_WEBHOOK_SECRET: 'test-only-issuer-webhook-secret-of-32-chars',
      SMS_PROVIDER: 'aliyun',
      ALIYUN_SMS_ACCESS_KEY_ID: 'id',
      ALIYUN_SMS_ACCESS_KEY_SECRET: 'secret',
      ALIYUN_SMS_SIGN_NAME: '签名',
      ALIYUN_SMS_TEMPLATE_REGISTER: 'SMS_1',
      ALIYUN_SMS_TEMPLATE_ACCESS: 'SMS_2',
      ALIYUN_SMS_TEMPLATE_RESET_PASSWORD: 'SMS_3',
      ALIYUN_SMS_TEMPLATE_INVITATION: 'SMS_4',
    };
    expect(() => loadConfig(production)).toThrow(/CODE_HASH_KEY is required in production/);
    expect(() => loadConfig({ ...production, CODE_HASH_KEY: 'short' })).toThrow(/CODE_HASH_KEY must be at least 32 characters/);
  });
});
