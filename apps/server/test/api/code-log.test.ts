import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, logCollector, type TestApp } from '../helpers/app.ts';
import { freshIp, freshPhone, lastCode, lastMessage, phoneTo } from '../helpers/accounts.ts';

const log = logCollector();
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ logStream: log.stream });
});
afterAll(() => t?.close());

const DEMO = { phone: '13800138000', email: 'demo@bluewhale.example', password: 'Demo1234' };

/** The value as a whole run of digits or characters, not as part of a longer one (a timestamp holds any six digits). */
const appearsIn = (text: string, value: string) => new RegExp(`(?<![0-9A-Za-z_-])${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![0-9A-Za-z_-])`).test(text);

describe('the server log and the codes it sends', () => {
  it('names the masked target of a sign-up code, an access code, a reset link and a phone reset, never a code, a link or a ticket', async () => {
    const client = t.api();
    const secrets: string[] = [];

    // a sign-up code by SMS
    const phone = freshPhone();
    const signUp = await client.post(
      '/account/send/code',
      { send_type: 'SEND_TYPE_PHONE', mark_type: 'MARK_TYPE_REGISTER', phone_info: { phone, phone_prefix: '86' } },
      { remoteAddress: freshIp() },
    );
    expect(signUp.code, signUp.message).toBe(0);
    secrets.push(await lastCode(t, phoneTo(phone)));

    // the access code of a sign-in from an untrusted browser, by SMS and by e-mail
    const login = await client.post<{ token: string; check: boolean }>('/account/login', {
      phone_info: { phone: DEMO.phone, phone_prefix: '86' },
      password: DEMO.password,
    });
    expect(login.data.check).toBe(true);
    const verifying = client.withToken(login.data.token);
    for (const send_type of ['SEND_TYPE_PHONE', 'SEND_TYPE_EMAIL'] as const) {
      const access = await verifying.post('/account/send/code-auto', { send_type, mark_type: 'MARK_TYPE_ACCESS' }, { remoteAddress: freshIp() });
      expect(access.code, access.message).toBe(0);
    }
    secrets.push(await lastCode(t, phoneTo(DEMO.phone)), await lastCode(t, DEMO.email));

    // an e-mailed reset link, which carries a code
    const mailed = await client.post('/account/forget-password/code', { email: DEMO.email, type: 'FORGET_PASSWORD' }, { remoteAddress: freshIp() });
    expect(mailed.code, mailed.message).toBe(0);
    const mail = await lastMessage(t, DEMO.email);
    const link = /(https?:\/\/\S+\/reset-password\?\S+)/.exec(mail.text)?.[1];
    expect(link).toBeTruthy();
    secrets.push(new URL(link as string).searchParams.get('code') as string);

    // a reset by phone: its code, then the ticket the code's check answers
    const recovery = await client.post('/account/forget-password/code', { phone_info: { phone, phone_prefix: '86' }, type: 'FORGET_PASSWORD' });
    expect(recovery.code).toBe(2014); // not registered: sign up first
    const registered = await client.post('/account/register', { phone_prefix: '86', phone, password: 'Passw0rd1', captcha: secrets[0], invitation_code: null });
    expect(registered.code, registered.message).toBe(0);
    const resetCode = await client.post('/account/forget-password/code', { phone_info: { phone, phone_prefix: '86' }, type: 'FORGET_PASSWORD' }, { remoteAddress: freshIp() });
    expect(resetCode.code, resetCode.message).toBe(0);
    const phoneReset = await lastCode(t, phoneTo(phone));
    secrets.push(phoneReset);
    const checked = await client.post<{ ticket: string }>('/account/forget-password/check', { phone_info: { phone, phone_prefix: '86' }, captcha: phoneReset });
    expect(checked.code, checked.message).toBe(0);
    secrets.push(checked.data.ticket);

    const text = log.text();
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThanOrEqual(6);
      expect(appearsIn(text, secret), 'a code or ticket reached the log').toBe(false);
    }
    expect(text).not.toContain('reset-password?');
    expect(text).not.toContain('code=');
    // what the log says instead: where it went, masked, and that the outbox holds it
    const messages = log.records().map((record) => String(record.msg ?? ''));
    expect(messages).toContain(`development SMS: code sent to +86 ${phone.slice(0, 3)}****${phone.slice(-4)}, see the outbox`);
    expect(messages).toContain('development SMS: code sent to +86 138****8000, see the outbox');
    expect(messages).toContain('development e-mail: sent to d***@bluewhale.example, see the outbox');
    // (the test's own outbox look-ups name the full address in their URLs; the providers' lines do not)
    for (const record of log.records().filter((one) => one.channel)) {
      expect(String(record.to)).toMatch(/^\+86 1\d\d\*{4}\d{4}$|^\w\*{3}@/);
    }
  });
});
