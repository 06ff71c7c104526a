import { describe, expect, it } from 'vitest';
import {
  button,
  callApi,
  codeIn,
  expectFieldError,
  expectPath,
  field,
  passVerification,
  PASSWORD,
  pathOf,
  phoneAddress,
  settle,
  signUpByApi,
  watchOutbox,
} from './accounts-support.ts';
import { useHarness } from './harness.ts';

const portal = useHarness();

describe('/sign-up', () => {
  it('signs a new customer up with an invitation code, binds an e-mail and opens the wallet', async () => {
    const host = 'orange.localhost';
    const phone = '13912340001';
    const email = 'new.customer@example.com';
    const page = await portal.pageAt(host, '/sign-in');
    await page.getByRole('link', { name: '注册' }).click();
    await page.getByRole('heading', { name: '注册' }).waitFor(settle);
    expect(new URL(page.url()).pathname).toBe('/sign-up');

    const sms = await watchOutbox(portal, phoneAddress(phone));
    // digits only: letters typed into the phone field are dropped
    await field(page, '手机号').pressSequentially('139a1234b0001');
    await expect.poll(() => field(page, '手机号').inputValue(), settle).toBe(phone);
    await button(page, '获取验证码').click();
    // the countdown replaces the button's text
    await button(page, /^\d+秒后重新获取$/).waitFor(settle);
    expect(await button(page, /秒后重新获取$/).isDisabled()).toBe(true);
    await page.getByText('验证码已发送至 +86 139****0001').waitFor(settle);
    await field(page, '验证码').fill(codeIn(await sms.next()));
    await field(page, '密码').fill('Orange2024');
    await field(page, '确认密码').fill('Orange2024');
    await field(page, '邀请码（选填）').fill('or01');
    await page.getByRole('checkbox', { name: '我已阅读并同意' }).check();
    const historyBefore = await page.evaluate(() => history.length);
    await button(page, '注册').click();

    // the sign-up screen is replaced, not stacked
    await expectPath(page, '/sign-email');
    expect(await page.evaluate(() => history.length)).toBe(historyBefore);
    await page.getByRole('heading', { name: '绑定邮箱' }).waitFor(settle);

    const mail = await watchOutbox(portal, email);
    await field(page, '邮箱').fill(email);
    await button(page, '获取验证码').click();
    await button(page, /^\d+秒后重新获取$/).waitFor(settle);
    await field(page, '验证码').fill(codeIn(await mail.next()));
    await button(page, '确定').click();

    await expectPath(page, '/wallet');
    const token = await page.evaluate(() => localStorage.getItem('token'));
    expect(await page.evaluate(() => localStorage.getItem('isLogin'))).toBe('1');
    const info = await callApi<{ email: string; phone: string }>(portal, host, 'GET', '/api/v1/account/info', undefined, token ?? '');
    expect(info.code).toBe(0);
    expect(info.data).toMatchObject({ email, phone });
  });

  it('opens the first agreement of the merchant in a new window from the agreement link', async () => {
    const host = 'purple.localhost';
    const titles = await portal.getJson<{ data: { id: string; title: string }[] }>(host, '/api/v1/merchant/user-agreement/title');
    const first = titles.body.data[0];
    if (!first) throw new Error('the purple merchant has no agreement');
    const page = await portal.pageAt(host, '/sign-up');
    const link = page.getByRole('link', { name: new RegExp(first.title) });
    await link.waitFor(settle);
    expect(await link.getAttribute('target')).toBe('_blank');
    const [opened] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
    await opened.waitForLoadState('load');
    const url = new URL(opened.url());
    expect(url.pathname).toBe('/agreement');
    expect(url.searchParams.get('id')).toBe(first.id);
    await opened.getByText(first.title).first().waitFor(settle);
    // the box is not ticked by following the link
    expect(await page.getByRole('checkbox', { name: '我已阅读并同意' }).isChecked()).toBe(false);
  });

  it('puts the server refusals on their fields: a registered phone, an unknown invitation code', async () => {
    const host = 'red.localhost';
    const page = await portal.pageAt(host, '/sign-up');
    // the demo account already holds this phone at every merchant
    await field(page, '手机号').fill('13800138000');
    await button(page, '获取验证码').click();
    await expectFieldError(page, '手机号', '该手机号已注册，请直接登录');
    // nothing was sent, so the button is ready again
    await button(page, '获取验证码').waitFor(settle);

    const phone = '13912340002';
    const sms = await watchOutbox(portal, phoneAddress(phone));
    await field(page, '手机号').fill(phone);
    await button(page, '获取验证码').click();
    await field(page, '验证码').fill(codeIn(await sms.next()));
    await field(page, '密码').fill(PASSWORD);
    await field(page, '确认密码').fill(PASSWORD);
    await field(page, '邀请码（选填）').fill('ZZ99');
    await page.getByRole('checkbox', { name: '我已阅读并同意' }).check();
    await button(page, '注册').click();
    await expectFieldError(page, '邀请码（选填）', '邀请码不存在');
    expect(pathOf(page)).toBe('/sign-up');
    // said on the field only: a toast would have been queued before the field showed it, so once the
    // page has no work left queued it would be out, had there been one
    await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve, { timeout: 5_000 })));
    expect(await page.getByTestId('toast').filter({ hasText: '邀请码不存在' }).count()).toBe(0);

    // with the right code for this merchant the same form goes through
    await field(page, '邀请码（选填）').fill('RD01');
    await button(page, '注册').click();
    await expectPath(page, '/sign-email');
  });
});

describe('/sign-email', () => {
  it('is where a sign-in of an account without an e-mail ends, after its second verification', async () => {
    const host = 'yellow.localhost';
    const phone = '13912340003';
    await signUpByApi(portal, host, phone);
    const page = await portal.pageAt(host, '/sign-in');
    await field(page, '手机号').fill(phone);
    await field(page, '密码').fill(PASSWORD);
    await button(page, '登录').click();
    await passVerification(page, portal, phoneAddress(phone));
    await expectPath(page, '/sign-email');

    const email = 'late.binder@example.com';
    const mail = await watchOutbox(portal, email);
    await field(page, '邮箱').fill(email);
    await button(page, '获取验证码').click();
    await field(page, '验证码').fill(codeIn(await mail.next()));
    await button(page, '确定').click();
    await expectPath(page, '/wallet');
  });

  it('sends a visitor without a sign-up token to /sign-in, and leaving it gives the token up', async () => {
    const host = 'localhost';
    const page = await portal.pageAt(host, '/sign-email');
    await expectPath(page, '/sign-in');

    const token = await signUpByApi(portal, host, '13912340004');
    await page.evaluate((value) => localStorage.setItem('token', value), token);
    await page.goto(portal.url(host, '/sign-email'));
    await page.getByRole('heading', { name: '绑定邮箱' }).waitFor(settle);
    await page.getByRole('button', { name: '返回登录' }).click();
    await expectPath(page, '/sign-in');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  });
});
