/**
 * Browser tests of /settings, the security centre, against the real server: the login password
 * changed and another browser logged out live, a trusted device revoked and the second verification
 * asked again, a session ended from the list, the e-mail changed with its two codes, and how the
 * screen looks at 1440 and 375 px (screenshots in test-results/).
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  button,
  callApi,
  codeIn,
  createAccountByApi,
  expectPath,
  expectToast,
  field,
  PASSWORD,
  passVerification,
  passwordSignsIn,
  phoneAddress,
  settle,
  watchOutbox,
} from './accounts-support.ts';
import { repoRoot, useHarness } from './harness.ts';
import { apiCall, openSignedIn } from './signed-in-session.ts';

const portal = useHarness();
const HOST = 'localhost';
const NEW_PASSWORD = 'Changed1Pass';

let serial = 0;
/** A new account's phone and e-mail, unused by the demo data and by earlier tests. */
function freshAccount() {
  serial += 1;
  const tail = `${Date.now() % 1_000_000}`.padStart(6, '0');
  return { phone: `137${tail}${String(serial).padStart(2, '0')}`, email: `settings${tail}${serial}@mail.example` };
}

/** A second signed-in session of the account through the API: password, then the access code from the outbox. */
async function signInByApi(phone: string, password = PASSWORD) {
  const login = await callApi<{ token: string; check: boolean }>(portal, HOST, 'POST', '/api/v1/account/login', {
    phone_info: { phone, phone_prefix: '86' },
    password,
  });
  if (login.code !== 0) throw new Error(`login failed: ${login.message}`);
  if (!login.data.check) return login.data.token;
  const sms = await watchOutbox(portal, phoneAddress(phone));
  await callApi(portal, HOST, 'POST', '/api/v1/account/send/code-auto', { send_type: 'SEND_TYPE_PHONE', mark_type: 'MARK_TYPE_ACCESS' }, login.data.token);
  const captcha = codeIn(await sms.next());
  const checked = await callApi<{ token: string }>(
    portal,
    HOST,
    'POST',
    '/api/v1/account/login/code/check',
    { captcha, thirty_day: false, send_type: 'SEND_TYPE_PHONE' },
    login.data.token,
  );
  if (checked.code !== 0) throw new Error(`code check failed: ${checked.message}`);
  return checked.data.token;
}

/** A page of its own browser context, signed in with the token, at the path; answers once its event stream is open. */
async function signedInAt(token: string, urlPath: string) {
  const page = await portal.pageAt(HOST, '/sign-in');
  const stream = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/v1/events', settle);
  await openSignedIn(page, token, urlPath);
  await page.getByRole('navigation', { name: '主菜单' }).waitFor({ state: 'visible', ...settle });
  expect((await stream).status()).toBe(200);
  return page;
}

const section = (page: Page, title: string) => page.getByRole('region', { name: title });

/** /settings once its sections have their data. */
async function openSettings(token: string) {
  const page = await signedInAt(token, '/settings');
  await page.getByTestId('overview-email').waitFor(settle);
  // the history drawn, or said to be empty
  await section(page, '登录记录').locator('[data-testid="login-history"], .ant-empty').first().waitFor(settle);
  return page;
}

