/**
 * The console's products and fees, announcements and agreements in the browser: an ADMIN changes a
 * product's open fee (the fee preview follows what is typed), and a customer's opening screen for a new
 * card then shows the new fee; the ADMIN adds a product (新建产品), which the table then lists; the ADMIN publishes an announcement that the customer's message centre
 * lists. Screens at 1440 px and 375 px.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createAccountByApi, field, settle } from './accounts-support.ts';
import { authenticator } from './authenticator.ts';
import { repoRoot, useHarness } from './harness.ts';
import { portalCalls } from './portal-calls.ts';
import { openSignedIn, runOpsCli } from './signed-in-session.ts';

const portal = useHarness();
const HOST = 'localhost';
const { ops, api } = portalCalls(portal, HOST);
const shots = path.join(repoRoot, 'test-results', 'console-admin');
const PRODUCT = '订阅支付卡';

async function shoot(page: Page, name: string) {
  await mkdir(shots, { recursive: true });
  await page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true });
}

/** An ADMIN made by the command line, signed in and enrolled in a page of its own. */
async function adminPage() {
  const email = `admin${Date.now().toString(36)}@ops.example`;
  const run = await runOpsCli(portal.server.dataDir, ['operator:create', '--host', HOST, '--email', email, '--role', 'ADMIN', '--name', '李管理']);
  expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
  const password = /password: (\S+)/.exec(run.stdout)?.[1] as string;
  const page = await portal.pageAt(HOST, '/console/sign-in');
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.getByLabel('邮箱').fill(email);
  await page.getByLabel('密码').fill(password);
  await page.getByRole('button', { name: '登录' }).click();
  const secret = (await page.getByTestId('totp-secret').innerText(settle)).trim();
  await page.getByLabel('验证码').fill(await authenticator(secret)());
  await page.getByRole('button', { name: '验证' }).click();
  await page.getByRole('button', { name: '我已保存，进入控制台' }).click();
  await page.getByTestId('overview').waitFor(settle);
  return page;
}

/** A customer with 500.00 USD and 实名认证 given, signed in on the portal's opening screen with the product chosen and 20.00 typed. */
async function openingScreen() {
  const phone = `1390009${String(Date.now() % 10_000).padStart(4, '0')}`;
  const account = { phone, email: `console-admin-${phone}@example.com` };
  const token = await createAccountByApi(portal, HOST, account);
  const customer = { ...account, token };
  await ops(['wallet:recharge', '--host', HOST, '--account', phone, '--amount', '500', '--currency', 'USD']);
  await api(customer, 'PUT', '/api/v1/card/verification', { real_name: '李四', id_number: '11010519491231002X' });
  const page = await portal.pageAt(HOST, '/sign-in');
  await page.setViewportSize({ width: 1440, height: 900 });
  await openSignedIn(page, token, '/create-card');
  const picker = page.getByTestId('product-picker');
  await picker.waitFor({ state: 'visible', ...settle });
  await picker.locator('label').filter({ hasText: PRODUCT }).click();
  await field(page, '首充金额').fill('20.00');
  return { page, customer };
}

/** Picks an option of one of the form's drop-downs by its words. */
async function pickOption(page: Page, selectLabel: string, option: string) {
  await page.getByRole('combobox', { name: selectLabel }).click();
  await page.locator(`.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option[title="${option}"]`).click();
}

