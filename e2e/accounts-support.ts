/**
 * What the account browser tests share: reading codes and links from the development outbox,
 * setting up accounts through the API, and finding a form field's error or a toast on the page.
 */
import http from 'node:http';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { Harness } from './harness.ts';

/** how long the page or the server may take on a busy machine */
export const settle = { timeout: 15_000 };

export const PASSWORD = 'Demo1234';
export const demoEmail = (website: string) => `demo@${website}`;

interface OutboxEntry {
  channel: 'sms' | 'email';
  to: string;
  subject: string;
  text: string;
  created_at: string;
}

/** The outbox address of a mainland phone, as the SMS provider writes it. */
export const phoneAddress = (phone: string) => `+86 ${phone}`;

async function newestTo(portal: Harness, to: string): Promise<OutboxEntry | undefined> {
  const answer = await portal.getJson<OutboxEntry[]>('localhost', `/api/dev/outbox?to=${encodeURIComponent(to)}&limit=1`);
  if (answer.status !== 200) throw new Error(`the outbox answered ${answer.status}`);
  return answer.body[0];
}

/**
 * Watches one address of the outbox: `next()` waits for a message newer than the last one seen
 * (the one there when the watch began, or the last one `next()` answered).
 */
export async function watchOutbox(portal: Harness, to: string) {
  let seen = await newestTo(portal, to);
  const key = (entry: OutboxEntry | undefined) => (entry ? `${entry.created_at}|${entry.text}` : '');
  return {
    async next(): Promise<OutboxEntry> {
      const deadline = Date.now() + settle.timeout;
      while (Date.now() < deadline) {
        const newest = await newestTo(portal, to);
        if (newest && key(newest) !== key(seen)) {
          seen = newest;
          return newest;
        }
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      throw new Error(`nothing new arrived in the outbox for ${to}`);
    },
  };
}

/** The 6-digit code of a message. */
export function codeIn(entry: OutboxEntry): string {
  const code = entry.text.match(/(?<!\d)(\d{6})(?!\d)/)?.[1];
  if (!code) throw new Error(`no code in the message to ${entry.to}: ${entry.text}`);
  return code;
}

/** The reset link of a recovery e-mail. */
export function linkIn(entry: OutboxEntry): string {
  const link = entry.text.match(/https?:\/\/\S+\/reset-password\?\S+/)?.[0];
  if (!link) throw new Error(`no reset link in the mail to ${entry.to}: ${entry.text}`);
  return link;
}

interface Envelope<T> {
  code: number;
  message: string;
  data: T;
}

/** One JSON call to the server as the merchant of `host` (with any further headers, e.g. an Idempotency-Key). */
export function callApi<T = unknown>(
  portal: Harness,
  host: string,
  method: string,
  urlPath: string,
  body?: unknown,
  token?: string,
  extraHeaders: Record<string, string> = {},
): Promise<Envelope<T>> {
  const port = portal.server.port;
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const headers: Record<string, string> = { ...extraHeaders, host: `${host}:${port}`, accept: 'application/json', 'user-agent': 'portal-e2e-accounts' };
  if (payload !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, method, path: urlPath, headers, timeout: 15_000 }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        try {
          resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        } catch (error) {
          reject(error);
        }
      });
    });
    request.on('timeout', () => request.destroy(new Error(`${method} ${urlPath} timed out`)));
    request.on('error', reject);
    request.end(payload);
  });
}

async function ok<T>(answer: Promise<Envelope<T>>, what: string): Promise<T> {
  const envelope = await answer;
  if (envelope.code !== 0) throw new Error(`${what} failed: ${envelope.message} (${envelope.code})`);
  return envelope.data;
}

