/**
 * Browser tests of 消费分析 (/card/analysis) against the real server and its simulated issuer: the
 * totals, the chart of spend by day drawn with its bars, the top merchants, a card filter that
 * changes the totals and stays in the address, and the export of the filtered rows, at 1440 and at
 * 375 px (screenshots in /tmp/shots/analysis-*.png).
 *
 * Every test makes its own account through the API. The range shown is the days the purchases were
 * made on, read back from the API, so no test depends on the wall clock's day.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { AcrossTransactionPage, SpendingSummary } from '@portal/contract/card-spending-across';
import type { CardItem, OpenedAvailableAnswer } from '@portal/contract/cards';
import { chinaDateTime } from '@portal/contract/date-time';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
let downloads: string;

beforeAll(async () => {
  await mkdir(shots, { recursive: true });
  downloads = await mkdtemp(path.join(os.tmpdir(), 'analysis-export-'));
});
afterAll(async () => {
  if (downloads) await rm(downloads, { recursive: true, force: true });
});

interface Account {
  phone: string;
  token: string;
}

let accounts = 0;
let cardsOpened = 0;

/** A new account with 500.00 USD and two cards in use: 广告卡 spent 12.34 at Meta Ads and was declined once, 搜索卡 5.00 at Google. */
async function accountWithSpending() {
  const n = ++accounts;
  const phone = `1390041${String(n).padStart(4, '0')}`;
  const token = await createAccountByApi(portal, HOST, { phone, email: `analysis-e2e-${n}@example.com` });
  const account: Account = { phone, token };
  await ops(['wallet:recharge', '--host', HOST, '--account', phone, '--amount', '500', '--currency', 'USD']);
  await api(account, 'PUT', '/api/v1/card/verification', { real_name: '李四', id_number: '11010519491231002X' });
  const available = await api<OpenedAvailableAnswer>(account, 'GET', '/api/v1/card/opened-available');
  const product = available.products.find((candidate) => candidate.name === '订阅支付卡');
  if (!product) throw new Error('no 订阅支付卡');
  const open = async (nickname: string) => {
    const opened = await postWithKey<CardItem>(account, '/api/v1/card', { product_id: product.id, amount: '50.00', nickname }, `e2e-analysis-${Date.now()}-${++cardsOpened}-${n}`);
    await expect.poll(async () => (await api<CardItem>(account, 'GET', `/api/v1/card/${opened.id}`)).status, settle).toBe('NORMAL');
    return api<CardItem>(account, 'GET', `/api/v1/card/${opened.id}`);
  };
  const ads = await open('广告卡');
  const search = await open('搜索卡');
  const purchase = (card: CardItem, amount: string, merchant: string, mcc: string) =>
    ops(['card:simulate-transaction', '--card', card.id, '--amount', amount, '--merchant', merchant, '--mcc', mcc, '--country', 'US']);
  await purchase(ads, '12.34', 'Meta Ads', '7311');
  await purchase(ads, '400.00', 'Meta Ads', '7311');
  await purchase(search, '5.00', 'Google', '7311');
  // the days the purchases were made on (China time), read back: the screen is opened at that range
  const rows = await expect
    .poll(async () => (await api<AcrossTransactionPage>(account, 'GET', '/api/v1/card/transactions?type=CONSUME')).items, settle)
    .toHaveLength(3)
    .then(() => api<AcrossTransactionPage>(account, 'GET', '/api/v1/card/transactions?type=CONSUME'));
  const days = rows.items.map((item) => chinaDateTime(item.created_at).slice(0, 10)).sort();
  return { account, ads, search, from: days[0] as string, to: days[days.length - 1] as string };
}

async function signedInPage(account: Account, urlPath: string, viewport = WIDE): Promise<Page> {
  const page = await portal.pageAt(HOST, '/sign-in');
  await page.setViewportSize(viewport);
  await openSignedIn(page, account.token, urlPath);
  return page;
}

