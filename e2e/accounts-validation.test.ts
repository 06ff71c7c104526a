/**
 * Each validation message of spec §5 on the account screens, where the spec puts it: under its
 * field, or as a toast for the three that are notices (请输入正确手机号, 请输入邮箱, 请先获取验证码,
 * 请阅读并同意协议).
 */
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
  fieldError,
  linkIn,
  PASSWORD,
  phoneAddress,
  settle,
  signUpByApi,
  watchOutbox,
} from './accounts-support.ts';
import { useHarness } from './harness.ts';

const portal = useHarness();

const checklistLine = (page: import('playwright-core').Page, text: string) =>
  page.getByRole('list', { name: '密码要求' }).getByRole('listitem').filter({ hasText: text });

describe('/sign-up validation', () => {
  it('shows every field rule under its field', async () => {
    const page = await portal.pageAt('localhost', '/sign-up');
    await button(page, '注册').click();
    for (const label of ['手机号', '密码', '确认密码']) await expectFieldError(page, label, '您当前输入为空');
    // the spec gives the code no required message: it says what to enter
    await expectFieldError(page, '验证码', '请输入验证码');
    // optional
    expect(await fieldError(page, '邀请码（选填）')).toBe('');

    await field(page, '手机号').fill('12345678901');
    await expectFieldError(page, '手机号', '手机号格式有误');
    await field(page, '手机号').fill('1381234');
    await expectFieldError(page, '手机号', '手机号格式有误');
    await field(page, '手机号').fill('13812345678');
    await expectFieldError(page, '手机号', '');

    await field(page, '验证码').fill('123');
    await expectFieldError(page, '验证码', '请输入正确验证码');
    // digits only
    await field(page, '验证码').fill('');
    await field(page, '验证码').pressSequentially('12ab34');
    await expect.poll(() => field(page, '验证码').inputValue(), settle).toBe('1234');

    await field(page, '密码').fill('Ab1');
    await expectFieldError(page, '密码', '输入小于最小输入限制');
    await field(page, '密码').fill('Abcdefgh123456789');
    await expectFieldError(page, '密码', '输入大于最大输入限制');
    await field(page, '密码').fill('abcdefgh1');
    await expectFieldError(page, '密码', '需包含大写字母、小写字母、数字，密码长度为8-16位');
    await field(page, '密码').fill('Abcdefg_1');
    await expectFieldError(page, '密码', '需包含大写字母、小写字母、数字，密码长度为8-16位');

    await field(page, '密码').fill('Abcdefgh1');
    await field(page, '确认密码').fill('Abcdefgh2');
    await expectFieldError(page, '确认密码', '请保持与设置密码相同');
    // changing the password checks the confirmation again
    await field(page, '密码').fill('Abcdefgh2');
    await expectFieldError(page, '确认密码', '');

    await field(page, '邀请码（选填）').fill('AB');
    await expectFieldError(page, '邀请码（选填）', '请输入正确邀请码');
    await field(page, '邀请码（选填）').fill('AB-1');
    await expectFieldError(page, '邀请码（选填）', '请输入正确邀请码');
    await field(page, '邀请码（选填）').fill('AB12');
    await expectFieldError(page, '邀请码（选填）', '');
  });

  it('ticks the four lines of the password checklist as the password is typed', async () => {
    const page = await portal.pageAt('localhost', '/sign-up');
    const met = async () => {
      const lines = ['长度为8-16位，仅限字母和数字', '至少包含一个大写字母', '至少包含一个小写字母', '至少包含一个数字'];
      return Promise.all(lines.map((line) => checklistLine(page, line).getAttribute('data-met')));
    };
    await expect.poll(met, settle).toEqual(['false', 'false', 'false', 'false']);
    await field(page, '密码').fill('abc');
    await expect.poll(met, settle).toEqual(['false', 'false', 'true', 'false']);
    await field(page, '密码').fill('abcD');
    await expect.poll(met, settle).toEqual(['false', 'true', 'true', 'false']);
    await field(page, '密码').fill('abcD1234');
    await expect.poll(met, settle).toEqual(['true', 'true', 'true', 'true']);
    await field(page, '密码').fill('abcD1234!');
    await expect.poll(met, settle).toEqual(['false', 'true', 'true', 'true']);
  });

  it('asks for a valid phone before a code, for a code before sending, and for the agreement', async () => {
    const page = await portal.pageAt('localhost', '/sign-up');
    await button(page, '获取验证码').click();
    await expectToast(page, '请输入正确手机号');
    await field(page, '手机号').fill('1381234');
    await button(page, '获取验证码').click();
    await expectToast(page, '请输入正确手机号');
    // nothing was sent: no countdown
    await button(page, '获取验证码').waitFor(settle);

    // a complete form without a requested code
    const phone = '13612340001';
    await field(page, '手机号').fill(phone);
    await field(page, '验证码').fill('123456');
    await field(page, '密码').fill(PASSWORD);
    await field(page, '确认密码').fill(PASSWORD);
    await page.getByRole('checkbox', { name: '我已阅读并同意' }).check();
    await button(page, '注册').click();
    await expectToast(page, '请先获取验证码');
    expect(new URL(page.url()).pathname).toBe('/sign-up');

    // with a code, but the agreement unticked
    const sms = await watchOutbox(portal, phoneAddress(phone));
    await button(page, '获取验证码').click();
    await field(page, '验证码').fill(codeIn(await sms.next()));
    await page.getByRole('checkbox', { name: '我已阅读并同意' }).uncheck();
    await button(page, '注册').click();
    await expectToast(page, '请阅读并同意协议');
    expect(new URL(page.url()).pathname).toBe('/sign-up');

    await page.getByRole('checkbox', { name: '我已阅读并同意' }).check();
    await button(page, '注册').click();
    await expectPath(page, '/sign-email');
  });
});