/** Signs a phone up through the API; answers the token that can only bind an e-mail. */
export async function signUpByApi(portal: Harness, host: string, phone: string, password = PASSWORD): Promise<string> {
  const sms = await watchOutbox(portal, phoneAddress(phone));
  const phone_info = { phone, phone_prefix: '86' };
  await ok(callApi(portal, host, 'POST', '/api/v1/account/send/code', { send_type: 'SEND_TYPE_PHONE', mark_type: 'MARK_TYPE_REGISTER', phone_info }), 'send/code');
  const captcha = codeIn(await sms.next());
  const { token } = await ok(
    callApi<{ token: string }>(portal, host, 'POST', '/api/v1/account/register', { phone_prefix: '86', phone, password, captcha, invitation_code: null }),
    'register',
  );
  return token;
}

/** A complete account (phone, e-mail, password) made through the API; answers its signed-in session's token. */
export async function createAccountByApi(
  portal: Harness,
  host: string,
  account: { phone: string; email: string; password?: string },
): Promise<string> {
  const token = await signUpByApi(portal, host, account.phone, account.password);
  const mail = await watchOutbox(portal, account.email);
  await ok(callApi(portal, host, 'POST', '/api/v1/account/send/code', { send_type: 'SEND_TYPE_EMAIL', mark_type: 'MARK_TYPE_BIND_EMAIL', email: account.email }, token), 'send/code');
  const captcha = codeIn(await mail.next());
  const bound = await ok(callApi<{ token?: string }>(portal, host, 'POST', '/api/v1/account/email/bind', { email: account.email, captcha }, token), 'email/bind');
  if (!bound.token) throw new Error('email/bind answered no session');
  return bound.token;
}

/** Whether a password signs in through the API (without finishing the second verification). */
export async function passwordSignsIn(portal: Harness, host: string, login: { phone?: string; email?: string; password: string }) {
  const body = login.phone ? { phone_info: { phone: login.phone, phone_prefix: '86' }, password: login.password } : { email: login.email, password: login.password };
  const answer = await callApi(portal, host, 'POST', '/api/v1/account/login', body);
  return answer.code === 0;
}

// ---------------------------------------------------------------------------------------------
// the page

/** An input by the exact text of its label (its accessible name); tab panels named by their tab are not inputs. */
export const field = (page: Page, label: string): Locator => page.locator('input').and(page.getByLabel(label, { exact: true }));

/** A button by its exact name. */
export const button = (page: Page, name: string | RegExp): Locator =>
  page.getByRole('button', { name: typeof name === 'string' ? new RegExp(`^${name}$`) : name });

/** The error shown under a labelled field of an antd form ('' when none). */
export async function fieldError(page: Page, label: string): Promise<string> {
  return field(page, label).evaluate((input) => {
    const item = input.closest('.ant-form-item');
    return item?.querySelector('.ant-form-item-explain-error')?.textContent?.trim() ?? '';
  });
}

/** Waits until the field shows exactly this error. */
export async function expectFieldError(page: Page, label: string, message: string) {
  await expect.poll(() => fieldError(page, label), settle).toBe(message);
}

/** Waits for a toast with this text. */
export async function expectToast(page: Page, text: string) {
  await page.getByTestId('toast').filter({ hasText: text }).first().waitFor({ state: 'visible', ...settle });
}

export const pathOf = (page: Page) => new URL(page.url()).pathname;

/** Waits until the page is at this path. */
export async function expectPath(page: Page, path: string) {
  await expect.poll(() => pathOf(page), settle).toBe(path);
}

/** Answers the second verification of a sign-in: asks for the code, types it from the outbox, optionally trusts the device. */
export async function passVerification(page: Page, portal: Harness, to: string, options: { trustDevice?: boolean } = {}) {
  const dialog = page.getByRole('dialog', { name: '安全验证' });
  await dialog.waitFor({ state: 'visible', ...settle });
  const outbox = await watchOutbox(portal, to);
  await button(page, '获取验证码').click();
  const code = codeIn(await outbox.next());
  await dialog.getByLabel('验证码').fill(code);
  if (options.trustDevice) await dialog.getByText('30天内此设备免验证').click();
  await dialog.getByRole('button', { name: /^确\s*定$/ }).click();
}
