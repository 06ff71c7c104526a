import { describe, expect, it } from 'vitest';
import {
  button,
  callApi,
  codeIn,
  createAccountByApi,
  expectFieldError,
  expectPath,
  expectToast,
  field,
  linkIn,
  passVerification,
  passwordSignsIn,
  PASSWORD,
  phoneAddress,
  settle,
  watchOutbox,
} from './accounts-support.ts';
import { useHarness } from './harness.ts';

const portal = useHarness();

describe('password recovery by phone', () => {
  it('checks the SMS code, sets a new password and that password then signs in', async () => {
    const host = 'localhost';
    const account = { phone: '13712340001', email: 'phone.reset@example.com' };
    await createAccountByApi(portal, host, account);

    const page = await portal.pageAt(host, '/sign-in');
    await page.getByRole('link', { name: '忘记密码' }).click();
    await page.getByRole('heading', { name: '忘记密码' }).waitFor(settle);
    const sms = await watchOutbox(portal, phoneAddress(account.phone));
    await field(page, '手机号').fill(account.phone);
    await button(page, '下一步').click();

    await page.getByRole('heading', { name: '输入验证码' }).waitFor(settle);
    expect(new URL(page.url()).pathname).toBe('/change-password-check');
    // only the last four digits of the phone are shown
    await page.getByText('尾号为 0001 的手机').waitFor(settle);
    expect(await page.getByText(account.phone).count()).toBe(0);
    // the code was just sent: the resend waits
    expect(await button(page, /^\d+秒后重新获取$/).isDisabled()).toBe(true);
    await field(page, '验证码').fill(codeIn(await sms.next()));
    await button(page, '下一步').click();

    await page.getByRole('heading', { name: '重置密码' }).waitFor(settle);
    expect(new URL(page.url()).pathname).toBe('/reset-password');
    await field(page, '新密码').fill('NewPass2024');
    await field(page, '确认密码').fill('NewPass2025');
    await button(page, '确定').click();
    await expectFieldError(page, '确认密码', '请保持与设置密码相同');
    await field(page, '确认密码').fill('NewPass2024');
    // a session this browser held ends with the reset
    await page.evaluate(() => {
      localStorage.setItem('token', 'a-session-the-reset-ends');
      localStorage.setItem('isLogin', '1');
    });
    await button(page, '确定').click();

    await expectPath(page, '/sign-in');
    await expectToast(page, '密码已重置，请使用新密码登录');
    expect(await page.evaluate(() => [localStorage.getItem('token'), localStorage.getItem('isLogin')])).toEqual([null, null]);
    expect(await passwordSignsIn(portal, host, { phone: account.phone, password: PASSWORD })).toBe(false);

    await field(page, '手机号').fill(account.phone);
    await field(page, '密码').fill('NewPass2024');
    await button(page, '登录').click();
    await passVerification(page, portal, phoneAddress(account.phone));
    await expectPath(page, '/wallet');
  });

  it('sends the screens of the phone flow to /forget-password when opened without their state', async () => {
    const page = await portal.pageAt('localhost', '/change-password-check');
    await expectPath(page, '/forget-password');
    await page.goto(portal.url('localhost', '/reset-password'));
    await expectPath(page, '/forget-password');
    await page.getByRole('tab', { name: '手机号' }).waitFor(settle);
  });
});

describe('password recovery by e-mail', () => {
  it('mails a link; the link from the mail sets a new password', async () => {
    const host = 'orange.localhost';
    const account = { phone: '13712340002', email: 'mail.reset@example.com' };
    await createAccountByApi(portal, host, account);

    const page = await portal.pageAt(host, '/forget-password');
    await page.getByRole('tab', { name: '邮箱' }).click();
    const mail = await watchOutbox(portal, account.email);
    await field(page, '邮箱').fill(account.email);
    await button(page, '确定').click();
    await page.getByText('请检查收件箱，并点击邮件中的链接重置您的密码').waitFor(settle);
    expect(await button(page, /^\d+秒后可重新发送$/).isDisabled()).toBe(true);

    const link = linkIn(await mail.next());
    const target = new URL(link);
    expect(target.pathname).toBe('/reset-password');
    expect(target.searchParams.get('type')).toBe('FORGET_PASSWORD');
    expect(target.searchParams.get('email')).toBe(account.email);

    await page.goto(link);
    await page.getByRole('heading', { name: '重置密码' }).waitFor(settle);
    await page.getByText(account.email).waitFor(settle);
    await field(page, '新密码').fill('MailReset88');
    await field(page, '确认密码').fill('MailReset88');
    await button(page, '确定').click();
    await expectPath(page, '/sign-in');
    await expectToast(page, '密码已重置，请使用新密码登录');

    await page.getByRole('tab', { name: '邮箱' }).click();
    await field(page, '邮箱').fill(account.email);
    await field(page, '密码').fill('MailReset88');
    await button(page, '登录').click();
    await passVerification(page, portal, account.email);
    await expectPath(page, '/wallet');

    // the link worked once: opened again, it says so at once, with no form to fill in and no toast
    await page.goto(link);
    await page.getByRole('alert').filter({ hasText: '链接已失效或已被使用' }).waitFor(settle);
    expect(await field(page, '新密码').isVisible()).toBe(false);
    await page.getByRole('link', { name: '重新找回密码' }).waitFor(settle);
    // a toast would be work the page still has queued: wait until it has none left
    await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve, { timeout: 5_000 })));
    expect(await page.getByTestId('toast').count()).toBe(0);
    expect(await passwordSignsIn(portal, host, { email: account.email, password: 'MailReset88' })).toBe(true);
  });

  it('resets the trade password from its link, with the trade-password rule', async () => {
    const host = 'purple.localhost';
    const account = { phone: '13712340003', email: 'trade.reset@example.com' };
    await createAccountByApi(portal, host, account);
    const mail = await watchOutbox(portal, account.email);
    const sent = await callApi(portal, host, 'POST', '/api/v1/account/forget-password/code', { email: account.email, type: 'FORGET_TRX_PASSWORD' });
    expect(sent.code).toBe(0);
    const link = linkIn(await mail.next());
    expect(new URL(link).searchParams.get('type')).toBe('FORGET_TRX_PASSWORD');

    const page = await portal.pageAt(host, new URL(link).pathname + new URL(link).search);
    await page.getByRole('heading', { name: '重置交易密码' }).waitFor(settle);
    await field(page, '新交易密码').fill('abc');
    await field(page, '确认密码').fill('abc');
    await button(page, '确定').click();
    await expectFieldError(page, '新交易密码', '请输入6到10位的纯数字或大小写英文字母');
    await expectFieldError(page, '确认密码', '请输入6到10位的纯数字或大小写英文字母');
    await field(page, '新交易密码').fill('trade12345x');
    await expectFieldError(page, '新交易密码', '请输入6到10位的纯数字或大小写英文字母');
    await field(page, '新交易密码').fill('Trade12345');
    await field(page, '确认密码').fill('Trade12345');
    await button(page, '确定').click();

    await expectPath(page, '/sign-in');
    await expectToast(page, '交易密码已重置');
    // the login password is not what changed
    expect(await passwordSignsIn(portal, host, { phone: account.phone, password: PASSWORD })).toBe(true);
  });
});
