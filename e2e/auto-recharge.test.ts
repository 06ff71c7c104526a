/**
 * Browser tests of money that moves by itself, against the real server and its simulated issuer: a rule
 * set on a card's page runs after a purchase the operator's `card:simulate-transaction` makes (the card
 * shows the new balance and the run); 设置 → 通知 sets the low-balance alerts, and a threshold above the
 * wallet's balance alerts at the next movement. Screenshots at 1440 and 375 px go to /tmp/shots.
 *
 * Every test makes its own account through the API; nothing waits for a fixed time.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { CardItem, OpenedAvailableAnswer } from '@portal/contract/cards';
import type { AlertsAnswer } from '@portal/contract/balance-rules';
import type { MessagePage } from '@portal/contract/messages';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createAccountByApi, settle } from './accounts-support.ts';
import { useHarness } from './harness.ts';
import { portalCalls } from './portal-calls.ts';
import { openSignedIn } from './signed-in-session.ts';

const portal = useHarness();
const HOST = 'localhost';
const { ops, api, postWithKey } = portalCalls(portal, HOST);
const WIDE = { width: 1440, height: 900 };
const NARROW = { width: 375, height: 812 };
const shots = '/tmp/shots';
mkdirSync(shots, { recursive: true });

let accounts = 0;

/** A new account with 500.00 USD in its wallet and a card in use holding 20.00. */
async function accountWithCard() {
  const n = ++accounts;
  const phone = `1390019${String(n).padStart(4, '0')}`;
  const token = await createAccountByApi(portal, HOST, { phone, email: `funding-e2e-${n}@example.com` });
  const account = { phone, token };
  await ops(['wallet:recharge', '--host', HOST, '--account', phone, '--amount', '500', '--currency', 'USD']);
  await api(account, 'PUT', '/api/v1/card/verification', { real_name: '李四', id_number: '11010519491231002X' });
  const available = await api<OpenedAvailableAnswer>(account, 'GET', '/api/v1/card/opened-available');
  const product = available.products.find((candidate) => candidate.name === '订阅支付卡');
  if (!product) throw new Error('no 订阅支付卡');
  const opened = await postWithKey<CardItem>(account, '/api/v1/card', { product_id: product.id, amount: '20.00', nickname: '自动充值卡' }, `e2e-funding-${Date.now()}-${n}`);
  await expect.poll(async () => (await api<CardItem>(account, 'GET', `/api/v1/card/${opened.id}`)).status, settle).toBe('NORMAL');
  return { account, card: opened };
}

async function signedInPage(token: string, urlPath: string, viewport = WIDE): Promise<Page> {
  const page = await portal.pageAt(HOST, '/sign-in');
  await page.setViewportSize(viewport);
  const streamOpen = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/v1/events' && response.status() === 200, settle);
  await openSignedIn(page, token, urlPath);
  await streamOpen;
  return page;
}

describe('自动充值', () => {
  it('sets a rule on the card’s page and sees it top the card up after a purchase', async () => {
    const { account, card } = await accountWithCard();
    const page = await signedInPage(account.token, `/card-details?id=${card.id}`);
    const section = page.getByTestId('auto-recharge');
    await section.getByTestId('auto-recharge-enabled').click();
    await section.getByTestId('auto-recharge-threshold').fill('10');
    await section.getByTestId('auto-recharge-target').fill('10');
    await section.getByTestId('auto-recharge-daily-max').fill('100');
    await section.getByTestId('auto-recharge-save').click();
    // the contract's rule, on its field, before anything is sent
    await expect.poll(() => section.getByText('目标余额须高于触发余额').count(), settle).toBe(1);
    await section.getByTestId('auto-recharge-target').fill('50');
    await section.getByTestId('auto-recharge-save').click();
    await expect.poll(() => section.getByTestId('auto-recharge-status').innerText(), settle).toContain('低于 10.00 时充至 50.00');
    await page.screenshot({ path: path.join(shots, 'auto-recharge-1440.png'), fullPage: false });

    await ops(['card:simulate-transaction', '--card', card.id, '--amount', '12.00', '--merchant', 'Meta Ads', '--mcc', '7311', '--country', 'US']);
    await expect.poll(() => page.getByTestId('card-balance').innerText(), settle).toMatch(/^50\.00/);
    await expect.poll(() => section.getByTestId('auto-recharge-last-run').innerText(), settle).toContain('已充值 42.00 USD');
    expect(await section.getByTestId('auto-recharge-used').innerText()).toContain('42.00 / 100.00 USD');
    await page.setViewportSize(NARROW);
    await section.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(shots, 'auto-recharge-375.png'), fullPage: false });

    // the card list says so under the card's balance
    await page.setViewportSize(WIDE);
    await page.goto(new URL('/card', page.url()).toString());
    await expect.poll(() => page.getByTestId('card-auto-recharge').first().innerText(), settle).toContain('自动充值');
    await page.screenshot({ path: path.join(shots, 'auto-recharge-list-1440.png'), fullPage: false });
  });
});

describe('设置 → 通知', () => {
  it('sets the low-balance alerts, and a threshold above the wallet alerts at the next movement', async () => {
    const { account, card } = await accountWithCard();
    const page = await signedInPage(account.token, '/settings#notifications');
    const form = page.getByTestId('alerts-form');
    await form.getByTestId('alert-wallet-USD').fill('1000');
    await form.getByTestId('alert-cards').fill('5');
    await form.getByTestId('alerts-save').click();
    await expect.poll(() => page.getByText('余额提醒已保存').count(), settle).toBeGreaterThan(0);
    expect(await api<AlertsAnswer>(account, 'GET', '/api/v1/account/alerts')).toEqual({ wallet: [{ currency: 'USD', threshold: '1000.00' }], card_default_threshold: '5.00' });
    await page.getByTestId('settings-notifications').screenshot({ path: path.join(shots, 'alerts-1440.png') });

    await postWithKey(account, `/api/v1/card/${card.id}/recharge`, { amount: '1.00' }, `e2e-funding-top-${card.id}`);
    await expect
      .poll(async () => (await api<MessagePage>(account, 'GET', '/api/v1/msg-center/station-msg/list?page_size=20')).items.filter((item) => item.title === '余额不足提醒').length, settle)
      .toBe(1);

    await page.reload();
    await expect.poll(() => page.getByTestId('alert-wallet-USD').inputValue(), settle).toBe('1000.00');
    await page.setViewportSize(NARROW);
    await page.getByTestId('settings-notifications').scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(shots, 'alerts-375.png'), fullPage: false });
  });
});