describe('e-mail rules', () => {
  it('on /sign-email: 请输入邮箱 before a code, the format and the length under the field', async () => {
    const host = 'orange.localhost';
    const token = await signUpByApi(portal, host, '13612340002');
    const page = await portal.pageAt(host, '/sign-in');
    await page.evaluate((value) => localStorage.setItem('token', value), token);
    await page.goto(portal.url(host, '/sign-email'));
    await page.getByRole('heading', { name: '绑定邮箱' }).waitFor(settle);

    await button(page, '获取验证码').click();
    await expectToast(page, '请输入邮箱');
    await field(page, '邮箱').fill('someone@example');
    await button(page, '获取验证码').click();
    await expectFieldError(page, '邮箱', '请输入正确的邮箱');
    // nothing was sent
    await button(page, '获取验证码').waitFor(settle);
    await field(page, '邮箱').fill(`${'a'.repeat(29)}@example.com`);
    await expectFieldError(page, '邮箱', '长度超过限制');
    await field(page, '邮箱').fill('someone@example.com');
    await expectFieldError(page, '邮箱', '');

    await field(page, '验证码').fill('123456');
    await button(page, '确定').click();
    await expectToast(page, '请先获取验证码');
    expect(new URL(page.url()).pathname).toBe('/sign-email');
  });

  it('on /forget-password: the phone and e-mail rules of each tab, and switching tabs starts over', async () => {
    const page = await portal.pageAt('localhost', '/forget-password');
    await button(page, '下一步').click();
    await expectFieldError(page, '手机号', '您当前输入为空');
    await field(page, '手机号').fill('10000000000');
    await expectFieldError(page, '手机号', '手机号格式有误');

    await page.getByRole('tab', { name: '邮箱' }).click();
    await expect.poll(() => field(page, '手机号').count(), settle).toBe(0);
    expect(await fieldError(page, '邮箱')).toBe('');
    await button(page, '确定').click();
    await expectFieldError(page, '邮箱', '您当前输入为空');
    await field(page, '邮箱').fill('no-at-sign.example.com');
    await expectFieldError(page, '邮箱', '请输入正确的邮箱');
    await field(page, '邮箱').fill(`${'b'.repeat(30)}@example.com`);
    await expectFieldError(page, '邮箱', '长度超过限制');

    await page.getByRole('tab', { name: '手机号' }).click();
    await expect.poll(() => field(page, '手机号').inputValue(), settle).toBe('');
    expect(await fieldError(page, '手机号')).toBe('');
  });

  it('on /sign-in: typing past 40 characters of e-mail or 16 of password is kept, and the rule says so', async () => {
    const page = await portal.pageAt('localhost', '/sign-in');
    await page.getByRole('tab', { name: '邮箱' }).click();
    const email = `${'a'.repeat(31)}@test.com`;
    expect(email).toHaveLength(40);
    await field(page, '邮箱').pressSequentially(`${email}x`);
    await expect.poll(() => field(page, '邮箱').inputValue(), settle).toBe(`${email}x`);
    await field(page, '密码').pressSequentially('Abcdefgh123456789');
    await expect.poll(() => field(page, '密码').inputValue(), settle).toBe('Abcdefgh123456789');
    await button(page, '登录').click();
    // the sign-in form describes each field by its error
    const errorOf = (label: string) => field(page, label).evaluate((input) => document.getElementById(input.getAttribute('aria-describedby') ?? '')?.textContent ?? '');
    await expect.poll(() => errorOf('邮箱'), settle).toBe('长度超过限制');
    await expect.poll(() => errorOf('密码'), settle).toBe('输入大于最大输入限制');
  });

  it('puts an unknown phone on its field on /forget-password', async () => {
    const page = await portal.pageAt('localhost', '/forget-password');
    await field(page, '手机号').fill('13612349999');
    await button(page, '下一步').click();
    await expectFieldError(page, '手机号', '该手机号未注册');
    expect(new URL(page.url()).pathname).toBe('/forget-password');
  });
});

