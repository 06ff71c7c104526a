/**
 * Money in the console, in the browser: a FINANCE operator confirms a customer's top-up notice (with
 * the authenticator's code) and the customer's open /wallet shows the new balance without a reload; a
 * recharge above the merchant's threshold proposed by one operator waits, the proposer cannot approve
 * it, and a second operator approves it, after which the customer's wallet moves again. Screens at
 * 1440 and 375 px.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { ConsoleLoginAnswer } from '@portal/contract/console';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { authenticator } from './authenticator.ts';
import { repoRoot, useHarness } from './harness.ts';
import { apiCall, demoSignIn, openSignedIn, runOpsCli } from './signed-in-session.ts';

const portal = useHarness();
const HOST = 'localhost';
const settle = { timeout: 15_000 };
const shots = path.join(repoRoot, 'test-results', 'console');
let signIn: ReturnType<typeof demoSignIn>;
beforeAll(() => {
  signIn = demoSignIn(portal.server.port);
});

async function shoot(page: Page, name: string) {
  await mkdir(shots, { recursive: true });
  await page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true });
}

/** An operator made by the command line and enrolled through the console's own calls; answers their token and authenticator. */
async function enrolledOperator(role: string) {
  const email = `fin${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}@ops.example`;
  const run = await runOpsCli(portal.server.dataDir, ['operator:create', '--host', HOST, '--email', email, '--role', role]);
  expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
  const password = /password: (\S+)/.exec(run.stdout)?.[1] as string;
  const login = await apiCall<ConsoleLoginAnswer>(portal.server.port, HOST, 'POST', '/api/console/v1/auth/login', { body: { email, password } });
  expect(login.body.code, login.body.message).toBe(0);
  const code = authenticator(login.body.data.totp_enrolment?.secret as string);
  const full = await apiCall<{ token: string }>(portal.server.port, HOST, 'POST', '/api/console/v1/auth/totp', { body: { code: await code() }, token: login.body.data.token });
  expect(full.body.code, full.body.message).toBe(0);
  return { email, token: full.body.data.token, code };
}
type Operator = Awaited<ReturnType<typeof enrolledOperator>>;

/** The console signed in as the operator (their token in the tab's storage, as the sign-in page keeps it). */
async function consoleAs(who: Operator, urlPath: string, width = 1440) {
  const page = await portal.pageAt(HOST, '/console/sign-in');
  await page.setViewportSize({ width, height: width < 500 ? 812 : 900 });
  await page.evaluate((token) => sessionStorage.setItem('console.token', token), who.token);
  await page.goto(portal.url(HOST, urlPath));
  return page;
}

/** The customer's /wallet with its event stream open. */
async function walletPage(token: string) {
  const page = await portal.pageAt(HOST, '/sign-in');
  await page.setViewportSize({ width: 1440, height: 900 });
  const streamOpen = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/v1/events' && response.status() === 200);
  await openSignedIn(page, token, '/wallet');
  await streamOpen;
  await page.getByTestId('balance-USD').getByTestId('balance-available').waitFor(settle);
  return page;
}
const usdAvailable = (page: Page) => page.getByTestId('balance-USD').getByTestId('balance-available').innerText();
const cents = (text: string) => BigInt(text.replace(/[,.]/g, ''));