const totalOf = (page: Page, name: string) => page.getByTestId(`total-${name}`).locator('dd').innerText().catch(() => '');

/** The chart's bars: echarts draws each as a path in the SVG. */
const bars = (page: Page) => page.locator('[data-testid="spend-chart"] svg path').count();

async function drawnAt(page: Page, size: { width: number; height: number }, name: string) {
  await page.setViewportSize(size);
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth), settle).toBeLessThanOrEqual(size.width);
  await page.screenshot({ path: path.join(shots, `analysis-${name}-${size.width}.png`), fullPage: true });
}

describe('消费分析', () => {
  it('draws the totals, the chart of spend by day and the top merchants, at 1440 and at 375 px', async () => {
    const { account, from, to } = await accountWithSpending();
    const page = await signedInPage(account, `/card/analysis?from=${from}&to=${to}`);
    await expect.poll(() => page.locator('h1').first().innerText(), settle).toBe('消费分析');
    await expect.poll(() => totalOf(page, 'amount'), settle).toBe('17.34 USD');
    expect(await totalOf(page, 'count')).toBe('3');
    expect(await totalOf(page, 'declined')).toBe('1');
    expect(await totalOf(page, 'rate')).toBe('33.3%');
    await expect.poll(() => bars(page), settle).toBeGreaterThan(0);
    const chart = page.getByTestId('spend-chart');
    expect(Number(await chart.getAttribute('data-spent-days'))).toBeGreaterThan(0);
    expect((await chart.boundingBox())?.height).toBeGreaterThan(150);
    await expect.poll(() => page.getByTestId('top-merchants').innerText(), settle).toContain('Meta Ads');
    expect(await page.getByTestId('top-categories').innerText()).toContain('广告服务');
    await expect.poll(() => page.getByTestId('analysis-row').count(), settle).toBe(5);
    await drawnAt(page, WIDE, 'screen');

    await drawnAt(page, NARROW, 'screen');
    await expect.poll(() => bars(page), settle).toBeGreaterThan(0);
    expect((await chart.boundingBox())?.width).toBeLessThanOrEqual(NARROW.width);
    await page.close();
  });

  it('a card filter changes the totals and stays in the address; the tabs group by card', async () => {
    const { account, ads, from, to } = await accountWithSpending();
    const page = await signedInPage(account, `/card/analysis?from=${from}&to=${to}`);
    await expect.poll(() => totalOf(page, 'amount'), settle).toBe('17.34 USD');
    await expect.poll(() => page.getByTestId('analysis-groups').innerText(), settle).toContain('搜索卡');

    await page.getByTestId('analysis-card').click();
    await page.locator('.ant-select-item-option').filter({ hasText: '广告卡' }).click();
    await expect.poll(() => totalOf(page, 'amount'), settle).toBe('12.34 USD');
    expect(await totalOf(page, 'count')).toBe('2');
    expect(new URL(page.url()).searchParams.get('card')).toBe(ads.id);
    await expect.poll(() => page.getByTestId('analysis-row').count(), settle).toBe(3);
    expect(await page.getByTestId('analysis-groups').innerText()).not.toContain('搜索卡');
    // by tag, with what a card of several tags counts for
    await page.getByTestId('analysis-tabs').getByRole('tab', { name: '按标签' }).click();
    await page.getByTestId('analysis-tag-note').waitFor({ state: 'visible', ...settle });
    await page.getByTestId('analysis-tabs').getByRole('tab', { name: '按卡片' }).click();
    await page.getByTestId('analysis-tag-note').waitFor({ state: 'detached', ...settle });

    // a reload keeps the filter
    await page.reload();
    await expect.poll(() => totalOf(page, 'amount'), settle).toBe('12.34 USD');
    const summary = await api<SpendingSummary>(account, 'GET', `/api/v1/card/spending-summary?from=${from}&to=${to}&card_id=${ads.id}`);
    expect(summary.total.amount).toBe('12.34');
    await page.close();
  });

  it('exports the filtered rows as an .xlsx with real numbers', async () => {
    const { account, search, from, to } = await accountWithSpending();
    const page = await signedInPage(account, `/card/analysis?from=${from}&to=${to}&card=${search.id}`);
    await expect.poll(() => page.getByTestId('analysis-row').count(), settle).toBe(2);
    const downloaded = page.waitForEvent('download');
    await page.getByTestId('analysis-export').click();
    const download = await downloaded;
    expect(download.suggestedFilename()).toMatch(/^卡片消费-\d{8}\.xlsx$/);
    const file = path.join(downloads, download.suggestedFilename());
    await download.saveAs(file);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(file);
    const sheet = workbook.worksheets[0];
    if (!sheet) throw new Error('the export has no worksheet');
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    const header = (sheet.getRow(1).values as unknown[]).slice(1).map(String);
    expect(sheet.rowCount).toBe(3);
    const amount = sheet.getRow(2).getCell(header.indexOf('金额') + 1).value;
    expect(amount).toBe(5);
    expect(sheet.getRow(2).getCell(1).value).toBeInstanceOf(Date);
    await page.close();
  });
});

