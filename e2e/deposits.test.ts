/**
 * Browser tests of 钱包充值 on /wallet: the receiving account and the account's reference with copy
 * buttons at 1440 and 375 px, a top-up notice filed with a receipt image, and the balance moving live
 * (from the event stream) when the operator credits the notice with the real command line.
 */
import type { DepositPage } from '@portal/contract/funding';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useHarness } from './harness.ts';
import { apiCall, demoSignIn, openSignedIn, runOpsCli } from './signed-in-session.ts';

const portal = useHarness();
let signIn: ReturnType<typeof demoSignIn>;
beforeAll(() => {
  // one signer: the device it trusts after the first code is kept, so later sign-ins ask for none
  signIn = demoSignIn(portal.server.port);
});
const HOST = 'localhost';
const settle = { timeout: 15_000 };
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

async function ops(args: string[]) {
  const run = await runOpsCli(portal.server.dataDir, args);
  expect(run.code, `${args.join(' ')}\n${run.stdout}\n${run.stderr}`).toBe(0);
  return run.stdout;
}

/** The wallet with its event stream open, at a width, and the 钱包充值 dialog open on it. */
async function depositDialog(width: number): Promise<{ page: Page; token: string }> {
  const token = await signIn(HOST);
  const page = await portal.pageAt(HOST, '/sign-in');
  await page.setViewportSize({ width, height: width < 500 ? 812 : 900 });
  const streamOpen = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/v1/events' && response.status() === 200);
  await openSignedIn(page, token, '/wallet');
  await streamOpen;
  await page.getByTestId('balance-USD').getByTestId('balance-available').waitFor(settle);
  await page.getByTestId('wallet-deposit').click();
  await page.getByTestId('deposit-reference').waitFor(settle);
  return { page, token };
}

const usdAvailable = (page: Page) => page.getByTestId('balance-USD').getByTestId('balance-available').innerText();

describe('钱包充值', () => {
  it('shows the receiving account and the reference with copy buttons, at 1440 and 375 px', async () => {
    await ops([
      'merchant:set-deposit-account', '--host', HOST, '--currency', 'USD', '--bank-name', 'HSBC Hong Kong', '--account-name', 'Blue Whale Ltd',
      '--account-number', '400-123456-001', '--swift', 'HSBCHKHH',
    ]);
    for (const width of [1440, 375]) {
      const { page } = await depositDialog(width);
      const reference = (await page.getByTestId('deposit-reference').innerText()).trim();
      expect(reference).toMatch(/^TP[2-9A-HJ-NP-Z]{8}$/);
      await expect.poll(() => page.getByTestId('deposit-account-number').innerText()).toContain('400-123456-001');
      // each value carries antd's copy button
      expect(await page.getByTestId('deposit-bank').locator('.ant-typography-copy').count()).toBe(3);
      expect(await page.locator('[data-testid="deposit-reference"] .ant-typography-copy').count()).toBe(1);
      // CNY has no receiving account: the page says so, and the form stays
      await page.getByTestId('deposit-currency').getByText('人民币（CNY）').click();
      await page.getByTestId('deposit-no-bank').waitFor(settle);
      expect(await page.getByTestId('deposit-reference').innerText()).toBe(reference);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await page.screenshot({ path: `test-results/deposit-${width}.png`, fullPage: false });
      await page.close();
    }
  });

  it('files a notice with a receipt, and the balance moves live when the operator credits it', async () => {
    const { page, token } = await depositDialog(1440);
    const before = await usdAvailable(page);
    await page.getByTestId('deposit-amount').fill('123.45');
    await page.getByTestId('deposit-payer').fill('张三');
    await page.locator('input[type="file"]').setInputFiles({ name: 'receipt.png', mimeType: 'image/png', buffer: PNG });
    await page.locator('.ant-upload-list-item-done, .ant-upload-list-item:not(.ant-upload-list-item-uploading)').first().waitFor(settle);
    await page.getByTestId('deposit-submit').click();
    // filed, the records tab shows it pending with its receipt
    const record = page.getByTestId('deposit-record').first();
    await record.waitFor(settle);
    await expect.poll(() => record.getByTestId('deposit-status').innerText()).toBe('待入账');
    expect(await record.innerText()).toContain('123.45 USD');
    await record.getByTestId('deposit-view-receipt').click();
    await page.locator('.ant-image-preview-img').first().waitFor(settle);
    await page.keyboard.press('Escape');

    const list = await apiCall<DepositPage>(portal.server.port, HOST, 'GET', '/api/v1/wallet/deposits', { token });
    const notice = list.body.data.items[0];
    expect(notice).toMatchObject({ amount: '123.45', status: 'PENDING' });
    expect(notice?.receipt_file_id).toBeTruthy();
    const out = await ops(['deposit:confirm', '--host', HOST, '--id', String(notice?.id)]);
    expect(out).toContain('Credited 123.45 USD');
    const cents = (text: string) => BigInt(text.replace(/[,.]/g, ''));
    await expect.poll(async () => cents(await usdAvailable(page)) - cents(before), settle).toBe(12345n);
    await expect.poll(() => record.getByTestId('deposit-status').innerText(), settle).toBe('已入账');
  });
});
