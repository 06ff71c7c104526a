/**
 * The console's customers in the browser: an operator (RISK, enrolled through the API) finds the demo
 * customer by phone, opens them, freezes one of their cards with a reason, giving the authenticator's code
 * again; the customer's card page in the portal then shows the card frozen by the platform with that
 * reason. The cards and transactions across customers are shown too, at 1440 px and 375 px.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { CardItem } from '@portal/contract/cards';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { authenticator } from './authenticator.ts';
import { repoRoot, useHarness } from './harness.ts';
import { apiCall, DEMO, demoSignIn, openSignedIn, runOpsCli } from './signed-in-session.ts';

const portal = useHarness();
const settle = { timeout: 15_000 };
const shots = path.join(repoRoot, 'test-results', 'console');

async function shoot(page: Page, name: string) {
  await mkdir(shots, { recursive: true });
  await page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true });
}

/** An operator made by the command line and enrolled through the API; answers their token and authenticator. */
async function enrolledOperator(host: string, role: string) {
  const port = portal.server.port;
  const email = `risk${Date.now().toString(36)}@ops.example`;
  const run = await runOpsCli(portal.server.dataDir, ['operator:create', '--host', host, '--email', email, '--role', role, '--name', '李风控']);
  expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
  const password = /password: (\S+)/.exec(run.stdout)?.[1] as string;
  const login = await apiCall<{ token: string; totp_enrolment: { secret: string } }>(port, host, 'POST', '/api/console/v1/auth/login', { body: { email, password } });
  expect(login.body.code, login.body.message).toBe(0);
  const code = authenticator(login.body.data.totp_enrolment.secret);
  const given = await apiCall<{ token: string }>(port, host, 'POST', '/api/console/v1/auth/totp', { body: { code: await code() }, token: login.body.data.token });
  expect(given.body.code, given.body.message).toBe(0);
  return { email, code, token: given.body.data.token };
}

/** Opens a console page with the operator's token in the tab's storage, as the console keeps it after signing in. */
async function openConsole(token: string, urlPath: string, width: number) {
  const page = await portal.pageAt('localhost', '/console/sign-in');
  await page.setViewportSize({ width, height: 900 });
  await page.evaluate((value) => sessionStorage.setItem('console.token', value), token);
  await page.goto(portal.url('localhost', urlPath), { waitUntil: 'load' });
  return page;
}

const noOverflow = async (page: Page) => expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);

/** No table under `scope` is wider than its box (none scrolls sideways). */
const tablesFit = (page: Page, scope = 'body') =>
  expect.poll(() => page.locator(`${scope} .ant-table-content`).evaluateAll((tables) => tables.filter((table) => table.scrollWidth > table.clientWidth).length), settle).toBe(0);

