import { describe, expect, it } from 'vitest';
import { button, demoEmail, expectPath, field, PASSWORD, passVerification, phoneAddress, settle } from './accounts-support.ts';
import { useHarness } from './harness.ts';

const portal = useHarness();

const DEMO_PHONE = '13800138000';

/** The verification dialog of a sign-in from an untrusted device. */
const verificationDialog = (page: import('playwright-core').Page) => page.getByRole('dialog', { name: '安全验证' });

describe('/sign-in with the second verification', () => {
  it('says 当前网络异常，数据已保存，恢复后提交即可 when 登录 is pressed offline on a first visit, over the form', async () => {
    const page = await portal.pageAt('blue.localhost', '/sign-in');
    await field(page, '手机号').fill(DEMO_PHONE);
    await field(page, '密码').fill(PASSWORD);
    // the app has taken the drawn page over (typing started it); now the network goes
    await page.waitForFunction(() => document.getElementById('root')?.hasAttribute('data-shell') === false, undefined, settle);
    await page.context().setOffline(true);
    try {
      await button(page, '登录').click();
      const toast = page.getByTestId('toast').filter({ hasText: '当前网络异常，数据已保存，恢复后提交即可' }).first();
      await toast.waitFor(settle);
      // shown over the form's column, below the logo, not centred on the window
      const form = await page.locator('[data-toast-anchor]').boundingBox();
      const box = await toast.boundingBox();
      const logo = await page.getByRole('banner').boundingBox();
      expect(form && box && logo).toBeTruthy();
      if (form && box && logo) {
        expect(box.x).toBeGreaterThanOrEqual(form.x - 1);
        expect(box.x + box.width).toBeLessThanOrEqual(form.x + form.width + 1);
        expect(box.y).toBeGreaterThanOrEqual(logo.y + logo.height - 1);
      }
      expect(new URL(page.url()).pathname).toBe('/sign-in');
    } finally {
      await page.context().setOffline(false);
    }
  });

  it('signs in with the phone: the code goes to the phone, then the wallet', async () => {
    const page = await portal.pageAt('purple.localhost', '/sign-in');
    await field(page, '手机号').fill(DEMO_PHONE);
    await field(page, '密码').fill(PASSWORD);
    await button(page, '登录').click();
    await verificationDialog(page).getByText('手机号').first().waitFor(settle);
    await passVerification(page, portal, phoneAddress(DEMO_PHONE));
    await expectPath(page, '/wallet');
    expect(await page.evaluate(() => localStorage.getItem('isLogin'))).toBe('1');
  });

  it('signs in with the e-mail: the code goes to the e-mail, then the wallet', async () => {
    const email = demoEmail('redflame.example');
    const page = await portal.pageAt('red.localhost', '/sign-in');
    await page.getByRole('tab', { name: '邮箱' }).click();
    await field(page, '邮箱').fill(email);
    await field(page, '密码').fill(PASSWORD);
    await button(page, '登录').click();
    await verificationDialog(page).getByText('邮箱').first().waitFor(settle);
    await passVerification(page, portal, email);
    await expectPath(page, '/wallet');
  });

  it('skips the verification on a device trusted for 30 days', async () => {
    const host = 'yellow.localhost';
    const page = await portal.pageAt(host, '/sign-in');
    await field(page, '手机号').fill(DEMO_PHONE);
    await field(page, '密码').fill(PASSWORD);
    await button(page, '登录').click();
    await passVerification(page, portal, phoneAddress(DEMO_PHONE), { trustDevice: true });
    await expectPath(page, '/wallet');

    // the session is gone from this browser, but the device stays trusted
    await page.evaluate(() => {
      localStorage.clear();
      sessionStorage.clear();
    });
    await page.goto(portal.url(host, '/sign-in'));
    await field(page, '手机号').fill(DEMO_PHONE);
    await field(page, '密码').fill(PASSWORD);
    await button(page, '登录').click();
    await expectPath(page, '/wallet');
    expect(await verificationDialog(page).count()).toBe(0);

    // another browser is not trusted
    const other = await portal.pageAt(host, '/sign-in');
    await field(other, '手机号').fill(DEMO_PHONE);
    await field(other, '密码').fill(PASSWORD);
    await button(other, '登录').click();
    await verificationDialog(other).waitFor(settle);
    expect(new URL(other.url()).pathname).toBe('/sign-in');
  });

  it('keeps the dialog open with 您的输入不满足验证条件 when the code is not six digits', async () => {
    const page = await portal.pageAt('orange.localhost', '/sign-in');
    await field(page, '手机号').fill(DEMO_PHONE);
    await field(page, '密码').fill(PASSWORD);
    await button(page, '登录').click();
    const dialog = verificationDialog(page);
    await dialog.waitFor(settle);
    // no code asked for yet
    await dialog.getByRole('button', { name: /^确\s*定$/ }).click();
    await page.getByTestId('toast').filter({ hasText: '请先获取验证码' }).first().waitFor(settle);
    await button(page, '获取验证码').click();
    await button(page, /^\d+秒后重新获取$/).waitFor(settle);
    await dialog.getByLabel('验证码').fill('123');
    await dialog.getByRole('button', { name: /^确\s*定$/ }).click();
    await page.getByTestId('toast').filter({ hasText: '您的输入不满足验证条件' }).first().waitFor(settle);
    await dialog.getByText('请输入正确验证码').waitFor(settle);
    expect(new URL(page.url()).pathname).toBe('/sign-in');
  });
});
