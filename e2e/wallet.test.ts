/**
 * Browser tests of the /wallet screen: money moved with the real operator command line
 * shows up as balances and rows; a freeze shows its banner live and an unfreeze takes it away, and
 * the message center tags both messages by what happened; the
 * filters, pages and detail work; the export downloads the filtered rows as an .xlsx file that is
 * opened here with exceljs and compared with the list.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { WalletTransactionItem, WalletTransactionPage } from '@portal/contract/wallet';
import { walletRowLabel } from '@portal/contract/wallet-groups';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useHarness } from './harness.ts';
import { apiCall, DEMO, demoSignIn, openSignedIn, runOpsCli, runOpsInProcess } from './signed-in-session.ts';

const portal = useHarness();
const HOST = 'localhost';
const settle = { timeout: 10_000 };
let signIn: ReturnType<typeof demoSignIn>;
let downloads: string;
let keyCount = 0;
/** every money command gets its own idempotency key, so none is ever a replay of another */
const nextKey = (what: string) => `e2e-wallet-${what}-${Date.now()}-${++keyCount}`;

beforeAll(async () => {
  signIn = demoSignIn(portal.server.port);
  downloads = await mkdtemp(path.join(os.tmpdir(), 'wallet-export-'));
});

afterAll(async () => {
  await rm(downloads, { recursive: true, force: true });
});

/** The wallet screen with its event stream open (the freeze banner depends on it). */
async function walletPage(urlPath = '/wallet'): Promise<{ page: Page; token: string }> {
  const token = await signIn(HOST);
  const page = await portal.pageAt(HOST, '/sign-in');
  const streamOpen = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/v1/events' && response.status() === 200);
  await openSignedIn(page, token, urlPath);
  await streamOpen;
  await page.getByTestId('balance-USD').getByTestId('balance-available').waitFor(settle);
  await waitForList(page);
  return { page, token };
}

/** The list has answered: rows, or its empty state. */
async function waitForList(page: Page) {
  await page.locator('[data-testid="transaction-row"], [data-testid="transactions-empty"]').first().waitFor(settle);
}

/** `npm run ops -- …` as its own process, the way an operator runs it. */
async function ops(args: string[]) {
  const run = await runOpsCli(portal.server.dataDir, args);
  expect(run.code, `${args.join(' ')}\n${run.stdout}\n${run.stderr}`).toBe(0);
  return run.stdout;
}

/** The same command line, run in this process through the server's socket: quicker for many rows. */
const opsInProcess = (args: string[]) => runOpsInProcess(portal.server.dataDir, args);

const money = (command: string, amount: string, currency: 'USD' | 'CNY', extra: string[] = []) =>
  [`wallet:${command}`, '--host', HOST, '--account', DEMO.phone, '--amount', amount, '--currency', currency, '--key', nextKey(command), ...extra];

/** "+1,234.56" / "-3.20" / "1,000.00" → minor units, exactly. */
function cents(text: string): bigint {
  const match = /^([+-]?)([\d,]+)\.(\d{2})$/.exec(text.trim());
  if (!match) throw new Error(`not an amount as the wallet shows it: "${text}"`);
  const [, sign, whole = '', fraction = ''] = match;
  const value = BigInt(whole.replaceAll(',', '') + fraction);
  return sign === '-' ? -value : value;
}