describe("the console's customers", () => {
  it('finds the customer, freezes a card with a reason, and the customer’s card page shows it frozen by the platform', async () => {
    const operator = await enrolledOperator('localhost', 'RISK');
    const demoToken = await demoSignIn(portal.server.port)('localhost');
    const cards = await apiCall<{ items: CardItem[] }>(portal.server.port, 'localhost', 'GET', '/api/v1/card?status=NORMAL&page_size=1', { token: demoToken });
    const card = cards.body.data.items[0] as CardItem;
    expect(card, 'the demo customer has a card in use').toBeDefined();

    const page = await openConsole(operator.token, '/console/customers', 1440);
    await page.getByText('李风控').first().waitFor(settle);
    await page.getByPlaceholder('手机号、邮箱、实名或入账识别码（开头部分即可）').fill(DEMO.phone);
    await page.getByRole('button', { name: /查\s*询/ }).click();
    const masked = `${DEMO.phone.slice(0, 3)}****${DEMO.phone.slice(-4)}`;
    await page.getByRole('link', { name: masked }).waitFor(settle);
    await expect.poll(() => page.getByRole('row').count(), settle).toBe(2);
    await page.getByText('共 1 位客户').waitFor(settle);
    await shoot(page, 'customers-1440');

    await page.getByRole('link', { name: masked }).click();
    await page.getByTestId('customer').waitFor(settle);
    await page.getByText('基本信息').waitFor(settle);
    const cardName = `${card.nickname}${card.last4 ? ` •••• ${card.last4}` : ''}`;
    const row = page.getByRole('row').filter({ hasText: cardName });
    await row.waitFor(settle);
    await shoot(page, 'customer-1440');
    // the page shows no full card number anywhere
    expect(await page.locator('body').innerText()).not.toMatch(/\d{13,19}/);

    await page.getByTestId(`card-${card.id}-freeze`).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('原因（客户可见）').fill('涉嫌违规交易，请联系客服');
    // a wrong code is refused and changes nothing
    await dialog.getByLabel('身份验证器验证码').fill('000000');
    await dialog.getByRole('button', { name: /确\s*[认定]/ }).click();
    await dialog.getByText('验证码错误或已使用').waitFor(settle);
    await dialog.getByLabel('身份验证器验证码').fill(await operator.code());
    await dialog.getByRole('button', { name: /确\s*[认定]/ }).click();
    await dialog.waitFor({ state: 'hidden', ...settle });
    await row.getByText(/(冻结中|已冻结)（平台冻结）/).waitFor(settle);
    await row.getByText('涉嫌违规交易，请联系客服').waitFor(settle);
    await page.getByTestId(`card-${card.id}-unfreeze`).waitFor(settle);
    await shoot(page, 'customer-card-frozen-1440');

    await page.setViewportSize({ width: 375, height: 812 });
    await page.getByTestId('customer').waitFor(settle);
    // a phone keeps what each row is: the card's status under its name, 解冻 under its balance, no table wider than its card
    await row.getByText(/(冻结中|已冻结)（平台冻结）/).waitFor(settle);
    await page.getByTestId(`card-${card.id}-unfreeze`).waitFor(settle);
    await tablesFit(page, '[data-testid=customer]');
    await shoot(page, 'customer-375');
    await noOverflow(page);

    // the customer's own card page: frozen by the platform, with the reason, and whom to ask
    const customerPage = await portal.pageAt('localhost', '/');
    await customerPage.setViewportSize({ width: 1440, height: 900 });
    await openSignedIn(customerPage, demoToken, `/card-details?id=${card.id}`);
    const notice = customerPage.getByTestId('card-frozen-notice');
    await notice.waitFor(settle);
    await notice.getByText('涉嫌违规交易，请联系客服').waitFor(settle);
    await notice.getByText('此卡由平台冻结，如需解冻请联系客服').waitFor(settle);
    await notice.getByText(/平台冻结/).first().waitFor(settle);
    await shoot(customerPage, 'portal-card-frozen-by-platform-1440');

    // the audit log holds the freeze, by this operator
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(portal.url('localhost', '/console/audit'));
    await page.getByRole('cell', { name: '冻结卡片' }).first().waitFor(settle);
    expect(await page.getByRole('cell', { name: operator.email }).count()).toBeGreaterThan(0);
  }, 240_000);

  it("shows every customer's cards and transactions with the portal's filters, at 1440 and 375 px", async () => {
    const operator = await enrolledOperator('localhost', 'SUPPORT');
    const page = await openConsole(operator.token, '/console/cards', 1440);
    await page.getByRole('columnheader', { name: '持卡成员' }).waitFor(settle);
    await expect.poll(() => page.getByRole('row').count(), settle).toBeGreaterThan(1);
    expect(await page.locator('body').innerText()).not.toMatch(/\d{13,19}/);
    // the product filter offers the merchant's products by name
    const rowTexts = () => page.locator('tbody tr.ant-table-row').allInnerTexts();
    expect((await rowTexts()).some((text) => !text.includes('订阅支付卡'))).toBe(true);
    await page.getByLabel('卡产品').click();
    await page.getByTitle('订阅支付卡（USD）').click();
    await page.getByRole('button', { name: /查\s*询/ }).click();
    await expect.poll(async () => (await rowTexts()).length > 0 && (await rowTexts()).every((text) => text.includes('订阅支付卡')), settle).toBe(true);
    await shoot(page, 'cards-1440');
    // SUPPORT reads, but has no freeze on a customer's page
    await page.goto(portal.url('localhost', '/console/transactions'));
    await page.getByRole('columnheader', { name: '拒绝原因' }).waitFor(settle);
    await shoot(page, 'transactions-1440');
    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto(portal.url('localhost', '/console/cards'));
    // a phone: each card with its status and the way to its customer, its balance beside, no table wider than the screen
    await page.getByRole('link', { name: '查看客户' }).first().waitFor(settle);
    expect(await page.getByRole('columnheader', { name: '持卡成员' }).count()).toBe(0);
    await tablesFit(page);
    await shoot(page, 'cards-375');
    await noOverflow(page);
    await page.goto(portal.url('localhost', '/console/transactions'));
    await page.getByRole('columnheader', { name: '商户' }).waitFor(settle);
    await tablesFit(page);
    await shoot(page, 'transactions-375');
    await noOverflow(page);
    await page.goto(portal.url('localhost', '/console/customers'));
    await page.getByPlaceholder('手机号、邮箱、实名或入账识别码（开头部分即可）').waitFor(settle);
    await shoot(page, 'customers-375');
    await noOverflow(page);
  }, 180_000);
});
