/**
 * Browser tests of batch card opening and bulk export against the real server and its simulated issuer
 * (here two cards of a batch at a time, each answered 1.2 s after it is asked, so the batch's progress
 * can be watched, and its hold read, even when the machine stalls for a few seconds): a funded account opens 20 cards as a batch on /create-card with three failures set
 * up on the issuer (issuer:fail-next), watches the widget move on /card, minimises and expands it,
 * finds it in a new tab, and follows 查看失败原因 to the batch's message; the money is checked against
 * the API. Then the filtered cards are exported on /bulk-export, the .xlsx downloaded and opened with
 * exceljs and compared with the card list; ticked cards are exported the same way.
 *
 * Every test makes its own account through the API. Nothing waits for a fixed time: the page is waited
 * on for what it shows, the API polled for what it answers.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { type BatchStatusAnswer, batchNickname, DEFAULT_EXPORT_COLUMNS, EXPORT_COLUMNS } from '@portal/contract/card-batches';
import { type CardPage, IDEMPOTENCY_HEADER, type OpenedAvailableAnswer, openingCost } from '@portal/contract/cards';
import { fromMinorUnits, toMinorUnits } from '@portal/contract/money';
import type { AccountBalanceItem } from '@portal/contract/wallet';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountByApi, expectPath, field, settle } from './accounts-support.ts';
import { useHarness } from './harness.ts';
import { openSignedIn } from './signed-in-session.ts';
import { portalCalls } from './portal-calls.ts';

const portal = useHarness({ env: { BATCH_CONCURRENCY: '2', ISSUER_SIM_DELAY_MS: '1200' } });
const HOST = 'localhost';
const { ops, api } = portalCalls(portal, HOST);
const WIDE = { width: 1440, height: 900 };
const PRODUCT = '订阅支付卡';
const FAILURE = 'BIN 额度已满，请稍后再试';
/** a batch of 20 takes a few seconds here: waits on it allow for a busy machine */
const batchSettle = { timeout: 45_000 };

