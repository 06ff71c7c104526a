/**
 * Browser test of the trade password against the real server: a fresh account, funded by the operator
 * command line and verified through the API, sets its trade password on /settings at 375 px (typed
 * twice), then opens a card on /create-card: the review asks for it, a wrong one is said on the field
 * and moves nothing, the right one opens the card. On a phone, the review's 忘记交易密码 lands on the
 * 交易密码 section of /settings.
 *
 * Nothing waits for a fixed time: the page is waited on for what it shows, the API polled for what it answers.
 */
import type { AccountInfo } from '@portal/contract/account';
import type { CardItem } from '@portal/contract/cards';
import type { MessagePage } from '@portal/contract/messages';
import type { AccountBalanceItem } from '@portal/contract/wallet';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { runOps } from '../apps/server/src/ops/cli.ts';
import { button, createAccountByApi, expectPath, expectToast, field, PASSWORD, settle } from './accounts-support.ts';
import { useHarness } from './harness.ts';
import { openSignedIn } from './signed-in-session.ts';
import { portalCalls } from './portal-calls.ts';

const portal = useHarness();
const HOST = 'localhost';
const { api } = portalCalls(portal, HOST);
const WIDE = { width: 1440, height: 900 };
const NARROW = { width: 375, height: 812 };
const PRODUCT = '订阅支付卡';

interface Account {
  phone: string;
  token: string;
}