describe('money in the console', () => {
  it("confirms a customer's top-up notice, and the customer's open wallet moves without a reload", async () => {
    const finance = await enrolledOperator('FINANCE');
    const token = await signIn(HOST);
    const filed = await apiCall<{ id: string }>(portal.server.port, HOST, 'POST', '/api/v1/wallet/deposits', {
      token,
      body: { currency: 'USD', amount: '321.09', payer_name: '赵六', transferred_at: new Date(Date.now() - 3600_000).toISOString() },
    });
    expect(filed.body.code, filed.body.message).toBe(0);
    const wallet = await walletPage(token);
    const before = await usdAvailable(wallet);

    const page = await consoleAs(finance, '/console/deposits');
    const row = page.getByRole('row').filter({ hasText: '321.09 USD' }).filter({ hasText: '赵六' });
    await row.waitFor(settle);
    await shoot(page, 'deposits-1440');
    await row.getByRole('button', { name: '确认入账' }).click();
    const dialog = page.getByRole('dialog').filter({ hasText: '确认入账' });
    await dialog.getByLabel('身份验证器验证码').waitFor(settle);
    await shoot(page, 'deposit-confirm-1440');
    await dialog.getByLabel('身份验证器验证码').fill('000000');
    await dialog.getByRole('button', { name: /确\s*定|确\s*认/ }).click();
    await page.getByText('验证码错误或已使用').first().waitFor(settle);
    await dialog.getByLabel('身份验证器验证码').fill(await finance.code());
    await dialog.getByRole('button', { name: /确\s*定|确\s*认/ }).click();
    await page.getByText('已入账').first().waitFor(settle);

    // the customer's wallet, open all along, shows the credit from its event stream
    await expect.poll(async () => cents(await usdAvailable(wallet)) - cents(before), settle).toBe(32109n);

    // the audit log names the operator
    await page.getByRole('menuitem', { name: '审计日志' }).click();
    await page.getByRole('cell', { name: '确认充值入账' }).first().waitFor(settle);

    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto(portal.url(HOST, '/console/deposits'));
    await page.getByRole('tab', { name: '未匹配流水' }).waitFor(settle);
    await shoot(page, 'deposits-375');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.getByRole('tab', { name: '对账单导入' }).click();
    await page.getByRole('button', { name: '选择 CSV 文件' }).waitFor(settle);
    await shoot(page, 'statement-import-375');
  }, 240_000);

  it('holds a recharge above the threshold until a second operator approves it', async () => {
    const [proposer, approver] = [await enrolledOperator('FINANCE'), await enrolledOperator('FINANCE')];
    const token = await signIn(HOST);
    const account = await apiCall<{ id: string }>(portal.server.port, HOST, 'GET', '/api/v1/account/info', { token });
    const wallet = await walletPage(token);
    const before = await usdAvailable(wallet);

    const page = await consoleAs(proposer, '/console/approvals');
    await page.getByText('审批阈值：单笔超过 1000.00').waitFor(settle);
    await page.getByRole('button', { name: '发起资金操作' }).click();
    const form = page.getByRole('dialog').filter({ hasText: '发起资金操作' });
    await form.getByLabel('客户账户 ID').fill(account.body.data.id);
    await form.getByLabel('金额').fill('1500.00');
    await form.getByLabel('原因').fill('大客户预付款');
    await form.getByLabel('身份验证器验证码').fill(await proposer.code());
    await shoot(page, 'approvals-propose-1440');
    await form.getByRole('button', { name: /确\s*定|确\s*认/ }).click();
    await page.getByText('超过审批阈值，已提交，等待另一位操作员审批').waitFor(settle);
    const pending = page.getByRole('row').filter({ hasText: '大客户预付款' });
    await pending.getByText('待他人审批').waitFor(settle);
    expect(await pending.getByRole('button', { name: '审批通过' }).count()).toBe(0);
    await shoot(page, 'approvals-pending-1440');
    expect(await usdAvailable(wallet)).toBe(before);

    const second = await consoleAs(approver, '/console/approvals');
    const row = second.getByRole('row').filter({ hasText: '大客户预付款' });
    await row.getByRole('button', { name: '审批通过' }).click();
    const dialog = second.getByRole('dialog').filter({ hasText: '审批资金申请' });
    await dialog.getByText(proposer.email).waitFor(settle);
    await dialog.getByLabel('身份验证器验证码').fill(await approver.code());
    await dialog.getByRole('button', { name: /确\s*定|确\s*认/ }).click();
    await second.getByText('已审批并执行').waitFor(settle);
    await expect.poll(async () => cents(await usdAvailable(wallet)) - cents(before), settle).toBe(150000n);

    await second.getByRole('tab', { name: '已执行' }).click();
    const applied = second.getByRole('row').filter({ hasText: '大客户预付款' });
    await applied.getByText(approver.email).waitFor(settle);
    expect(await applied.innerText()).toContain(proposer.email);
    await shoot(second, 'approvals-applied-1440');

    await second.setViewportSize({ width: 375, height: 812 });
    await second.reload();
    await second.getByText('审批阈值').first().waitFor(settle);
    await shoot(second, 'approvals-375');
    const overflow = await second.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  }, 240_000);
});
