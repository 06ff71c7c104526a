/**
 * Browser test of bulk actions on /card against the real server and its simulated issuer: a funded
 * account with cards opened as a batch ticks them on the list, tops them all up at once through the
 * bulk bar (one card frozen beforehand, so one fails with its reason), reads the review's whole cost and
 * the wallet after, watches the layout's widget reach the end, and opens each card's result. The money
 * is checked against the API. Screenshots of the review and the results at 1440 and 375 px go to
 * /tmp/shots.
 *
 * Nothing waits for a fixed time: the page is waited on for what it shows, the API polled for what it answers.
 */
import { mkdirSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { type BatchStatusAnswer, batchNickname } from '@portal/contract/card-batches';
import { controlsMessages } from '@portal/contract/card-spending';
import { type CardPage, IDEMPOTENCY_HEADER, type OpenedAvailableAnswer, rechargeCost } from '@portal/contract/cards';
import { fromMinorUnits, toMinorUnits } from '@portal/contract/money';
import type { AccountBalanceItem } from '@portal/contract/wallet';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createAccountByApi, settle } from './accounts-support.ts';
import { useHarness } from './harness.ts';
import { portalCalls } from './portal-calls.ts';
import { openSignedIn } from './signed-in-session.ts';

const portal = useHarness({ env: { BATCH_CONCURRENCY: '4', ISSUER_SIM_DELAY_MS: '50' } });
const HOST = 'localhost';
const { ops, api } = portalCalls(portal, HOST);
const WIDE = { width: 1440, height: 900 };
const NARROW = { width: 375, height: 812 };
const PRODUCT = '订阅支付卡';
/** more than a page of the list: the selection is every card that matches, beyond the page */
const CARDS = 30;
const shots = '/tmp/shots';
mkdirSync(shots, { recursive: true });
const long = { timeout: 45_000 };

interface Account {
  phone: string;
  token: string;
}

async function fundedAccount(): Promise<Account> {
  const phone = `1390019${String(Date.now() % 10_000).padStart(4, '0')}`;
  const token = await createAccountByApi(portal, HOST, { phone, email: `bulk-e2e-${phone}@example.com` });
  await ops(['wallet:recharge', '--host', HOST, '--account', phone, '--amount', '1000', '--currency', 'USD']);
  const account = { phone, token };
  await api(account, 'PUT', '/api/v1/card/verification', { real_name: '李四', id_number: '11010519491231002X' });
  return account;
}

async function usdAvailable(account: Account) {
  const rows = await api<AccountBalanceItem[]>(account, 'GET', '/api/v1/balance/account-balance');
  return rows.find((row) => row.currency === 'USD')?.available ?? '0.00';
}

/** A batch of cards opened through the API, waited on until every card is issued. */
async function batchByApi(account: Account, body: { product_id: string; quantity: number; amount: string; nickname_prefix: string }) {
  const port = portal.server.port;
  await new Promise<void>((resolve, reject) => {
    const headers = {
      host: `${HOST}:${port}`,
      'content-type': 'application/json',
      authorization: `Bearer ${account.token}`,
      [IDEMPOTENCY_HEADER]: `e2e-bulk-${body.nickname_prefix}-${account.phone}`,
    };
    const request = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/api/v1/batch-create-card', headers, timeout: 15_000 }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const answer = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { code: number; message: string };
        if (answer.code === 0) resolve();
        else reject(new Error(`batch-create-card failed: ${answer.message} (${answer.code})`));
      });
    });
    request.on('error', reject);
    request.end(JSON.stringify(body));
  });
  await expect.poll(async () => (await api<BatchStatusAnswer>(account, 'GET', '/api/v1/card/batch-create-card-status')).status, long).toBe('SUCCESS');
}

async function signedInPage(account: Account, urlPath: string): Promise<Page> {
  const page = await portal.pageAt(HOST, '/sign-in');
  await page.setViewportSize(WIDE);
  await openSignedIn(page, account.token, urlPath);
  return page;
}

