/**
 * Browser test of 钱包充值 → USDT 充值: the account's TRC20 address with its QR code, the network, the
 * confirmations needed, the rate and the fee, at 1440 and 375 px (screenshots to /tmp/shots); then a
 * deposit (to 6 decimals) made by the operator command line through the simulated gateway moves from 确认中
 * (5/20) to 已到账 with its rate, value and fee on the open records, and the wallet's balance moves, live.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { DepositInstructions } from '@portal/contract/funding';
import { TRC20_ADDRESS_PATTERN, USDT_CREDIT_RULE_TEXT } from '@portal/contract/usdt';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useHarness } from './harness.ts';
import { apiCall, DEMO, demoSignIn, openSignedIn, runOpsCli } from './signed-in-session.ts';

const portal = useHarness();
const HOST = 'localhost';
const settle = { timeout: 15_000 };
const WIDE = { width: 1440, height: 900 };
const NARROW = { width: 375, height: 812 };
const shots = '/tmp/shots';
mkdirSync(shots, { recursive: true });
let signIn: ReturnType<typeof demoSignIn>;

beforeAll(() => {
  signIn = demoSignIn(portal.server.port);
});

/** The wallet with its event stream open, and 钱包充值 open on USDT 充值. */
async function usdtTab(viewport: { width: number; height: number }): Promise<{ page: Page; token: string }> {
  const token = await signIn(HOST);
  const page = await portal.pageAt(HOST, '/sign-in');
  await page.setViewportSize(viewport);
  const streamOpen = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/v1/events' && response.status() === 200);
  await openSignedIn(page, token, '/wallet');
  await streamOpen;
  await page.getByTestId('balance-USD').getByTestId('balance-available').waitFor(settle);
  await page.getByTestId('wallet-deposit').click();
  await page.getByRole('tab', { name: 'USDT 充值' }).click();
  await page.getByTestId('usdt-address').waitFor(settle);
  return { page, token };
}

/** `npm run ops -- crypto:simulate-deposit …` as its own process, reaching the gateway the server started. */
async function simulate(args: string[]) {
  const run = await runOpsCli(portal.server.dataDir, ['crypto:simulate-deposit', ...args], { CRYPTO_SIM_PORT: String(portal.server.cryptoSimPort) });
  expect(run.code, `${args.join(' ')}\n${run.stdout}\n${run.stderr}`).toBe(0);
  expect(run.stdout).toContain('delivered to the portal (200)');
  return run.stdout;
}

const cents = (text: string) => BigInt(text.replaceAll(',', '').replace('.', ''));

describe('钱包充值 → USDT 充值', () => {
  it('shows the address with its QR code, the network, 20 confirmations, the rate and the fee at 1440 and 375 px', async () => {
    for (const viewport of [WIDE, NARROW]) {
      const { page, token } = await usdtTab(viewport);
      const answer = await apiCall<DepositInstructions>(portal.server.port, HOST, 'GET', '/api/v1/wallet/deposit-instructions?currency=USD', { token });
      const address = answer.body.data.usdt?.address as string;
      expect(address).toMatch(TRC20_ADDRESS_PATTERN);
      expect((await page.getByTestId('usdt-address').innerText()).trim()).toBe(address);
      const qr = page.getByTestId('usdt-qr').locator('canvas');
      await qr.waitFor(settle);
      const box = await qr.boundingBox();
      expect(box?.width).toBeGreaterThan(100);
      expect(await page.getByTestId('usdt-network').innerText()).toBe('TRON（TRC20）');
      expect(await page.getByTestId('usdt-confirmations').innerText()).toBe('20 次区块确认');
      expect(await page.getByTestId('usdt-rate').innerText()).toBe('1 USDT = 1.00 USD');
      expect(await page.getByTestId('usdt-fee').innerText()).toBe('1.00%');
      expect(await page.getByTestId('usdt-rule').innerText()).toBe(USDT_CREDIT_RULE_TEXT);
      // the address wraps within the screen, never past its edge
      const addressBox = await page.getByTestId('usdt-address').boundingBox();
      expect((addressBox?.x ?? 0) + (addressBox?.width ?? 0)).toBeLessThanOrEqual(viewport.width);
      await page.screenshot({ path: path.join(shots, `wallet-usdt-${viewport.width}.png`) });
      await page.close();
    }
  });

  it('a deposit made through the gateway shows 确认中 (5/20), then 已到账 with the balance moved, live', async () => {
    const { page } = await usdtTab(WIDE);
    const balance = page.getByTestId('balance-USD').getByTestId('balance-available');
    const before = cents(await balance.innerText());
    await page.getByRole('tab', { name: '充值记录' }).click();
    await page.locator('[data-testid="deposit-records"], [data-testid="deposit-records-empty"]').first().waitFor(settle);

    const made = await simulate(['--host', HOST, '--account', DEMO.phone, '--amount', '100.005', '--confirmations', '5']);
    const depositId = /deposit\s+(dep_\S+)/.exec(made)?.[1] as string;
    // the USDT exactly as sent, to its last decimal
    const record = page.getByTestId('deposit-record').filter({ hasText: '100.005 USDT' });
    await record.getByTestId('deposit-status').filter({ hasText: '确认中（5/20）' }).waitFor(settle);
    await page.screenshot({ path: path.join(shots, 'wallet-usdt-confirming-1440.png') });
    expect(cents(await balance.innerText())).toBe(before);

    await simulate(['--deposit', depositId, '--confirmations', '12']);
    await record.getByTestId('deposit-status').filter({ hasText: '确认中（12/20）' }).waitFor(settle);

    await simulate(['--deposit', depositId, '--confirmations', '20']);
    await record.getByTestId('deposit-status').filter({ hasText: '已到账' }).waitFor(settle);
    await record.getByText('已入账 99.00 USD').waitFor(settle);
    // 100.005 USDT at 1.00: worth 100.00; less 1 %: 99.00495 → 99.00; the fee is what lies between
    expect(await record.getByTestId('deposit-conversion').innerText()).toBe('汇率 1 USDT = 1.00 USD，折合 100.00 USD，手续费 1.00 USD（1.00%）');
    await expect.poll(async () => cents(await balance.innerText()), settle).toBe(before + 9900n);
    await page.setViewportSize(NARROW);
    await page.screenshot({ path: path.join(shots, 'wallet-usdt-credited-375.png') });
  });
});
