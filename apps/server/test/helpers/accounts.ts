import { expect } from 'vitest';
import type { TestApp } from './app.ts';

let ipCounter = 0;
/** A fresh caller address, so the per-IP code limit of one test does not leak into another. */
export const freshIp = () => {
  ipCounter += 1;
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
};

let phoneCounter = 0;
/** A valid mainland phone number nobody in the demo data has. */
export const freshPhone = () => {
  phoneCounter += 1;
  return `139${String(process.pid % 1000).padStart(3, '0')}${String(phoneCounter).padStart(5, '0')}`;
};

export const freshEmail = (label = 'user') => `${label}${Date.now().toString(36)}${Math.floor(Math.random() * 1e6)}@mail.example`;

interface OutboxRow {
  channel: string;
  to: string;
  subject: string;
  text: string;
}

/** The newest development-outbox message to a phone ("+86 139…") or an e-mail. */
export async function lastMessage(t: TestApp, to: string): Promise<OutboxRow> {
  const answer = await t.api().get('/api/dev/outbox', { query: { to, limit: 1 } });
  const rows = answer.body as OutboxRow[];
  const row = rows[0];
  if (!row) throw new Error(`nothing was sent to ${to}`);
  return row;
}

export const phoneTo = (phone: string) => `+86 ${phone}`;

/** The 6-digit code in the newest message to a target (from a link's code= when there is one). */
export async function lastCode(t: TestApp, to: string) {
  const { text } = await lastMessage(t, to);
  const match = /code=(\d{6})/.exec(text) ?? /(\d{6})/.exec(text);
  if (!match?.[1]) throw new Error(`no code in the message to ${to}: ${text}`);
  return match[1];
}

export const PASSWORD = 'Passw0rd1';

/** Signs up with a phone, binds an e-mail, and answers the full session's token. */
export async function signUp(t: TestApp, host = 'localhost', options: { phone?: string; email?: string; password?: string; invitation?: string | null } = {}) {
  const phone = options.phone ?? freshPhone();
  const email = options.email ?? freshEmail();
  const password = options.password ?? PASSWORD;
  const client = t.api(host);
  const ip = freshIp();
  const sent = await client.post('/account/send/code', { send_type: 'SEND_TYPE_PHONE', mark_type: 'MARK_TYPE_REGISTER', phone_info: { phone, phone_prefix: '86' } }, { remoteAddress: ip });
  expect(sent.code, sent.message).toBe(0);
  const registered = await client.post<{ token: string }>(
    '/account/register',
    { phone_prefix: '86', phone, password, captcha: await lastCode(t, phoneTo(phone)), invitation_code: options.invitation ?? null },
    { remoteAddress: ip },
  );
  expect(registered.code, registered.message).toBe(0);
  const binding = client.withToken(registered.data.token);
  const mailed = await binding.post('/account/send/code', { send_type: 'SEND_TYPE_EMAIL', mark_type: 'MARK_TYPE_BIND_EMAIL', email }, { remoteAddress: ip });
  expect(mailed.code, mailed.message).toBe(0);
  const bound = await binding.post<{ token: string }>('/account/email/bind', { email, captcha: await lastCode(t, email) }, { remoteAddress: ip });
  expect(bound.code, bound.message).toBe(0);
  return { phone, email, password, token: bound.data.token, registerToken: registered.data.token };
}

/** Password sign-in and, when asked for, the second verification by SMS; answers the full token. */
export async function signIn(t: TestApp, host: string, who: { phone?: string; email?: string; password?: string }, options: { thirtyDay?: boolean; cookie?: string } = {}) {
  const client = t.api(host);
  const ip = freshIp();
  const headers: Record<string, string> = options.cookie ? { cookie: options.cookie } : {};
  const body = who.phone
    ? { phone_info: { phone: who.phone, phone_prefix: '86' }, password: who.password ?? PASSWORD }
    : { email: who.email, password: who.password ?? PASSWORD };
  const login = await client.post<{ token: string; email: string | null; check: boolean }>('/account/login', body, { headers, remoteAddress: ip });
  expect(login.code, login.message).toBe(0);
  if (!login.data.check) return { token: login.data.token, cookie: options.cookie, login };
  const verifying = client.withToken(login.data.token);
  const sendType = who.phone ? 'SEND_TYPE_PHONE' : 'SEND_TYPE_EMAIL';
  const sent = await verifying.post('/account/send/code-auto', { send_type: sendType, mark_type: 'MARK_TYPE_ACCESS' }, { remoteAddress: ip });
  expect(sent.code, sent.message).toBe(0);
  const code = await lastCode(t, who.phone ? phoneTo(who.phone) : (who.email as string));
  const checked = await verifying.post<{ token: string }>('/account/login/code/check', { captcha: code, thirty_day: options.thirtyDay ?? false, send_type: sendType }, { headers, remoteAddress: ip });
  expect(checked.code, checked.message).toBe(0);
  const setCookie = checked.headers['set-cookie'];
  const cookie = typeof setCookie === 'string' ? setCookie.split(';')[0] : options.cookie;
  return { token: checked.data.token, cookie, login };
}