describe('bulk actions on /card', () => {
  it('ticks the cards, tops them all up from one review, watches the widget reach the end and shows each card’s result', async () => {
    const account = await fundedAccount();
    const available = await api<OpenedAvailableAnswer>(account, 'GET', '/api/v1/card/opened-available');
    const product = available.products.find((candidate) => candidate.name === PRODUCT);
    if (!product) throw new Error(`no product ${PRODUCT}`);
    await batchByApi(account, { product_id: product.id, quantity: CARDS, amount: product.min_first_load, nickname_prefix: 'BK' });
    const list = await api<CardPage>(account, 'GET', '/api/v1/card?page_size=50');
    const frozen = list.items.find((card) => card.nickname === batchNickname('BK', 1));
    if (!frozen) throw new Error('no BK-001');
    await api(account, 'PUT', `/api/v1/card/${frozen.id}/status`, { action: 'FREEZE' });

    const page = await signedInPage(account, '/card');
    await page.getByTestId('card-total').waitFor({ state: 'visible', ...settle });
    await page.locator('.ant-table-thead .ant-checkbox-input').first().check();
    await expect.poll(() => page.getByTestId('bulk-count').innerText(), settle).toBe('已选 20 张');
    await page.getByTestId('select-all-matching').click();
    await expect.poll(() => page.getByTestId('bulk-count').innerText(), settle).toBe(`已选择全部 ${CARDS} 张符合条件的卡片`);

    await page.getByTestId('bulk-RECHARGE').click();
    const dialog = page.getByTestId('bulk-dialog');
    await page.getByTestId('bulk-amount').fill('5');
    await dialog.getByRole('button', { name: '复 核' }).or(dialog.getByRole('button', { name: '复核' })).click();
    const each = rechargeCost(product, '5.00');
    const total = fromMinorUnits(toMinorUnits(each.total) * BigInt(CARDS));
    const before = await usdAvailable(account);
    await expect.poll(() => page.getByTestId('bulk-review-total').innerText(), settle).toBe(`${total} USD`);
    expect(await page.getByTestId('bulk-review-wallet-after').innerText()).toBe(`${fromMinorUnits(toMinorUnits(before) - toMinorUnits(total))} USD`);
    await page.screenshot({ path: path.join(shots, 'card-bulk-review-1440.png') });

    await dialog.getByRole('button', { name: /确认提交|确 认提交/ }).click();
    const widget = page.getByTestId('bulk-progress');
    await widget.waitFor({ state: 'visible', ...settle });
    await expect.poll(() => widget.getAttribute('data-status'), long).toBe('DONE');
    expect((await widget.getByTestId('bulk-counts').innerText()).trim()).toBe(`成功 ${CARDS - 1} / 失败 1 / 共 ${CARDS}`);
    // the frozen card's share went back: the wallet paid for the others only
    const paid = fromMinorUnits(toMinorUnits(each.total) * BigInt(CARDS - 1));
    expect(await usdAvailable(account)).toBe(fromMinorUnits(toMinorUnits(before) - toMinorUnits(paid)));

    await widget.getByTestId('bulk-view-results').click();
    const summary = page.getByTestId('bulk-results-summary');
    await summary.waitFor({ state: 'visible', ...settle });
    const results = page.locator('.ant-modal').filter({ has: summary });
    expect(await summary.innerText()).toBe(`共 ${CARDS} 张：成功 ${CARDS - 1} 张，失败 1 张`);
    await expect.poll(() => results.locator('.ant-table-tbody tr').count(), settle).toBe(1);
    expect(await results.locator('.ant-table-tbody').innerText()).toContain('不能充值');
    await page.screenshot({ path: path.join(shots, 'card-bulk-results-1440.png') });
    await page.setViewportSize(NARROW);
    await page.screenshot({ path: path.join(shots, 'card-bulk-results-375.png') });
    await page.close();
  });

  it('sets the limits, blocked categories and allowed countries of the ticked cards at once', async () => {
    const account = await fundedAccount();
    const available = await api<OpenedAvailableAnswer>(account, 'GET', '/api/v1/card/opened-available');
    const product = available.products.find((candidate) => candidate.name === PRODUCT);
    if (!product) throw new Error(`no product ${PRODUCT}`);
    await batchByApi(account, { product_id: product.id, quantity: 2, amount: product.min_first_load, nickname_prefix: 'CT' });
    const page = await signedInPage(account, '/card');
    await page.getByTestId('card-total').waitFor({ state: 'visible', ...settle });
    await page.locator('.ant-table-thead .ant-checkbox-input').first().check();
    await expect.poll(() => page.getByTestId('bulk-count').innerText(), settle).toBe('已选 2 张');

    await page.getByTestId('bulk-more').click();
    await page.getByRole('menuitem', { name: '设置限额与管控' }).click();
    const dialog = page.getByTestId('bulk-dialog');
    await page.getByTestId('bulk-single-limit').fill('0.001');
    await dialog.getByRole('button', { name: /复 ?核/ }).click();
    await dialog.getByText(controlsMessages.limit).waitFor({ state: 'visible', ...settle });
    await page.getByTestId('bulk-single-limit').fill('50');
    await page.getByTestId('bulk-daily-limit').fill('200');
    await dialog.getByRole('checkbox', { name: '赌博' }).check();
    await dialog.getByRole('checkbox', { name: '加密货币' }).check();
    await page.getByTestId('control-countries').click();
    await page.keyboard.type('US');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape');
    await page.screenshot({ path: path.join(shots, 'card-bulk-controls-1440.png') });
    await dialog.getByRole('button', { name: /复 ?核/ }).click();
    await dialog.getByTestId('bulk-review').waitFor({ state: 'visible', ...settle });
    await dialog.getByRole('button', { name: /确认提交|确 认提交/ }).click();
    const widget = page.getByTestId('bulk-progress');
    await expect.poll(() => widget.getAttribute('data-status'), long).toBe('DONE');
    expect((await widget.getByTestId('bulk-counts').innerText()).trim()).toBe('成功 2 / 失败 0 / 共 2');

    const cards = await api<CardPage>(account, 'GET', '/api/v1/card?page_size=50');
    expect(cards.items).toHaveLength(2);
    for (const card of cards.items) {
      const controls = await api<{ single_limit: string | null; daily_limit: string | null; monthly_limit: string | null; blocked_categories: string[]; allowed_countries: string[] }>(
        account,
        'GET',
        `/api/v1/card/${card.id}/controls`,
      );
      expect(controls).toMatchObject({ single_limit: '50.00', daily_limit: '200.00', monthly_limit: null, blocked_categories: ['GAMBLING', 'CRYPTO'], allowed_countries: ['US'] });
    }
    await page.close();
  });
});
