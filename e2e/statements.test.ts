/**
 * 对账单 from the wallet screen: the month, currency and format chosen in the dialog, the PDF downloaded,
 * and its text read back: the merchant, the month, and the closing balance the ledger keeps for the
 * wallet and the cards together.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fromMinorUnits, toMinorUnits } from '@portal/contract/money';
import { formatAmount } from '@portal/contract/money-format';
import { chinaMonthOf } from '@portal/contract/statements';
import type { WalletTransactionPage } from '@portal/contract/wallet';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useHarness } from './harness.ts';
import { apiCall, demoSignIn, openSignedIn, runOpsCli } from './signed-in-session.ts';

const portal = useHarness();
const HOST = 'localhost';
const settle = { timeout: 10_000 };
let signIn: ReturnType<typeof demoSignIn>;
let downloads: string;

beforeAll(async () => {
  signIn = demoSignIn(portal.server.port);
  downloads = await mkdtemp(path.join(os.tmpdir(), 'statements-'));
});
afterAll(async () => {
  await rm(downloads, { recursive: true, force: true });
});

/** What the operator's command line says the demo account holds in USD: the wallet (available and held) and its cards. */
async function ledgerTotal() {
  const run = await runOpsCli(portal.server.dataDir, ['wallet:show', '--host', HOST, '--account', '13800138000', '--json']);
  expect(run.code, run.stderr).toBe(0);
  const shown = JSON.parse(run.stdout) as {
    balances: Array<{ currency: string; available: string; anew: string }>;
    card_amount: Array<{ currency: string; amount: string }>;
  };
  const wallet = shown.balances.find((balance) => balance.currency === 'USD');
  const cards = shown.card_amount.find((amount) => amount.currency === 'USD');
  return toMinorUnits(wallet?.available ?? '0') + toMinorUnits(wallet?.anew ?? '0') + toMinorUnits(cards?.amount ?? '0');
}

describe('对账单', () => {
  it('downloads the month’s PDF from the wallet screen, and its text holds the closing balance the ledger keeps', async () => {
    const token = await signIn(HOST);
    const newest = await apiCall<WalletTransactionPage>(portal.server.port, HOST, 'GET', '/api/v1/balance/transactions?page_size=1', { token });
    const at = newest.body.data.items[0]?.created_at;
    if (!at) throw new Error('the demo wallet has no movement');
    // the month of the newest movement: its closing is what the ledger holds now
    const month = chinaMonthOf(new Date(at));

    const page = await portal.pageAt(HOST, '/sign-in');
    await openSignedIn(page, token, '/wallet');
    await page.getByTestId('wallet-statement').click();
    const dialog = page.getByRole('dialog', { name: '下载对账单' });
    await dialog.waitFor(settle);
    const picker = dialog.getByTestId('statement-month');
    await picker.click();
    await picker.fill(`${month.slice(0, 4)}年${month.slice(5, 7)}月`);
    await picker.press('Enter');
    await expect.poll(() => picker.inputValue(), settle).toBe(`${month.slice(0, 4)}年${month.slice(5, 7)}月`);
    await expect.poll(() => dialog.getByRole('radio', { name: 'PDF' }).isChecked(), settle).toBe(true);

    const downloaded = page.waitForEvent('download');
    await dialog.getByTestId('statement-download').click();
    const download = await downloaded;
    expect(download.suggestedFilename()).toBe(`对账单-${month}-USD.pdf`);
    const file = path.join(downloads, download.suggestedFilename());
    await download.saveAs(file);
    await page.getByText(`对账单已下载：对账单-${month}-USD.pdf`).waitFor(settle);
    await dialog.waitFor({ state: 'hidden', ...settle });

    const pdf = await getDocumentProxy(new Uint8Array(await readFile(file)));
    const { text } = await extractText(pdf, { mergePages: true });
    expect(text).toContain('账户对账单');
    expect(text).toContain('蓝鲸卡');
    expect(text).toContain(`${month}-01 至`);
    // the summary's last line: 合计, the opening, what came in, what went out, the closing
    const total = /合计\s+([\d,.-]+)\s+([\d,.-]+)\s+([\d,.-]+)\s+([\d,.-]+)/.exec(text);
    expect(total, text.slice(0, 600)).not.toBeNull();
    expect(total?.[4]).toBe(formatAmount(fromMinorUnits(await ledgerTotal())));
  });

  it('says why a month not yet begun has no statement, and the dialog offers no such month', async () => {
    const token = await signIn(HOST);
    const future = new Date(Date.now() + 40 * 86_400_000);
    const refused = await apiCall(portal.server.port, HOST, 'GET', `/api/v1/statements?month=${chinaMonthOf(future)}&currency=USD`, { token });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 3011, message: `${chinaMonthOf(future)} 尚未开始，暂无对账单` });

    const page = await portal.pageAt(HOST, '/sign-in');
    await openSignedIn(page, token, '/wallet');
    await page.getByTestId('wallet-statement').click();
    const dialog = page.getByRole('dialog', { name: '下载对账单' });
    await dialog.getByTestId('statement-month').click();
    const next = page.locator(`.ant-picker-dropdown:not(.ant-picker-dropdown-hidden) td[title="${chinaMonthOf(future)}"]`);
    // the next month's cell, when the panel's year shows it, cannot be chosen
    if ((await next.count()) > 0) expect(await next.getAttribute('class')).toContain('ant-picker-cell-disabled');
    const current = page.locator(`.ant-picker-dropdown:not(.ant-picker-dropdown-hidden) td[title="${chinaMonthOf(new Date())}"]`);
    // the current month can be chosen (the panel opens on the year of last month, which holds it but in January)
    await page.locator('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden) td').first().waitFor(settle);
    if ((await current.count()) > 0) expect(await current.getAttribute('class')).not.toContain('ant-picker-cell-disabled');
  });
});