/** Minor units → the wallet's display, "1,234.56". */
function shown(units: bigint): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(3, '0');
  const whole = digits.slice(0, -2).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}${whole}.${digits.slice(-2)}`;
}

const availableOf = (page: Page, currency: 'USD' | 'CNY') =>
  page.getByTestId(`balance-${currency}`).getByTestId('balance-available').innerText();

interface ShownRow {
  time: string;
  type: string;
  currency: string;
  amount: string;
  balance: string;
  memo: string;
}

/** The rows of the table as the customer reads them. */
function shownRows(page: Page): Promise<ShownRow[]> {
  return page.getByTestId('transaction-row').evaluateAll((rows) =>
    rows.map((row) => {
      const cells = Array.from(row.querySelectorAll('td'), (cell) => (cell as HTMLElement).innerText.trim());
      return {
        time: cells[0] ?? '',
        type: cells[1] ?? '',
        currency: cells[2] ?? '',
        amount: cells[3] ?? '',
        balance: cells[4] ?? '',
        memo: cells[5] ?? '',
      };
    }),
  );
}

/** What the API answers for the same filters: the list must show exactly this. */
async function apiList(token: string, query: Record<string, string>): Promise<WalletTransactionPage> {
  const answer = await apiCall<WalletTransactionPage>(portal.server.port, HOST, 'GET', `/api/v1/balance/transactions?${new URLSearchParams(query)}`, {
    token,
  });
  expect(answer.body.code).toBe(0);
  return answer.body.data;
}

/** An API row as the table shows it (time to the second in UTC+8, signed amount, grouped digits). */
function expectedRow(item: WalletTransactionItem) {
  const shanghai = new Date(new Date(item.created_at).getTime() + 8 * 3_600_000).toISOString();
  const amount = toUnits(item.amount);
  return {
    time: `${shanghai.slice(0, 10)} ${shanghai.slice(11, 19)}`,
    type: walletRowLabel(item),
    currency: item.currency,
    amount: `${amount > 0n ? '+' : ''}${shown(amount)}`,
    balance: shown(toUnits(item.balance_after)),
  };
}

/** The API's "-1234.50" → minor units. */
const toUnits = (text: string) => cents(text);
const withoutMemo = (rows: ShownRow[]) => rows.map(({ memo: _memo, ...rest }) => rest);

/**
 * Chooses `option` in the select named `selectLabel`: clicked until the list closes, which it does on a
 * choice. An option at the end of the list is scrolled to inside the open list, which draws its rows anew
 * as it scrolls, and a click then can land on a row being replaced (highlighted, nothing chosen).
 */
async function pickOption(page: Page, selectLabel: string, option: string) {
  const select = page.getByRole('combobox', { name: selectLabel });
  const row = page.locator(`.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option[title="${option}"]`);
  let clicked = false;
  await expect
    .poll(async () => {
      if (!(await row.isVisible())) {
        if (clicked) return true;
        await select.click();
      }
      await row
        .click({ timeout: 2_000 })
        .then(() => {
          clicked = true;
        })
        .catch(() => {});
      return clicked && !(await row.isVisible());
    }, settle)
    .toBe(true);
}

/** Today in China Standard Time, as the API's day filters read it. */
/** The calendar day of an instant in China time (UTC+8, no daylight saving), as YYYY-MM-DD. */
const chinaDay = (instant: string) => new Date(new Date(instant).getTime() + 8 * 3_600_000).toISOString().slice(0, 10);

describe('balances and the CLI', () => {
  it('shows a recharge by the real CLI as the new balance and a 充值 row with its detail', async () => {
    const { page, token } = await walletPage();
    const before = cents(await availableOf(page, 'USD'));

    await ops(money('recharge', '1234.56', 'USD', ['--note', '端到端充值']));
    await page.getByRole('button', { name: '刷新', exact: true }).click();

    const expected = shown(before + 123_456n);
    await expect.poll(() => availableOf(page, 'USD'), settle).toBe(expected);
    await expect.poll(async () => (await shownRows(page))[0], settle).toEqual({
      time: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      type: '充值',
      currency: 'USD',
      amount: '+1,234.56',
      balance: expected,
      memo: '端到端充值',
    });

    // the detail tells what the customer can use: type, amount, currency, balance, time, memo and the 交易编号
    await page.getByTestId('transaction-row').first().click();
    const detail = page.getByTestId('transaction-detail');
    await detail.waitFor(settle);
    const text = await detail.innerText();
    const [row] = (await apiList(token, { page_size: '1' })).items;
    if (!row) throw new Error('the list has no rows');
    for (const part of ['交易详情', '充值', '+1,234.56', 'USD 美元', expected, '端到端充值', '交易时间', '交易编号', row.transaction_id]) {
      expect(text).toContain(part);
    }
    // and none of the ledger's internals: the operator's reference, the posting's own id (a short number,
    // so it is looked for as a value of its own, not inside the transaction's id)
    for (const part of ['关联', '流水号']) expect(text).not.toContain(part);
    expect(text.split('\n').map((line) => line.trim())).not.toContain(row.id);
    expect(text).not.toMatch(/\bops\b/);
    await page.getByRole('button', { name: '关闭', exact: true }).click();
    await detail.waitFor({ state: 'hidden', ...settle });

    // and a new visit shows the same
    await page.reload();
    await expect.poll(() => availableOf(page, 'USD'), settle).toBe(expected);
  });

  it('moves an open wallet when money moves, with no refresh: recharge, deduction and adjustment', async () => {
    const { page } = await walletPage();
    const before = cents(await availableOf(page, 'USD'));
    await ops(money('recharge', '40.00', 'USD'));
    await expect.poll(() => availableOf(page, 'USD'), settle).toBe(shown(before + 4_000n));
    await expect.poll(async () => (await shownRows(page))[0]?.amount, settle).toBe('+40.00');
    await ops(money('deduct', '3.50', 'USD'));
    await expect.poll(() => availableOf(page, 'USD'), settle).toBe(shown(before + 4_000n - 350n));
    await ops(money('adjust', '1.25', 'USD'));
    await expect.poll(() => availableOf(page, 'USD'), settle).toBe(shown(before + 4_000n - 350n - 125n));
    await expect.poll(async () => (await shownRows(page))[0], settle).toMatchObject({ type: '调整转出', amount: '-1.25' });
  });

  it('says 当前网络异常，请检查网络设置后再次尝试操作 when 刷新 or 导出 is pressed offline', async () => {
    const { page } = await walletPage();
    const message = '当前网络异常，请检查网络设置后再次尝试操作';
    const toasts = page.getByTestId('toast').filter({ hasText: message });
    await page.context().setOffline(true);
    try {
      await page.getByRole('button', { name: '刷新', exact: true }).click();
      await toasts.first().waitFor(settle);
      // gone after its three seconds, so the next one is the export's own
      await expect.poll(() => toasts.count(), settle).toBe(0);
      await page.getByRole('button', { name: /导\s*出/ }).click();
      await toasts.first().waitFor(settle);
    } finally {
      await page.context().setOffline(false);
    }
  });

  it('floors and groups every amount, and shows a deduction as 系统转出 with a minus', async () => {
    const { page } = await walletPage();
    const before = cents(await availableOf(page, 'CNY'));
    await ops(money('deduct', '7.25', 'CNY'));
    await page.getByRole('button', { name: '刷新', exact: true }).click();
    await expect.poll(() => availableOf(page, 'CNY'), settle).toBe(shown(before - 725n));
    const [first] = await shownRows(page);
    expect(first).toMatchObject({ type: '系统转出', currency: 'CNY', amount: '-7.25', balance: shown(before - 725n) });
    for (const text of await page.getByTestId('balance-anew').allInnerTexts()) expect(text).toMatch(/^\d{1,3}(,\d{3})*\.\d{2}$/);
    for (const text of await page.getByTestId('balance-card-amount').allInnerTexts()) expect(text).toMatch(/^\d{1,3}(,\d{3})*\.\d{2}$/);
  });
});

describe('the frozen wallet', () => {
  it('shows the banner live when the CLI freezes the wallet, says what it blocks, and drops it on unfreeze', async () => {
    const { page } = await walletPage();
    expect(await page.getByTestId('wallet-frozen').count()).toBe(0);
    try {
      await ops(['wallet:freeze', '--host', HOST, '--account', DEMO.phone, '--reason', '风控复核中']);
      const banner = page.getByTestId('wallet-frozen');
      await banner.waitFor({ state: 'visible', ...settle });
      const text = await banner.innerText();
      expect(text).toContain('钱包已冻结');
      expect(text).toContain('冻结原因：风控复核中');
      expect(text).toContain('不能开卡');
      expect(text).toContain('不能向卡片转入资金');
      expect(await page.getByTestId('balance-frozen-tag').count()).toBe(2);
      // the banner came without a reload: the page is the one that was open before the freeze
      expect(new URL(page.url()).pathname).toBe('/wallet');
    } finally {
      await ops(['wallet:unfreeze', '--host', HOST, '--account', DEMO.phone]);
    }
    await page.getByTestId('wallet-frozen').waitFor({ state: 'detached', ...settle });
    expect(await page.getByTestId('balance-frozen-tag').count()).toBe(0);

    // the message center tags both messages by what happened to the wallet, neither as a failure
    await page.goto(portal.url(HOST, '/information-center'));
    const tagOf = (title: string) => page.getByTestId('message-row').filter({ hasText: title }).first().getByTestId('message-tag');
    await expect.poll(() => tagOf('钱包已冻结').innerText().catch(() => ''), settle).toBe('钱包冻结');
    expect(await tagOf('钱包已解冻').innerText()).toBe('钱包解冻');
    expect(await page.getByTestId('message-tag').filter({ hasText: '失败' }).count()).toBe(0);
  });
});

describe('the transaction list', () => {
  beforeAll(async () => {
    // enough rows for more than one page, of several types and both currencies
    for (let i = 1; i <= 12; i++) await opsInProcess(money('recharge', `${i}.0${i % 10}`, 'CNY'));
    for (let i = 1; i <= 6; i++) await opsInProcess(money('recharge', `${100 + i}.50`, 'USD'));
    await opsInProcess(money('adjust', '3.20', 'USD', ['--note', '手续费调整']));
    await opsInProcess(money('deduct', '1.99', 'USD'));
  });

  it('filters by type, currency and date range, keeping the filters in the address', async () => {
    const { page, token } = await walletPage();
    const all = await apiList(token, { page_size: '100' });

    await pickOption(page, '交易类型', '调整转出');
    const adjusted = await apiList(token, { type: 'ADJUST_OUT', page_size: '100' });
    expect(adjusted.total).toBeGreaterThan(0);
    expect(adjusted.total).toBeLessThan(all.total);
    await expect.poll(async () => withoutMemo(await shownRows(page)), settle).toEqual(adjusted.items.map(expectedRow));
    expect(new URL(page.url()).searchParams.get('type')).toBe('ADJUST_OUT');
    expect(await page.getByTestId('transaction-total').innerText()).toBe(`共 ${adjusted.total} 条`);

    // type and currency together
    await pickOption(page, '交易类型', '充值');
    await pickOption(page, '币种', 'CNY 人民币');
    const cnyRecharges = await apiList(token, { type: 'ADMIN_RECHARGE_IN', currency: 'CNY', page_size: '20' });
    await expect.poll(async () => withoutMemo(await shownRows(page)), settle).toEqual(cnyRecharges.items.map(expectedRow));
    const rows = await shownRows(page);
    expect(new Set(rows.map((row) => row.type))).toEqual(new Set(['充值']));
    expect(new Set(rows.map((row) => row.currency))).toEqual(new Set(['CNY']));

    // a reload keeps them
    await page.reload();
    await waitForList(page);
    await expect.poll(async () => withoutMemo(await shownRows(page)), settle).toEqual(cnyRecharges.items.map(expectedRow));

    // a range in the past holds nothing
    const start = page.getByPlaceholder('开始日期');
    await start.click();
    await start.fill('2020-01-01');
    await start.press('Enter');
    const end = page.getByPlaceholder('结束日期');
    await end.fill('2020-01-31');
    await end.press('Enter');
    await page.getByTestId('transactions-empty').waitFor(settle);
    expect(await page.getByTestId('transactions-empty').innerText()).toContain('没有符合筛选条件的记录');
    const search = new URL(page.url()).searchParams;
    expect([search.get('start'), search.get('end')]).toEqual(['2020-01-01', '2020-01-31']);
    expect(await page.getByTestId('wallet-export').isDisabled()).toBe(true);

    // clearing every filter brings the whole list back
    await page.getByRole('button', { name: '清除筛选' }).click();
    await expect.poll(async () => withoutMemo(await shownRows(page)), settle).toEqual(all.items.slice(0, 20).map(expectedRow));
    expect(new URL(page.url()).search).toBe('');

    // one day's range holds that day's rows: the day of the newest USD row, in China time (the rows
    // of this run may straddle midnight there, so "today" may hold none of them)
    const newest = (await apiList(token, { currency: 'USD', page_size: '1' })).items[0];
    if (!newest) throw new Error('the account has no USD rows');
    const day = chinaDay(newest.created_at);
    await page.goto(portal.url(HOST, `/wallet?start=${day}&end=${day}&currency=USD`));
    await waitForList(page);
    const dayUsd = await apiList(token, { start_time: day, end_time: day, currency: 'USD', page_size: '20' });
    expect(dayUsd.items.map((item) => item.id)).toContain(newest.id);
    expect(dayUsd.items.every((item) => chinaDay(item.created_at) === day)).toBe(true);
    await expect.poll(async () => withoutMemo(await shownRows(page)), settle).toEqual(dayUsd.items.map(expectedRow));
  });

  it('pages through the list and changes the page size', async () => {
    const { page, token } = await walletPage();
    const first = await apiList(token, { page: '1', page_size: '20' });
    expect(first.total).toBeGreaterThan(20);
    await expect.poll(async () => withoutMemo(await shownRows(page)), settle).toEqual(first.items.map(expectedRow));

    await page.getByTestId('transaction-pager').getByTitle('2', { exact: true }).click();
    const second = await apiList(token, { page: '2', page_size: '20' });
    await expect.poll(async () => withoutMemo(await shownRows(page)), settle).toEqual(second.items.map(expectedRow));
    expect(new URL(page.url()).searchParams.get('page')).toBe('2');

    await page.getByTestId('transaction-pager').locator('.ant-select').click();
    await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option[title="10 条/页"]').click();
    const small = await apiList(token, { page: '1', page_size: '10' });
    await expect.poll(async () => withoutMemo(await shownRows(page)), settle).toEqual(small.items.map(expectedRow));
    expect(new URL(page.url()).searchParams.get('size')).toBe('10');
    expect(new URL(page.url()).searchParams.get('page')).toBeNull();

    // a page past the end (an old link) shows the last page instead
    const lastPage = Math.ceil(small.total / 10);
    await page.goto(portal.url(HOST, '/wallet?size=10&page=999'));
    await waitForList(page);
    await expect.poll(() => new URL(page.url()).searchParams.get('page'), settle).toBe(String(lastPage));
    const last = await apiList(token, { page: String(lastPage), page_size: '10' });
    await expect.poll(async () => withoutMemo(await shownRows(page)), settle).toEqual(last.items.map(expectedRow));
  });

  it('exports the filtered rows to an .xlsx file whose rows match the list', async () => {
    const { page, token } = await walletPage('/wallet?size=50');
    await pickOption(page, '币种', 'USD 美元');
    const filtered = await apiList(token, { currency: 'USD', page_size: '50' });
    expect(filtered.total).toBeGreaterThan(3);
    expect(filtered.total).toBeLessThanOrEqual(50);
    await expect.poll(async () => withoutMemo(await shownRows(page)), settle).toEqual(filtered.items.map(expectedRow));
    const listed = await shownRows(page);

    const downloaded = page.waitForEvent('download');
    await page.getByTestId('wallet-export').click();
    const download = await downloaded;
    expect(download.suggestedFilename()).toMatch(/^钱包流水-\d{8}\.xlsx$/);
    const file = path.join(downloads, download.suggestedFilename());
    await download.saveAs(file);

    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(file);
    const sheet = workbook.worksheets[0];
    if (!sheet) throw new Error('the export has no worksheet');
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header).toEqual(['时间', '类型', '币种', '金额', '变动后余额', '交易编号', '备注']);
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    const exported: ShownRow[] = [];
    sheet.eachRow((row, number) => {
      if (number === 1) return;
      const [time, type, currency, amount, balance, , memo] = (row.values as unknown[]).slice(1);
      const amountUnits = BigInt(Math.round(Number(amount) * 100));
      // a date cell holding China's wall clock, shown as the list shows it
      if (!(time instanceof Date)) throw new Error(`row ${number}: the time is no date cell but ${String(time)}`);
      exported.push({
        time: time.toISOString().slice(0, 19).replace('T', ' '),
        type: String(type),
        currency: String(currency),
        amount: `${amountUnits > 0n ? '+' : ''}${shown(amountUnits)}`,
        balance: shown(BigInt(Math.round(Number(balance) * 100))),
        memo: memo ? String(memo) : '—',
      });
    });
    expect(exported).toEqual(listed);
    expect(exported.every((row) => row.currency === 'USD')).toBe(true);
  });

  it('works at 375 px: a list of rows, one-month date pickers, and the detail as a sheet', async () => {
    const { page, token } = await walletPage();
    await page.setViewportSize({ width: 375, height: 812 });
    const first = await apiList(token, { page: '1', page_size: '20' });
    const firstItem = first.items[0];
    if (!firstItem) throw new Error('no transactions');
    await expect.poll(() => page.locator('button[data-testid="transaction-row"]').count(), settle).toBe(first.items.length);
    expect(await page.locator('table').count()).toBe(0);
    const firstRow = page.getByTestId('transaction-row').first();
    expect(await firstRow.getByTestId('transaction-type').innerText()).toBe(walletRowLabel(firstItem));
    expect(await firstRow.getByTestId('transaction-balance').innerText()).toBe(expectedRow(firstItem).balance);
    expect(await page.getByPlaceholder('开始日期').count()).toBe(1);
    expect(await page.getByPlaceholder('结束日期').count()).toBe(1);
    // nothing is wider than the screen
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

    await firstRow.click();
    // a sheet from the bottom, as wide as the screen
    const sheet = page.locator('.ant-drawer-bottom [data-testid="transaction-detail"]');
    await sheet.waitFor(settle);
    expect(await sheet.innerText()).toContain(expectedRow(firstItem).amount);
    expect((await sheet.boundingBox())?.width).toBe(375);
  });
});
