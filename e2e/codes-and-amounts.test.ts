/**
 * A code the customer received stays good across a reload and a dialog opened again, and a resend
 * the server refuses as too soon is said and counted down with the seconds it gave. An amount field
 * keeps what was typed and says what is wrong with it.
 */
import type { CardItem, OpenedAvailableAnswer } from '@portal/contract/cards';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { button, callApi, codeIn, createAccountByApi, expectFieldError, expectPath, field, phoneAddress, settle, watchOutbox } from './accounts-support.ts';
import { useHarness } from './harness.ts';
import { openSignedIn } from './signed-in-session.ts';
import { portalCalls } from './portal-calls.ts';

const portal = useHarness();
const HOST = 'localhost';
const { ops, api, postWithKey } = portalCalls(portal, HOST);

const countdown = (page: Page) => button(page, /^\d+秒后重新获取$/);
const tooSoonToast = (page: Page) => page.getByTestId('toast').filter({ hasText: /^验证码发送过于频繁，请\d+秒后再试\(2004\)$/ });

async function fillSignUp(page: Page, code: string) {
  await field(page, '验证码').fill(code);
  await field(page, '密码').fill('Codes2024');
  await field(page, '确认密码').fill('Codes2024');
  await page.getByRole('checkbox', { name: '我已阅读并同意' }).check();
}

describe('a code received', () => {
  it('at sign-up: still taken after a reload, which still counts down; a resend refused as too soon is said and counted down, and the code sent before is taken', async () => {
    // reload: the code asked for before it is still good, and the wait goes on
    const phone = '13912350001';
    const sms = await watchOutbox(portal, phoneAddress(phone));
    const page = await portal.pageAt(HOST, '/sign-up');
    await field(page, '手机号').fill(phone);
    await button(page, '获取验证码').click();
    await countdown(page).waitFor(settle);
    const code = codeIn(await sms.next());
    await page.reload({ waitUntil: 'load' });
    await field(page, '手机号').fill(phone);
    await countdown(page).waitFor(settle);
    expect(await countdown(page).isDisabled()).toBe(true);
    await fillSignUp(page, code);
    await button(page, '注册').click();
    await expectPath(page, '/sign-email');
    expect(await page.getByTestId('toast').filter({ hasText: '请先获取验证码' }).count()).toBe(0);

    // another tab (or device) asked a moment ago: this one's request is refused, said, and counted down
    const other = '13912350002';
    const otherSms = await watchOutbox(portal, phoneAddress(other));
    const sent = await callApi(portal, HOST, 'POST', '/api/v1/account/send/code', {
      send_type: 'SEND_TYPE_PHONE',
      mark_type: 'MARK_TYPE_REGISTER',
      phone_info: { phone: other, phone_prefix: '86' },
    });
    expect(sent.code, sent.message).toBe(0);
    const otherCode = codeIn(await otherSms.next());
    const second = await portal.pageAt(HOST, '/sign-up');
    await field(second, '手机号').fill(other);
    await button(second, '获取验证码').click();
    await tooSoonToast(second).first().waitFor({ state: 'visible', ...settle });
    const said = Number((await tooSoonToast(second).first().innerText()).match(/请(\d+)秒后再试/)?.[1]);
    expect(said).toBeGreaterThan(0);
    expect(said).toBeLessThanOrEqual(60);
    await countdown(second).waitFor(settle);
    const shown = Number((await countdown(second).innerText()).match(/^(\d+)/)?.[1]);
    expect(shown).toBeLessThanOrEqual(said);
    expect(shown).toBeGreaterThan(said - 10);
    await fillSignUp(second, otherCode);
    await button(second, '注册').click();
    await expectPath(second, '/sign-email');
  });

  it('at 查看卡号: closed and opened again, the dialog still counts down and takes the code already received', async () => {
    const phone = '13912350003';
    const token = await createAccountByApi(portal, HOST, { phone, email: 'codes-kept-e2e@example.com' });
    await ops(['wallet:recharge', '--host', HOST, '--account', phone, '--amount', '100', '--currency', 'USD']);
    await api(token, 'PUT', '/api/v1/card/verification', { real_name: '赵六', id_number: '11010519491231002X' });
    const available = await api<OpenedAvailableAnswer>(token, 'GET', '/api/v1/card/opened-available');
    const product = available.products.find((candidate) => candidate.name === '订阅支付卡');
    if (!product) throw new Error('no 订阅支付卡');
    const opened = await postWithKey<CardItem>(token, '/api/v1/card', { product_id: product.id, amount: '10.00', nickname: '验证码' }, `e2e-codes-${phone}`);
    await expect.poll(async () => (await api<CardItem>(token, 'GET', `/api/v1/card/${opened.id}`)).status, settle).toBe('NORMAL');

    const page = await portal.pageAt(HOST, '/sign-in');
    await openSignedIn(page, token, `/card-details?id=${opened.id}`);
    const sms = await watchOutbox(portal, phoneAddress(phone));
    const openReveal = async () => {
      await page.getByRole('button', { name: /查看卡号/ }).click();
      const dialog = page.getByRole('dialog', { name: '查看卡号' });
      await dialog.waitFor({ state: 'visible', ...settle });
      return dialog;
    };
    let dialog = await openReveal();
    await dialog.getByRole('button', { name: '获取验证码' }).click();
    await dialog.getByRole('button', { name: /^\d+秒后重新获取$/ }).waitFor(settle);
    const code = codeIn(await sms.next());
    await dialog.locator('.ant-modal-close').click();
    await dialog.waitFor({ state: 'hidden', ...settle });

    dialog = await openReveal();
    // still counting, and a resend is not offered before its time
    await dialog.getByRole('button', { name: /^\d+秒后重新获取$/ }).waitFor(settle);
    await dialog.getByLabel('验证码').fill(code);
    await dialog.getByRole('button', { name: /验证并查看/ }).click();
    await expect.poll(() => dialog.getByTestId('reveal-number').innerText().catch(() => ''), settle).toMatch(/^[\d ]{16,23}$/);
    expect(await page.getByTestId('toast').filter({ hasText: '请先获取验证码' }).count()).toBe(0);
  });
});

