/**
 * Browser tests of auto top-up rules per tag and in bulk, against the real server and its simulated
 * issuer: 标签自动充值 on the card list sets a tag's rule, a tagged card is topped up after a purchase
 * the operator's `card:simulate-transaction` makes, and its page says the rule comes from the tag; the
 * bulk bar's 设置自动充值 sets the ticked cards' own rule. Screenshots at 1440 and 375 px go to /tmp/shots.
 *
 * Every test makes its own account through the API; nothing waits for a fixed time.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { AutoRechargeRule } from '@portal/contract/balance-rules';
import type { CardItem, OpenedAvailableAnswer } from '@portal/contract/cards';
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

/** A new account with 500.00 USD in its wallet and `n` cards in use holding 20.00 each. */
async function accountWithCards(n: number) {
  const serial = ++accounts;
  const phone = `1390052${String(serial).padStart(4, '0')}`;
  const token = await createAccountByApi(portal, HOST, { phone, email: `tag-rules-e2e-${serial}@example.com` });
  const account = { phone, token };
  await ops(['wallet:recharge', '--host', HOST, '--account', phone, '--amount', '500', '--currency', 'USD']);
  await api(account, 'PUT', '/api/v1/card/verification', { real_name: '李四', id_number: '11010519491231002X' });
  const available = await api<OpenedAvailableAnswer>(account, 'GET', '/api/v1/card/opened-available');
  const product = available.products.find((candidate) => candidate.name === '订阅支付卡');
  if (!product) throw new Error('no 订阅支付卡');
  const cards: CardItem[] = [];
  for (let i = 0; i < n; i += 1) {
    const opened = await postWithKey<CardItem>(account, '/api/v1/card', { product_id: product.id, amount: '20.00', nickname: `标签卡${i + 1}` }, `e2e-tag-rules-${Date.now()}-${serial}-${i}`);
    await expect.poll(async () => (await api<CardItem>(account, 'GET', `/api/v1/card/${opened.id}`)).status, settle).toBe('NORMAL');
    cards.push(opened);
  }
  return { account, cards };
}

async function signedInPage(token: string, urlPath: string, viewport = WIDE): Promise<Page> {
  const page = await portal.pageAt(HOST, '/sign-in');
  await page.setViewportSize(viewport);
  const streamOpen = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/v1/events' && response.status() === 200, settle);
  await openSignedIn(page, token, urlPath);
  await streamOpen;
  return page;
}

describe('标签自动充值', () => {
  it('sets a tag’s rule from the card list and sees a tagged card topped up after a purchase', async () => {
    const {
      account,
      cards: [card],
    } = await accountWithCards(1);
    if (!card) throw new Error('no card');
    await api(account, 'PUT', `/api/v1/card/${card.id}/tags`, { tags: ['投放'] });
    const page = await signedInPage(account.token, '/card');
    await page.getByTestId('open-tag-rules').click();
    const dialog = page.getByTestId('tag-rules-dialog');
    await expect.poll(() => dialog.getByTestId('tag-rules-empty').count(), settle).toBe(1);
    await page.screenshot({ path: path.join(shots, 'tag-rules-empty-1440.png'), fullPage: false });

    await dialog.getByTestId('tag-rule-add').click();
    await dialog.getByTestId('tag-rule-tag').fill('投放');
    await dialog.getByTestId('tag-rule-threshold').fill('10');
    await dialog.getByTestId('tag-rule-target').fill('10');
    await dialog.getByTestId('tag-rule-daily-max').fill('100');
    await dialog.getByTestId('tag-rule-save').click();
    // the contract's rule, on its field, before anything is sent
    await expect.poll(() => dialog.getByText('目标余额须高于触发余额').count(), settle).toBe(1);
    await dialog.getByTestId('tag-rule-target').fill('50');
    await dialog.getByTestId('tag-rule-save').click();
    await expect.poll(() => dialog.getByTestId('tag-rule-cards').first().innerText(), settle).toBe('生效 1 张 / 带标签 1 张');
    expect(await dialog.getByTestId('tag-rule').first().innerText()).toContain('低于 10.00 时充至 50.00');
    await page.screenshot({ path: path.join(shots, 'tag-rules-1440.png'), fullPage: false });
    await page.setViewportSize(NARROW);
    await page.screenshot({ path: path.join(shots, 'tag-rules-375.png'), fullPage: false });
    await page.setViewportSize(WIDE);

    await ops(['card:simulate-transaction', '--card', card.id, '--amount', '12.00', '--merchant', 'Meta Ads', '--mcc', '7311', '--country', 'US']);
    await expect.poll(async () => (await api<AutoRechargeRule>(account, 'GET', `/api/v1/card/${card.id}/auto-recharge`)).last_run?.status, settle).toBe('DONE');

    await page.goto(new URL(`/card-details?id=${card.id}`, page.url()).toString());
    await expect.poll(() => page.getByTestId('card-balance').innerText(), settle).toMatch(/^50\.00/);
    const section = page.getByTestId('auto-recharge');
    await expect.poll(() => section.getByTestId('auto-recharge-source').innerText(), settle).toContain('当前使用标签「投放」的自动充值规则');
    expect(await section.getByTestId('auto-recharge-last-run').innerText()).toContain('已充值 42.00 USD');
    await section.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(shots, 'tag-rule-card-1440.png'), fullPage: false });
    await page.setViewportSize(NARROW);
    await section.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(shots, 'tag-rule-card-375.png'), fullPage: false });
  });

  it('sets the ticked cards’ own rule with 设置自动充值 in the bulk bar', async () => {
    const { account, cards } = await accountWithCards(2);
    const page = await signedInPage(account.token, '/card');
    await page.getByTestId('card-total').waitFor({ state: 'visible', ...settle });
    await page.locator('.ant-table-thead .ant-checkbox-input').first().check();
    await expect.poll(() => page.getByTestId('bulk-count').innerText(), settle).toBe('已选 2 张');
    await page.getByTestId('bulk-more').click();
    await page.getByRole('menuitem', { name: '设置自动充值' }).click();
    const dialog = page.getByTestId('bulk-dialog');
    await dialog.getByTestId('bulk-auto-threshold').fill('10');
    await dialog.getByTestId('bulk-auto-target').fill('60');
    await dialog.getByTestId('bulk-auto-daily-max').fill('200');
    await page.screenshot({ path: path.join(shots, 'bulk-auto-recharge-1440.png'), fullPage: false });
    await dialog.getByRole('button', { name: '复 核' }).or(dialog.getByRole('button', { name: '复核' })).click();
    await expect.poll(() => dialog.getByTestId('bulk-review').count(), settle).toBe(1);
    await dialog.getByRole('button', { name: /确认提交|确 认提交/ }).click();
    for (const card of cards) {
      await expect.poll(async () => (await api<AutoRechargeRule>(account, 'GET', `/api/v1/card/${card.id}/auto-recharge`)).target, settle).toBe('60.00');
    }
    await expect.poll(() => page.getByTestId('card-auto-recharge').count(), settle).toBe(2);
  });
});