describe('/reset-password rules', () => {
  it('uses the standard password rule for a login password link', async () => {
    // a live link: one that was never sent, or is spent, shows no form (the next test)
    const account = { phone: '13712340011', email: 'rules.reset@example.com' };
    await createAccountByApi(portal, 'localhost', account);
    const mail = await watchOutbox(portal, account.email);
    expect((await callApi(portal, 'localhost', 'POST', '/api/v1/account/forget-password/code', { email: account.email })).code).toBe(0);
    const link = new URL(linkIn(await mail.next()));
    const page = await portal.pageAt('localhost', link.pathname + link.search);
    await page.getByRole('heading', { name: '重置密码' }).waitFor(settle);
    await button(page, '确定').click();
    await expectFieldError(page, '新密码', '您当前输入为空');
    await expectFieldError(page, '确认密码', '您当前输入为空');
    await field(page, '新密码').fill('short1A');
    await expectFieldError(page, '新密码', '输入小于最小输入限制');
    await field(page, '新密码').fill('alllowercase1');
    await expectFieldError(page, '新密码', '需包含大写字母、小写字母、数字，密码长度为8-16位');
    await field(page, '新密码').fill('Good1234');
    await field(page, '确认密码').fill('Good12345');
    await expectFieldError(page, '确认密码', '请保持与设置密码相同');
  });

  it('says on arrival that a link never sent, or no longer good, cannot be used', async () => {
    const page = await portal.pageAt('localhost', '/reset-password?email=someone%40example.com&code=123456&type=FORGET_PASSWORD');
    await page.getByRole('heading', { name: '重置密码' }).waitFor(settle);
    await page.getByRole('alert').filter({ hasText: '链接已失效或已被使用' }).waitFor(settle);
    expect(await field(page, '新密码').isVisible()).toBe(false);
    await page.getByRole('link', { name: '重新找回密码' }).click();
    await expectPath(page, '/forget-password');
  });

  it('sends a link of an unknown type to /forget-password', async () => {
    const page = await portal.pageAt('localhost', '/reset-password?email=someone%40example.com&code=123456&type=SOMETHING_ELSE');
    await expectPath(page, '/forget-password');
  });
});