describe('an amount field', () => {
  it('keeps 1e3 and -5 as typed and says what is wrong, at 首充金额 on /create-card', async () => {
    const phone = '13912350004';
    const token = await createAccountByApi(portal, HOST, { phone, email: 'amounts-e2e@example.com' });
    await ops(['wallet:recharge', '--host', HOST, '--account', phone, '--amount', '100', '--currency', 'USD']);
    await api(token, 'PUT', '/api/v1/card/verification', { real_name: '赵六', id_number: '11010519491231002X' });
    const page = await portal.pageAt(HOST, '/sign-in');
    await openSignedIn(page, token, '/create-card');
    const picker = page.getByTestId('product-picker');
    await picker.waitFor({ state: 'visible', ...settle });
    await picker.locator('label').filter({ hasText: '订阅支付卡' }).click();
    await expect.poll(() => page.getByRole('radio', { name: '订阅支付卡' }).isChecked(), settle).toBe(true);
    const amount = field(page, '首充金额');
    for (const typed of ['1e3', '-5']) {
      await amount.fill('');
      await amount.pressSequentially(typed);
      await expectFieldError(page, '首充金额', '请输入正确的金额（大于0，最多两位小数）');
      expect(await amount.inputValue()).toBe(typed);
    }
    await amount.fill('');
    await expectFieldError(page, '首充金额', '请输入金额');
    await amount.fill('20.00');
    await expectFieldError(page, '首充金额', '');
    await expect.poll(() => page.getByTestId('cost-total').innerText(), settle).toBe('22.50 USD');
  });
});