describe('/settings', () => {
  it('changes the login password: the other browser is logged out at once, this one stays', async () => {
    const who = freshAccount();
    const token = await createAccountByApi(portal, HOST, who);
    const other = await signedInAt(await signInByApi(who.phone), '/wallet');
    let reconnects = 0;
    other.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/v1/events') reconnects += 1;
    });

    const page = await openSettings(token);
    await page.getByTestId('change-password').click();
    const dialog = page.getByRole('dialog', { name: '修改登录密码' });
    await dialog.waitFor(settle);
    await dialog.getByLabel('原密码', { exact: true }).fill(PASSWORD);
    await dialog.getByLabel('新密码', { exact: true }).fill(NEW_PASSWORD);
    await expect.poll(() => dialog.locator('[data-met="true"]').count(), settle).toBe(4);
    await dialog.getByLabel('确认新密码', { exact: true }).fill(NEW_PASSWORD);
    await dialog.getByRole('button', { name: '确认修改' }).click();

    await expect.poll(() => page.getByTestId('password-changed').innerText().catch(() => ''), settle).toContain('已退出其他 1 个登录会话');
    await dialog.waitFor({ state: 'hidden', ...settle });

    // the other browser leaves on its stream's last event, not when the stream would connect again (3 s later) and be refused
    await expectPath(other, '/sign-in');
    expect(reconnects).toBe(0);
    await expectToast(other, '登录已失效，请重新登录(608)');
    expect(await other.evaluate(() => localStorage.getItem('token'))).toBeNull();

    // this one goes on, and its history says so
    await page.reload();
    await page.getByTestId('overview-email').waitFor(settle);
    expect(new URL(page.url()).pathname).toBe('/settings');
    expect(await passwordSignsIn(portal, HOST, { phone: who.phone, password: PASSWORD })).toBe(false);
    expect(await passwordSignsIn(portal, HOST, { phone: who.phone, password: NEW_PASSWORD })).toBe(true);
    // the change is told as a station message
    await page.getByTestId('unread-bell').click();
    await page.getByText('登录密码已修改').first().waitFor(settle);
  });

  it('revokes a trusted device: the next sign-in on it asks for the second verification again', async () => {
    const who = freshAccount();
    await createAccountByApi(portal, HOST, who);
    const page = await portal.pageAt(HOST, '/sign-in');
    await field(page, '手机号').fill(who.phone);
    await field(page, '密码').fill(PASSWORD);
    await button(page, '登录').click();
    await passVerification(page, portal, phoneAddress(who.phone), { trustDevice: true });
    await expectPath(page, '/wallet');

    // trusted: this browser's cookie spares the check
    const device = (await page.context().cookies()).find((cookie) => cookie.name === 'portal_device');
    expect(device).toBeDefined();
    const withCookie = async () => {
      const answer = await apiCall<{ check: boolean }>(portal.server.port, HOST, 'POST', '/api/v1/account/login', {
        body: { phone_info: { phone: who.phone, phone_prefix: '86' }, password: PASSWORD },
        cookie: `portal_device=${device?.value}`,
      });
      return answer.body.data.check;
    };
    expect(await withCookie()).toBe(false);

    await page.getByRole('navigation', { name: '主菜单' }).getByRole('link', { name: '设置' }).click();
    const devices = section(page, '受信任设备');
    const row = devices.getByTestId('trusted-device');
    await row.first().waitFor(settle);
    expect(await row.count()).toBe(1);
    expect(await row.first().innerText()).toContain('本设备');
    await row.first().getByRole('button', { name: /移除/ }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: '移除' }).click();
    await devices.getByText('暂无受信任设备').waitFor(settle);
    await expectToast(page, '已移除该受信任设备');

    expect(await withCookie()).toBe(true);
    // and in this browser: signed out, the sign-in asks again
    await page.evaluate(() => {
      localStorage.clear();
      sessionStorage.clear();
    });
    await page.goto(portal.url(HOST, '/sign-in'));
    await field(page, '手机号').fill(who.phone);
    await field(page, '密码').fill(PASSWORD);
    await button(page, '登录').click();
    await page.getByRole('dialog', { name: '安全验证' }).waitFor({ state: 'visible', ...settle });
  });

  it('ends another session from the list; that browser is logged out at once', async () => {
    const who = freshAccount();
    const token = await createAccountByApi(portal, HOST, who);
    const other = await signedInAt(await signInByApi(who.phone), '/card');

    const page = await openSettings(token);
    const sessions = section(page, '登录会话');
    const rows = sessions.getByTestId('session');
    await expect.poll(() => rows.count(), settle).toBe(2);
    expect(await sessions.locator('[data-current="true"]').innerText()).toContain('当前会话');
    await sessions.locator('[data-current="false"]').getByRole('button', { name: /结束/ }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: '结束' }).click();
    await expectPath(other, '/sign-in');
    await expect.poll(() => rows.count(), settle).toBe(1);
    expect(await sessions.getByTestId('end-other-sessions').isDisabled()).toBe(true);
  });

  it('changes the e-mail with a code to the current address and one to the new', async () => {
    const who = freshAccount();
    const token = await createAccountByApi(portal, HOST, who);
    const page = await openSettings(token);
    await expect.poll(() => page.getByTestId('current-email').innerText(), settle).toBe(who.email);

    await page.getByTestId('change-email').click();
    const dialog = page.getByRole('dialog', { name: '更换邮箱' });
    await dialog.waitFor(settle);
    const codeField = (label: string) => dialog.locator('.ant-form-item').filter({ has: page.getByLabel(label, { exact: true }) });

    const oldMail = await watchOutbox(portal, who.email);
    await codeField('当前邮箱验证码').getByRole('button', { name: '获取验证码' }).click();
    await dialog.getByLabel('当前邮箱验证码', { exact: true }).fill(codeIn(await oldMail.next()));

    const next = `moved${Date.now() % 1_000_000}@mail.example`;
    await dialog.getByLabel('新邮箱', { exact: true }).fill(next);
    const newMail = await watchOutbox(portal, next);
    await codeField('新邮箱验证码').getByRole('button', { name: '获取验证码' }).click();
    await dialog.getByText(/验证码已发送至 m\*\*\*@mail\.example/).waitFor(settle);
    await dialog.getByLabel('新邮箱验证码', { exact: true }).fill(codeIn(await newMail.next()));
    await dialog.getByRole('button', { name: '确认更换' }).click();

    await expectToast(page, `邮箱已更换为 ${next}`);
    await expect.poll(() => page.getByTestId('current-email').innerText(), settle).toBe(next);
    await expect.poll(() => page.getByTestId('overview-email').innerText(), settle).toBe(next);
    // both addresses are told
    expect((await oldMail.next()).subject).toContain('绑定邮箱已更换');
    expect(await passwordSignsIn(portal, HOST, { email: next, password: PASSWORD })).toBe(true);
  });

  it('looks right at 1440 and at 375 px', async () => {
    const who = freshAccount();
    const token = await createAccountByApi(portal, HOST, who);
    await signInByApi(who.phone);
    const dir = path.join(repoRoot, 'test-results');
    await mkdir(dir, { recursive: true });
    for (const [width, height] of [
      [1440, 900],
      [375, 812],
    ] as const) {
      const page = await openSettings(token);
      await page.setViewportSize({ width, height });
      await section(page, '登录记录').getByTestId('login-attempt').first().waitFor(settle);
      // nothing is wider than the screen, once the page has laid itself out for the new width (a resize
      // redraws the lists as cards on phones a moment after it)
      await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth), { timeout: 10_000 }).toBeLessThanOrEqual(width);
      for (const title of ['账户信息', '登录密码', '交易密码', '邮箱', '手机号', '受信任设备', '登录会话', '登录记录']) {
        expect(await page.getByRole('heading', { name: title, exact: true, level: 2 }).isVisible(), title).toBe(true);
      }
      await page.screenshot({ path: path.join(dir, `settings-${width}.png`), fullPage: true });
    }
  });
});