describe('the console’s products and announcements', () => {
  it('an ADMIN changes a product’s open fee and a new card’s opening shows it, creates a product that the table lists; an announcement reaches the message centre', async () => {
    const { page: portalPage, customer } = await openingScreen();
    const cost = portalPage.getByTestId('cost-breakdown');
    const before = (await cost.getByTestId('cost-open-fee').innerText(settle)).trim();
    const [oldFee = ''] = before.split(' ');
    const newFee = oldFee === '3.75' ? '4.25' : '3.75';

    const page = await adminPage();
    await page.getByRole('menuitem', { name: '卡产品与费率' }).click();
    await page.getByTestId('new-cards-only').waitFor(settle);
    expect(await page.getByTestId('new-cards-only').innerText()).toContain('已开的卡保留开卡时的费率');
    await page.getByRole('cell', { name: PRODUCT, exact: true }).waitFor(settle);
    await shoot(page, 'products-1440');
    await page.getByRole('button', { name: `编辑 ${PRODUCT}` }).click();
    const drawer = page.getByRole('dialog');
    await drawer.getByLabel('开卡费（USD）').fill(newFee);
    // the preview follows the form: what a customer pays for a first load of 100.00
    await expect.poll(() => drawer.getByTestId('fee-preview').innerText(), settle).toContain(newFee);
    await shoot(page, 'product-drawer-1440');
    await drawer.getByRole('button', { name: '保存修改' }).click();
    await page.getByText('已保存，新开的卡按新费率收费').waitFor(settle);
    const row = page.getByRole('row').filter({ hasText: PRODUCT });
    await expect.poll(() => row.innerText(), settle).toContain(newFee);

    // the customer's opening screen for a new card, opened afresh, charges the new fee
    await portalPage.reload();
    const picker = portalPage.getByTestId('product-picker');
    await picker.waitFor({ state: 'visible', ...settle });
    await picker.locator('label').filter({ hasText: PRODUCT }).click();
    await field(portalPage, '首充金额').fill('20.00');
    await expect.poll(() => cost.getByTestId('cost-open-fee').innerText(), settle).toBe(`${newFee} USD`);

    // a new product: the ADMIN fills the drawer's form, and the table lists it
    const created = `旅行卡${Date.now().toString(36).slice(-5)}`;
    await page.getByRole('button', { name: '新建产品' }).click();
    const form = page.getByRole('dialog').filter({ hasText: '新建卡产品' });
    await form.getByLabel('产品名称').fill(created);
    await pickOption(page, '卡组织', 'MASTERCARD');
    await form.getByLabel('BIN').fill('5555444');
    await pickOption(page, '币种', 'USD');
    await form.getByLabel('开卡费').fill('1.50');
    await form.getByLabel('充值费率').fill('0.012');
    await form.getByLabel('最低首充金额').fill('9999');
    await form.getByLabel('单卡余额上限').fill('5000');
    // the rule between two fields, the contract's, on the field it names
    await form.getByRole('button', { name: '创 建' }).or(form.getByRole('button', { name: '创建' })).click();
    await form.getByText('最低首充金额不能高于单卡余额上限').waitFor(settle);
    await form.getByLabel('最低首充金额').fill('5');
    await expect.poll(() => form.getByText('最低首充金额不能高于单卡余额上限').count(), settle).toBe(0);
    await shoot(page, 'product-create-1440');
    await form.getByRole('button', { name: '创 建' }).or(form.getByRole('button', { name: '创建' })).click();
    await page.getByText(`已新建卡产品：${created}`).waitFor(settle);
    await page.getByRole('cell', { name: created, exact: true }).waitFor(settle);
    await expect.poll(() => page.getByRole('row').filter({ hasText: created }).innerText(), settle).toContain('MASTERCARD / 5555444');

    // the change and the new product are in the audit log
    await page.getByRole('menuitem', { name: '审计日志' }).click();
    await page.getByRole('cell', { name: '修改卡产品' }).first().waitFor(settle);
    await page.getByRole('cell', { name: '新建卡产品' }).first().waitFor(settle);

    // an announcement to every customer
    const title = `费率调整公告 ${Date.now().toString(36)}`;
    await page.getByRole('menuitem', { name: '公告与协议' }).click();
    await page.getByLabel('标题').fill(title);
    await page.getByLabel('内容').fill(`<p>${PRODUCT}的开卡费调整为 ${newFee} USD。</p>`);
    await shoot(page, 'content-1440');
    await page.getByRole('button', { name: '发布' }).click();
    await page.getByRole('tooltip').getByRole('button', { name: '发布' }).click();
    await page.getByText('已发布').first().waitFor(settle);
    await page.getByText(title).waitFor(settle);

    await openSignedIn(portalPage, customer.token, '/information-center?tab=announcement');
    await portalPage.getByText(title).first().waitFor(settle);

    // the screens at 375 px: nothing wider than the page
    await page.setViewportSize({ width: 375, height: 812 });
    for (const [where, name] of [
      ['/console/products', 'products-375'],
      ['/console/content', 'content-375'],
      ['/console/', 'overview-375'],
    ] as const) {
      await page.goto(portal.url(HOST, where));
      await page.getByText(name.startsWith('products') ? '卡产品与费率' : name.startsWith('content') ? '公告与协议' : '概览', { exact: true }).last().waitFor(settle);
      if (name.startsWith('products')) await page.getByRole('cell', { name: PRODUCT, exact: true }).waitFor(settle);
      if (name.startsWith('overview')) await page.getByTestId('overview').waitFor(settle);
      await shoot(page, name);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), where).toBeLessThanOrEqual(0);
    }
    await page.goto(portal.url(HOST, '/console/products'));
    await page.getByRole('button', { name: `编辑 ${PRODUCT}` }).click();
    await page.getByTestId('fee-preview').waitFor(settle);
    // the drawer fits the narrow screen once it has slid in
    await expect.poll(() => page.getByRole('dialog').evaluate((dialog) => Math.round(dialog.getBoundingClientRect().right)), settle).toBeLessThanOrEqual(375);
    await expect.poll(() => page.getByRole('dialog').evaluate((dialog) => Math.round(dialog.getBoundingClientRect().left)), settle).toBeGreaterThanOrEqual(0);
    await shoot(page, 'product-drawer-375');
  }, 240_000);
});