describe('the wallet’s history', () => {
  it('shows a batch opening as one row that opens to its cards’ fees and 开卡充值', async () => {
    const n = ++accounts;
    const phone = `1390041${String(n).padStart(4, '0')}`;
    const token = await createAccountByApi(portal, HOST, { phone, email: `analysis-e2e-${n}@example.com` });
    const account: Account = { phone, token };
    await ops(['wallet:recharge', '--host', HOST, '--account', phone, '--amount', '500', '--currency', 'USD']);
    await api(account, 'PUT', '/api/v1/card/verification', { real_name: '李四', id_number: '11010519491231002X' });
    await api(account, 'PUT', '/api/v1/card/verification', { latin_name: 'Li Si', website: 'https://shop.example.com' });
    const available = await api<OpenedAvailableAnswer>(account, 'GET', '/api/v1/card/opened-available');
    const product = available.products.find((candidate) => candidate.name === '订阅支付卡');
    if (!product) throw new Error('no 订阅支付卡');
    await postWithKey(account, '/api/v1/batch-create-card', { product_id: product.id, quantity: 3, amount: '10.00', nickname_prefix: 'AD' }, `e2e-analysis-batch-${Date.now()}`);
    await expect
      .poll(async () => (await api<{ exist: boolean; success_count: number }>(account, 'GET', '/api/v1/card/batch-create-card-status')).success_count, settle)
      .toBe(3);

    const page = await signedInPage(account, '/wallet');
    const batchRow = page.getByTestId('transaction-row').filter({ hasText: '批量开卡 3 张' });
    await expect.poll(() => batchRow.count(), settle).toBe(1);
    // the recharge and the batch: two rows, not seven
    expect(await page.getByTestId('transaction-row').count()).toBe(2);
    await batchRow.click();
    await expect.poll(() => page.getByTestId('group-part').count(), settle).toBe(6);
    const parts = await page.getByTestId('group-part').allInnerTexts();
    expect(parts.filter((part) => part.includes('开卡充值'))).toHaveLength(3);
    expect(parts.some((part) => part.includes('转出'))).toBe(false);
    await page.screenshot({ path: path.join(shots, 'analysis-wallet-batch-1440.png'), fullPage: true });
    await page.setViewportSize(NARROW);
    await expect.poll(() => page.getByTestId('group-part').count(), settle).toBe(0);
    await page.getByTestId('transaction-row').filter({ hasText: '批量开卡 3 张' }).click();
    await expect.poll(() => page.getByTestId('group-part').count(), settle).toBe(6);
    await page.screenshot({ path: path.join(shots, 'analysis-wallet-batch-375.png'), fullPage: true });
    await page.close();
  });
});