let downloads = '';
beforeAll(async () => {
  downloads = await mkdtemp(path.join(os.tmpdir(), 'card-batches-'));
});
afterAll(async () => {
  await rm(downloads, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------------------------
// accounts, money and the operator command line

interface Account {
  phone: string;
  token: string;
}

let accounts = 0;
/** A new, verified account of this run, its wallet given 500.00 USD by the operator. */
async function fundedAccount(): Promise<Account> {
  const n = ++accounts;
  const phone = `1390009${String(n).padStart(4, '0')}`;
  const token = await createAccountByApi(portal, HOST, { phone, email: `batches-e2e-${n}@example.com` });
  await ops(['wallet:recharge', '--host', HOST, '--account', phone, '--amount', '500', '--currency', 'USD']);
  const account = { phone, token };
  await api(account, 'PUT', '/api/v1/card/verification', { real_name: '李四', id_number: '11010519491231002X' });
  return account;
}

async function usdWallet(account: Account) {
  const rows = await api<AccountBalanceItem[]>(account, 'GET', '/api/v1/balance/account-balance');
  const usd = rows.find((row) => row.currency === 'USD');
  if (!usd) throw new Error(`no USD row in ${JSON.stringify(rows)}`);
  return { available: usd.available, held: usd.anew };
}

async function product(account: Account) {
  const available = await api<OpenedAvailableAnswer>(account, 'GET', '/api/v1/card/opened-available');
  const found = available.products.find((candidate) => candidate.name === PRODUCT);
  if (!found) throw new Error(`no product ${PRODUCT}`);
  return found;
}

const batchStatus = (account: Account) => api<BatchStatusAnswer>(account, 'GET', '/api/v1/card/batch-create-card-status');

/** A batch opened through the API (Idempotency-Key), waited on until it ends. */
async function batchByApi(account: Account, body: { product_id: string; quantity: number; amount: string; nickname_prefix: string }) {
  const payload = JSON.stringify(body);
  const port = portal.server.port;
  await new Promise<void>((resolve, reject) => {
    const headers = {
      host: `${HOST}:${port}`,
      'content-type': 'application/json',
      authorization: `Bearer ${account.token}`,
      [IDEMPOTENCY_HEADER]: `e2e-batch-${body.nickname_prefix}-${account.phone}`,
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
    request.end(payload);
  });
  await expect.poll(async () => (await batchStatus(account)).status, batchSettle).toBe('SUCCESS');
}

// ---------------------------------------------------------------------------------------------
// the page

/** A page signed in as the account at urlPath, 1440 px wide, once its event stream is open. */
async function signedInPage(account: Account, urlPath: string): Promise<Page> {
  const page = await portal.pageAt(HOST, '/sign-in');
  await page.setViewportSize(WIDE);
  await withStream(page, () => openSignedIn(page, account.token, urlPath));
  return page;
}

async function withStream(page: Page, load: () => Promise<unknown>) {
  const streamOpen = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/v1/events' && response.status() === 200, settle);
  await load();
  await streamOpen;
}

/** Records every percent the widget shows from now on in this document, each once when it changes. */
async function recordPercents(page: Page) {
  await page.evaluate(() => {
    const seen: number[] = [];
    const note = () => {
      const value = document.querySelector('[data-testid="batch-percent"]')?.getAttribute('data-percent');
      if (value !== null && value !== undefined && seen.at(-1) !== Number(value)) seen.push(Number(value));
    };
    new MutationObserver(note).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-percent'] });
    note();
    (window as unknown as { percentsSeen: number[] }).percentsSeen = seen;
  });
}

const percentsSeen = (page: Page) => page.evaluate(() => (window as unknown as { percentsSeen: number[] }).percentsSeen);

const widget = (page: Page) => page.getByTestId('batch-progress');
const countsOf = async (page: Page) => (await widget(page).getByTestId('batch-counts').innerText()).replace(/\s+/g, ' ').trim();

const sum = (amount: string, times: number) => fromMinorUnits(toMinorUnits(amount) * BigInt(times));
const minus = (a: string, b: string) => fromMinorUnits(toMinorUnits(a) - toMinorUnits(b));

describe('batch card opening', () => {
  it('opens 20 cards as a batch with three failures: the widget moves, minimises and expands, and 查看失败原因 opens the batch’s message', async () => {
    const account = await fundedAccount();
    const chosen = await product(account);
    const amount = chosen.min_first_load;
    const each = openingCost(chosen, amount);
    const page = await signedInPage(account, `/create-card?product=${encodeURIComponent(chosen.id)}`);

    await field(page, '首充金额').waitFor({ state: 'visible', ...settle });
    await page.getByRole('spinbutton', { name: '开卡数量' }).fill('20');
    await field(page, '首充金额').fill(amount);
    await field(page, '卡片昵称前缀').fill('E2E');
    await expect.poll(() => page.getByTestId('cost-per-card').innerText(), settle).toBe(`${each.total} USD`);
    expect(await page.getByTestId('cost-quantity').innerText()).toBe('× 20 张');
    expect(await page.getByTestId('cost-total').innerText()).toBe(`${sum(each.total, 20)} USD`);
    expect(await page.getByTestId('wallet-after').innerText()).toBe(`${minus('500.00', sum(each.total, 20))} USD`);

    // the issuer fails the next three cards it is asked to open
    for (let n = 0; n < 3; n++) await ops(['issuer:fail-next', '--reason', FAILURE]);

    // the widget sits in the layout: what it shows is recorded from before the batch starts, across pages
    await recordPercents(page);
    await page.getByTestId('open-card-submit').click();
    const review = page.getByRole('dialog', { name: '确认批量开卡' });
    await review.waitFor({ state: 'visible', ...settle });
    expect(await review.getByText('E2E-001 … E2E-020').count()).toBe(1);
    await review.getByRole('button', { name: '确认并支付' }).click();
    await page.getByText('批量开卡已提交').waitFor({ state: 'visible', ...settle });
    // the whole cost is held at once
    await expect.poll(() => usdWallet(account), settle).toEqual({ available: minus('500.00', sum(each.total, 20)), held: sum(each.total, 20) });

    await page.getByTestId('batch-to-cards').click();
    await expectPath(page, '/card');
    await widget(page).waitFor({ state: 'visible', ...settle });

    // minimised to a pill while it runs, and expanded again
    await widget(page).getByRole('button', { name: '收起' }).click();
    const pill = page.getByTestId('batch-pill');
    await pill.waitFor({ state: 'visible', ...settle });
    expect(await pill.innerText()).toMatch(/^批量开卡 \d{1,3}%$/);
    await pill.click();
    await widget(page).waitFor({ state: 'visible', ...settle });

    // a new tab asks the server on start and shows the same batch
    const other = await page.context().newPage();
    await other.setViewportSize(WIDE);
    await withStream(other, () => other.goto(portal.url(HOST, '/wallet'), { waitUntil: 'load' }));
    await widget(other).waitFor({ state: 'visible', ...settle });

    await expect.poll(() => widget(page).getAttribute('data-status'), batchSettle).toBe('FAIL');
    expect(await countsOf(page)).toBe('成功 17 / 失败 3 / 共 20');
    await expect.poll(() => widget(other).getAttribute('data-status'), batchSettle).toBe('FAIL');
    expect(await countsOf(other)).toBe('成功 17 / 失败 3 / 共 20');
    await other.close();

    // it moved: never backwards, through figures between the start and the end, to 100
    const percents = await percentsSeen(page);
    expect(percents.at(-1)).toBe(100);
    expect(percents.some((percent) => percent > 0 && percent < 100), `percents seen: ${percents.join(', ')}`).toBe(true);
    expect([...percents].sort((a, b) => a - b)).toEqual(percents);

    // the server agrees, and the failed cards' money is back
    const status = await batchStatus(account);
    expect(status).toMatchObject({ exist: false, status: 'FAIL', success_count: 17, fail_count: 3, total_count: 20 });
    await expect.poll(() => usdWallet(account), settle).toEqual({ available: minus('500.00', sum(each.total, 17)), held: '0.00' });

    await widget(page).getByRole('button', { name: '查看失败原因' }).click();
    await expectPath(page, '/information-center');
    const message = page.getByRole('dialog', { name: /批量开卡完成/ });
    await message.waitFor({ state: 'visible', ...settle });
    expect(await message.innerText()).toContain(FAILURE);
    const failed = (await api<CardPage>(account, 'GET', '/api/v1/card?status=FAIL&page=1&page_size=50')).items;
    expect(failed).toHaveLength(3);
    for (const card of failed) expect(await message.innerText()).toContain(card.nickname);
    expect(failed.every((card) => /^E2E-0(0[1-9]|1\d|20)$/.test(card.nickname))).toBe(true);
  });
});

describe('bulk export', () => {
  /** The cards the list shows: nickname and masked number per row, in order. */
  const shownCards = (page: Page) =>
    page.getByTestId('card-row').evaluateAll((rows) =>
      rows.map((row) => ({
        nickname: row.querySelector('[data-testid="card-nickname"]')?.textContent ?? '',
        number: row.querySelector('[data-testid="card-number"]')?.textContent ?? '',
      })),
    );

  async function download(page: Page, trigger: () => Promise<void>) {
    const downloaded = page.waitForEvent('download', settle);
    await trigger();
    const file = await downloaded;
    expect(file.suggestedFilename()).toMatch(/\.xlsx$/);
    const where = path.join(downloads, `${Date.now()}-${file.suggestedFilename()}`);
    await file.saveAs(where);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(where);
    const sheet = workbook.worksheets[0];
    if (!sheet) throw new Error('the export has no worksheet');
    const rows: string[][] = [];
    sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1).map((value) => (value === null || value === undefined ? '' : String(value)))));
    return rows;
  }

  it('exports the filtered cards and the .xlsx holds what the list shows; ticked cards go the same way', async () => {
    const account = await fundedAccount();
    const chosen = await product(account);
    await batchByApi(account, { product_id: chosen.id, quantity: 4, amount: chosen.min_first_load, nickname_prefix: 'EXP' });
    await batchByApi(account, { product_id: chosen.id, quantity: 2, amount: chosen.min_first_load, nickname_prefix: 'KEEP' });

    const page = await signedInPage(account, '/card?keyword=EXP');
    await expect.poll(async () => (await shownCards(page)).length, settle).toBe(4);
    const listed = await shownCards(page);
    const apiCards = (await api<CardPage>(account, 'GET', '/api/v1/card?keyword=EXP&page=1&page_size=50')).items;
    expect(listed.map((card) => card.nickname)).toEqual(apiCards.map((card) => card.nickname));

    await page.getByTestId('bulk-export').click();
    await expectPath(page, '/bulk-export');
    expect(new URL(page.url()).searchParams.get('keyword')).toBe('EXP');
    await expect.poll(() => page.getByTestId('export-matching').innerText(), settle).toBe('符合条件的卡片共 4 张');
    await page.getByTestId('export-submit').click();
    const current = page.getByTestId('export-current');
    await current.getByTestId('export-current-download').waitFor({ state: 'visible', ...settle });
    expect(await current.getByTestId('export-rows').innerText()).toMatch(/^已写入 4 \/ 4 行/);

    const rows = await download(page, () => current.getByTestId('export-current-download').click());
    expect(rows[0]).toEqual(DEFAULT_EXPORT_COLUMNS.map((column) => EXPORT_COLUMNS[column].header));
    const body = rows.slice(1);
    const column = (name: (typeof DEFAULT_EXPORT_COLUMNS)[number]) => DEFAULT_EXPORT_COLUMNS.indexOf(name);
    // the same cards as the list, each with what the list and the API say of it
    const byNickname = (nickname: string | undefined) => {
      const shown = listed.find((card) => card.nickname === nickname);
      const card = apiCards.find((candidate) => candidate.nickname === nickname);
      if (!shown || !card) throw new Error(`the file holds ${nickname}, which the list does not show`);
      return { shown, card };
    };
    expect(body.map((row) => row[column('nickname')]).sort()).toEqual(listed.map((card) => card.nickname).sort());
    expect(body.map((row) => row[column('nickname')]).sort()).toEqual([1, 2, 3, 4].map((n) => batchNickname('EXP', n)));
    for (const row of body) {
      const { shown, card } = byNickname(row[column('nickname')]);
      // the numbers are masked but for the last four, the ones the list shows
      const number = row[column('card_number')] ?? '';
      expect(number).toMatch(/^\*{4} \*{4} \*{4} \d{4}$/);
      expect(number.slice(-4)).toBe(card.last4);
      expect(shown.number).toContain(number.slice(-4));
      expect(row[column('status')]).toBe('使用中');
      expect(row[column('product_name')]).toBe(PRODUCT);
      expect(row[column('currency')]).toBe('USD');
      expect(Number(row[column('balance')]).toFixed(2)).toBe(card.balance);
    }

    // the recent exports list it, done, with its size
    const recentRow = page.getByTestId('export-row').first();
    await expect.poll(() => recentRow.getByTestId('export-status').getAttribute('data-status'), settle).toBe('DONE');

    // ticked on /card: 导出所选 carries them to the page
    await page.goto(portal.url(HOST, '/card?keyword=KEEP'), { waitUntil: 'load' });
    await expect.poll(async () => (await shownCards(page)).length, settle).toBe(2);
    const keep = await shownCards(page);
    await page.getByRole('checkbox', { name: `选择 ${keep[0]?.nickname}` }).check();
    await page.getByTestId('export-selected').click();
    await expectPath(page, '/bulk-export');
    await page.getByTestId('export-ids').waitFor({ state: 'visible', ...settle });
    expect(await page.getByTestId('export-ids').innerText()).toContain('1 张');
    await page.getByTestId('export-submit').click();
    await page.getByTestId('export-current-download').waitFor({ state: 'visible', ...settle });
    const ticked = await download(page, () => page.getByTestId('export-current-download').click());
    expect(ticked.slice(1).map((row) => row[column('nickname')])).toEqual([keep[0]?.nickname]);
  });
});