/** A new account with 500.00 USD from the operator and its 实名认证 given, so it can open cards. */
async function readyAccount(): Promise<Account> {
  const phone = '13900091001';
  const token = await createAccountByApi(portal, HOST, { phone, email: 'trade-password-e2e@example.com' });
  const err: string[] = [];
  const code = await runOps(['wallet:recharge', '--host', HOST, '--account', phone, '--amount', '500', '--currency', 'USD'], {
    env: { DATA_DIR: portal.server.dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn', ISSUER_URL: portal.server.issuerUrl },
    out: () => {},
    err: (text) => err.push(text),
  });
  if (code !== 0) throw new Error(`wallet:recharge failed (${code}): ${err.join('\n')}`);
  const account = { phone, token };
  await api(account, 'PUT', '/api/v1/card/verification', { real_name: '王五', id_number: '11010519491231002X' });
  return account;
}

async function usdWallet(account: Account) {
  const rows = await api<AccountBalanceItem[]>(account, 'GET', '/api/v1/balance/account-balance');
  const usd = rows.find((row) => row.currency === 'USD');
  return { available: usd?.available, held: usd?.anew };
}

/** Whether the page scrolls sideways: at 375 px nothing may stick out. */
const overflowsSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

describe('the trade password', () => {
  it('is set on /settings, then asked for when a card is opened: a wrong one is said on the field and moves nothing, the right one opens the card; 忘记交易密码 leads to its section', async () => {
    const account = await readyAccount();
    const page = await portal.pageAt(HOST, '/sign-in');
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.setViewportSize(NARROW);
    await openSignedIn(page, account.token, '/settings');

    // 交易密码 on /settings, on a phone: 未设置, set with the password typed twice
    const section = page.getByTestId('settings-trade-password');
    await section.waitFor({ state: 'visible', ...settle });
    await expect.poll(() => section.getByTestId('trade-password-status').innerText(), settle).toBe('未设置');
    // the first one needs the login password too: a session alone cannot set what then moves money
    await field(page, '交易密码').fill('Trade123');
    await field(page, '确认交易密码').fill('Trade124');
    await button(page, '设置交易密码').click();
    await expect.poll(() => section.locator('.ant-form-item-explain-error').allInnerTexts(), settle).toEqual(['请输入登录密码', '请保持与设置密码相同']);
    await field(page, '确认交易密码').fill('Trade123');
    await field(page, '登录密码').fill('Wrong1234');
    expect(await overflowsSideways(page)).toBe(false);
    await button(page, '设置交易密码').click();
    await expect.poll(() => section.locator('.ant-form-item-explain-error').allInnerTexts(), settle).toEqual(['登录密码错误']);
    expect((await api<AccountInfo>(account, 'GET', '/api/v1/account/info')).trx_password_set).toBe(false);
    await field(page, '登录密码').fill(PASSWORD);
    await button(page, '设置交易密码').click();
    await expectToast(page, '交易密码已设置');
    await expect.poll(() => section.getByTestId('trade-password-status').innerText(), settle).toBe('已设置');
    await field(page, '原交易密码').waitFor({ state: 'visible', ...settle });
    expect(await overflowsSideways(page)).toBe(false);
    expect((await api<AccountInfo>(account, 'GET', '/api/v1/account/info')).trx_password_set).toBe(true);
    const messages = await api<MessagePage>(account, 'GET', '/api/v1/msg-center/station-msg/list?kind=message');
    expect(messages.items.map((message) => message.title)).toContain('交易密码已设置');

    // 开卡: the review asks for it
    await page.setViewportSize(WIDE);
    await page.goto(new URL('/create-card', page.url()).href, { waitUntil: 'load' });
    const picker = page.getByTestId('product-picker');
    await picker.waitFor({ state: 'visible', ...settle });
    await picker.locator('label').filter({ hasText: PRODUCT }).click();
    await expect.poll(() => page.getByRole('radio', { name: PRODUCT }).isChecked(), settle).toBe(true);
    await field(page, '首充金额').fill('20.00');
    await field(page, '卡片昵称').fill('交易密码卡');
    await expect.poll(() => page.getByTestId('cost-total').innerText(), settle).toBe('22.50 USD');
    await page.getByTestId('open-card-submit').click();
    const review = page.getByRole('dialog', { name: '确认开卡' });
    await review.waitFor({ state: 'visible', ...settle });
    const trade = review.locator('input').and(review.getByLabel('交易密码', { exact: true }));
    await trade.waitFor({ state: 'visible', ...settle });

    // a wrong one: said on the field, the review stays, nothing moves
    await trade.fill('Wrong123');
    await review.getByRole('button', { name: '确认并支付' }).click();
    await expect.poll(() => review.getByTestId('trade-password-refusal').innerText().catch(() => ''), settle).toBe('交易密码错误，还可尝试4次');
    expect(await review.isVisible()).toBe(true);
    expect(await usdWallet(account)).toEqual({ available: '500.00', held: '0.00' });
    expect((await api<{ total: number }>(account, 'GET', '/api/v1/card')).total).toBe(0);

    // the right one opens the card
    await trade.fill('Trade123');
    await expect.poll(() => review.getByTestId('trade-password-refusal').count(), settle).toBe(0);
    await review.getByRole('button', { name: '确认并支付' }).click();
    await expectPath(page, '/card-details');
    const cardId = new URL(page.url()).searchParams.get('id') ?? '';
    const card = await api<CardItem>(account, 'GET', `/api/v1/card/${encodeURIComponent(cardId)}`);
    expect(card.nickname).toBe('交易密码卡');
    await expect.poll(() => usdWallet(account), settle).not.toEqual({ available: '500.00', held: '0.00' });

    // on a phone, the review's 忘记交易密码 opens /settings at the 交易密码 section, below the sections above it
    await page.setViewportSize(NARROW);
    await page.goto(new URL('/create-card', page.url()).href, { waitUntil: 'load' });
    await picker.waitFor({ state: 'visible', ...settle });
    await picker.locator('label').filter({ hasText: PRODUCT }).click();
    await expect.poll(() => page.getByRole('radio', { name: PRODUCT }).isChecked(), settle).toBe(true);
    await field(page, '首充金额').fill('20.00');
    await field(page, '卡片昵称').fill('第二张卡');
    await expect.poll(() => page.getByTestId('cost-total').innerText(), settle).toBe('22.50 USD');
    await page.getByTestId('open-card-submit').click();
    await review.waitFor({ state: 'visible', ...settle });
    await review.getByRole('link', { name: '忘记交易密码' }).click();
    await expectPath(page, '/settings');
    expect(new URL(page.url()).hash).toBe('#trade-password');
    await section.waitFor({ state: 'visible', ...settle });
    const inView = async () => {
      const box = await section.boundingBox();
      // at the top, below the header and the row of sections
      return box !== null && box.y > 100 && box.y < 200 && (await page.evaluate(() => window.scrollY)) > 0;
    };
    await expect.poll(inView, settle).toBe(true);
    // still there once the sections above have drawn what they load
    await page.getByTestId('overview-phone').waitFor({ state: 'visible', ...settle });
    await field(page, '原交易密码').waitFor({ state: 'visible', ...settle });
    expect(await inView()).toBe(true);
    // scrolled further, the row of sections follows the page (it stays below the header) and does not pull the page back to it
    const scrollY = () => page.evaluate(() => window.scrollY);
    const reached = await scrollY();
    await page.mouse.wheel(0, 900);
    const nav = page.getByRole('navigation', { name: '设置分区' });
    await expect.poll(() => nav.locator('.ant-anchor-link-title-active').innerText(), settle).not.toBe('交易密码');
    expect(await scrollY()).toBeGreaterThan(reached + 500);
    expect((await nav.boundingBox())?.y).toBeLessThan(120);
    expect(errors).toEqual([]);
  });
});
