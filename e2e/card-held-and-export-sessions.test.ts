/**
 * Browser tests of two promises to a card holder, against the real server and its simulated issuer:
 *
 * - A card whose money is all held by a pending authorisation is cancelled from its page: the 注销
 *   dialog says what is held and that it comes back, and asks for the trade password (a wrong one is
 *   said on the field and changes nothing, the right one cancels). When the merchant later reverses the
 *   authorisation (the operator's `card:simulate-transaction --auth ID --reverse`), the held money shows
 *   on the wallet page and a station message says so.
 * - An export with full numbers is taken only in the browser that made it: another signed-in browser of
 *   the same account lists it in 最近的导出 with its download disabled and says why.
 *
 * Both screens are drawn at 1440 and at 375 px (screenshots in test-results/) and checked for what a
 * customer must be able to read: nothing covered, nothing wider than the screen.
 *
 * Every test makes its own account through the API. Nothing waits for a fixed time: the page is waited
 * on for what it shows, the API polled for what it answers.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { CardItem, OpenedAvailableAnswer } from '@portal/contract/cards';
import type { AccountBalanceItem } from '@portal/contract/wallet';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { callApi, codeIn, createAccountByApi, PASSWORD, phoneAddress, settle, watchOutbox } from './accounts-support.ts';
import { repoRoot, useHarness } from './harness.ts';
import { openSignedIn } from './signed-in-session.ts';
import { portalCalls } from './portal-calls.ts';

const portal = useHarness();
const HOST = 'localhost';
const { ops, api, postWithKey } = portalCalls(portal, HOST);
const WIDE = { width: 1440, height: 900 };
const NARROW = { width: 375, height: 812 };
const PRODUCT = '订阅支付卡';
const TRADE_PASSWORD = 'Trade123';
const shots = path.join(repoRoot, 'test-results');

beforeAll(async () => {
  await mkdir(shots, { recursive: true });
});

// ---------------------------------------------------------------------------------------------
// accounts, cards and the operator command line

interface Account {
  phone: string;
  email: string;
  token: string;
}

let accounts = 0;

/** A new account of this run, given 500.00 USD by the operator, its 实名认证 done, with one card in use holding 20.00. */
async function accountWithCard(): Promise<{ account: Account; card: CardItem }> {
  const n = ++accounts;
  const phone = `1390010${String(n).padStart(4, '0')}`;
  const email = `held-export-e2e-${n}@example.com`;
  const token = await createAccountByApi(portal, HOST, { phone, email });
  const account = { phone, email, token };
  await ops(['wallet:recharge', '--host', HOST, '--account', phone, '--amount', '500', '--currency', 'USD']);
  await api(account, 'PUT', '/api/v1/card/verification', { real_name: '赵六', id_number: '11010519491231002X' });
  const available = await api<OpenedAvailableAnswer>(account, 'GET', '/api/v1/card/opened-available');
  const product = available.products.find((candidate) => candidate.name === PRODUCT);
  if (!product) throw new Error(`no product ${PRODUCT}`);
  const opened = await postWithKey<CardItem>(account, '/api/v1/card', { product_id: product.id, amount: '20.00', nickname: '广告投放' }, `e2e-held-${phone}`);
  await expect.poll(async () => (await cardByApi(account, opened.id)).status, settle).toBe('NORMAL');
  return { account, card: await cardByApi(account, opened.id) };
}

const cardByApi = (account: Account, id: string) => api<CardItem>(account, 'GET', `/api/v1/card/${encodeURIComponent(id)}`);

async function usdWallet(account: Account) {
  const rows = await api<AccountBalanceItem[]>(account, 'GET', '/api/v1/balance/account-balance');
  const usd = rows.find((row) => row.currency === 'USD');
  if (!usd) throw new Error(`no USD row in ${JSON.stringify(rows)}`);
  return { available: usd.available, held: usd.anew };
}

/**
 * Another signed-in session of the account, as a second browser gets it: the password, then the second
 * verification with a code sent to the account's e-mail (its phone's access codes are left to the test).
 */
async function anotherSession(account: Account): Promise<string> {
  const login = await callApi<{ token: string; check: boolean }>(portal, HOST, 'POST', '/api/v1/account/login', {
    phone_info: { phone: account.phone, phone_prefix: '86' },
    password: PASSWORD,
  });
  if (login.code !== 0) throw new Error(`login failed: ${login.message} (${login.code})`);
  if (!login.data.check) return login.data.token;
  const mail = await watchOutbox(portal, account.email);
  const sent = await callApi(portal, HOST, 'POST', '/api/v1/account/send/code-auto', { send_type: 'SEND_TYPE_EMAIL', mark_type: 'MARK_TYPE_ACCESS' }, login.data.token);
  if (sent.code !== 0) throw new Error(`send/code-auto failed: ${sent.message} (${sent.code})`);
  const captcha = codeIn(await mail.next());
  const checked = await callApi<{ token: string }>(
    portal,
    HOST,
    'POST',
    '/api/v1/account/login/code/check',
    { captcha, thirty_day: false, send_type: 'SEND_TYPE_EMAIL' },
    login.data.token,
  );
  if (checked.code !== 0) throw new Error(`login/code/check failed: ${checked.message} (${checked.code})`);
  return checked.data.token;
}

// ---------------------------------------------------------------------------------------------
// the page

/** A page in a browser of its own, signed in with the token at urlPath, 1440 px wide, once its event stream is open. */
async function signedInPage(token: string, urlPath: string): Promise<Page> {
  const page = await portal.pageAt(HOST, '/sign-in');
  await page.setViewportSize(WIDE);
  await withStream(page, () => openSignedIn(page, token, urlPath));
  return page;
}

async function withStream(page: Page, load: () => Promise<unknown>) {
  const streamOpen = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/v1/events' && response.status() === 200, settle);
  await load();
  await streamOpen;
}

/**
 * Whether the element is on screen and nothing lies over it: points near each of its edges and its
 * middle all hit it or what it holds.
 */
function uncovered(locator: Locator) {
  return locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) return false;
    const inset = Math.min(4, box.width / 4, box.height / 4);
    const points = [
      [box.left + box.width / 2, box.top + box.height / 2],
      [box.left + inset, box.top + box.height / 2],
      [box.right - inset, box.top + box.height / 2],
      [box.left + box.width / 2, box.top + inset],
      [box.left + box.width / 2, box.bottom - inset],
    ];
    return points.every(([x, y]) => {
      if (x === undefined || y === undefined || x < 0 || y < 0 || x > window.innerWidth || y > window.innerHeight) return false;
      const hit = document.elementFromPoint(x, y);
      return hit !== null && (hit === element || element.contains(hit));
    });
  });
}

/** Whether the page scrolls sideways: at 375 px nothing may stick out. */
const overflowsSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

/** Whether the element lies within the screen's width, left and right. */
const withinWidth = (locator: Locator) =>
  locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    return box.left >= 0 && box.right <= document.documentElement.clientWidth;
  });

const actionButton = (page: Page, action: string) => page.getByTestId('card-actions').locator(`[data-action="${action}"]`);
const statusTag = (page: Page) => page.getByTestId('card-status');
const walletAvailable = (page: Page) => page.getByTestId('balance-USD').getByTestId('balance-available').innerText();

// ---------------------------------------------------------------------------------------------

describe('cancelling a card whose money is all held', () => {
  it('asks for the trade password and says the held money comes back; the reversal later reaches the wallet with a message', async () => {
    const { account, card } = await accountWithCard();
    await api(account, 'PUT', '/api/v1/account/trx-password', { trx_password: TRADE_PASSWORD, password: PASSWORD });
    expect(await usdWallet(account)).toEqual({ available: '477.50', held: '0.00' });

    // a purchase of the card's whole 20.00, authorised and left pending: nothing available, all of it held
    const said = await ops(['card:simulate-transaction', '--card', card.id, '--amount', '20.00', '--merchant', 'Meta Ads', '--mcc', '7311', '--country', 'US', '--json']);
    const authorisation = JSON.parse(said) as { authorization_id: string; approved: boolean };
    expect(authorisation.approved).toBe(true);
    await expect.poll(async () => {
      const now = await cardByApi(account, card.id);
      return { balance: now.balance, held: now.held };
    }, settle).toEqual({ balance: '0.00', held: '20.00' });

    const page = await signedInPage(account.token, `/card-details?id=${card.id}`);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await expect.poll(() => page.getByTestId('card-held').innerText().catch(() => ''), settle).toMatch(/^20\.00/);

    // 注销: where the money goes, the held part included, and the trade password asked for
    await actionButton(page, 'DELETE').click();
    const dialog = page.getByRole('dialog', { name: '注销卡片' });
    await dialog.waitFor({ state: 'visible', ...settle });
    const refund = dialog.getByTestId('delete-refund');
    expect(await refund.innerText()).toBe('卡内 20.00 USD 处理中（待结算的授权），结算后余下或撤销的金额将自动退回钱包。');
    const trade = dialog.locator('input').and(dialog.getByLabel('交易密码', { exact: true }));
    await trade.waitFor({ state: 'visible', ...settle });
    const confirm = dialog.getByRole('button', { name: '确认注销' });

    // as a customer sees it, on a desktop and on a phone: the text, the field and the buttons in sight, nothing covered
    for (const viewport of [WIDE, NARROW]) {
      await page.setViewportSize(viewport);
      await expect.poll(() => withinWidth(dialog.locator('.ant-modal-container, .ant-modal-content').first()), settle).toBe(true);
      for (const part of [refund, trade, confirm, dialog.getByRole('button', { name: '取消' })]) {
        expect(await uncovered(part), `covered at ${viewport.width} px`).toBe(true);
      }
      expect(await overflowsSideways(page)).toBe(false);
      await page.screenshot({ path: path.join(shots, `card-cancel-held-${viewport.width}.png`) });
    }
    await page.setViewportSize(WIDE);

    // a wrong trade password: said on the field, the dialog stays, the card is as it was
    await trade.fill('Wrong123');
    await confirm.click();
    await expect.poll(() => dialog.getByTestId('trade-password-refusal').innerText().catch(() => ''), settle).toBe('交易密码错误，还可尝试4次');
    expect(await dialog.isVisible()).toBe(true);
    expect(await statusTag(page).innerText()).toBe('使用中');
    expect((await cardByApi(account, card.id)).status).toBe('NORMAL');

    // the right one cancels it, live: nothing available moves, the 20.00 stays held for the merchant
    await trade.fill(TRADE_PASSWORD);
    await expect.poll(() => dialog.getByTestId('trade-password-refusal').count(), settle).toBe(0);
    await confirm.click();
    await expect.poll(() => statusTag(page).innerText().catch(() => ''), settle).toBe('已注销');
    await page.getByTestId('card-deleted-notice').waitFor({ state: 'visible', ...settle });
    expect(await usdWallet(account)).toEqual({ available: '477.50', held: '0.00' });

    // the wallet page, open when the merchant reverses the authorisation: the 20.00 arrives without a reload
    await withStream(page, () => page.goto(portal.url(HOST, '/wallet'), { waitUntil: 'load' }));
    await expect.poll(() => walletAvailable(page).catch(() => ''), settle).toBe('477.50');
    await page.evaluate(() => {
      (window as unknown as { __same?: boolean }).__same = true;
    });
    await ops(['card:simulate-transaction', '--auth', authorisation.authorization_id, '--reverse']);
    await expect.poll(() => walletAvailable(page).catch(() => ''), settle).toBe('497.50');
    expect(await page.evaluate(() => (window as unknown as { __same?: boolean }).__same)).toBe(true);
    expect(await usdWallet(account)).toEqual({ available: '497.50', held: '0.00' });
    expect(await cardByApi(account, card.id)).toMatchObject({ status: 'DELETE', balance: '0.00', held: '0.00' });

    // and the message centre says where it came from
    await page.getByTestId('unread-bell').click();
    const row = page.getByTestId('message-row').filter({ hasText: '已注销卡片的资金已退回钱包' });
    await row.waitFor({ state: 'visible', ...settle });
    await row.click();
    const message = page.getByRole('dialog', { name: /已注销卡片的资金已退回钱包/ });
    await message.waitFor({ state: 'visible', ...settle });
    expect(await message.innerText()).toContain(`您已注销的卡片「广告投放（尾号 ${card.last4}）」收到撤销的授权金额 20.00 USD，已自动退回您的钱包。`);
    expect(errors).toEqual([]);
  });
});

describe('an export with full numbers', () => {
  it('is downloadable in the browser that made it; another browser of the account lists it with the download disabled and says why', async () => {
    const { account } = await accountWithCard();
    const otherToken = await anotherSession(account);

    // the first browser exports the cards with full numbers, its access code from the outbox
    const maker = await signedInPage(account.token, '/bulk-export');
    await expect.poll(() => maker.getByTestId('export-matching').innerText().catch(() => ''), settle).toBe('符合条件的卡片共 1 张');
    await maker.getByTestId('export-sensitive').click();
    await maker.getByTestId('export-submit').click();
    const codeDialog = maker.getByRole('dialog', { name: '验证身份' });
    await codeDialog.waitFor({ state: 'visible', ...settle });
    const sms = await watchOutbox(portal, phoneAddress(account.phone));
    await codeDialog.getByRole('button', { name: '获取验证码' }).click();
    await codeDialog.getByLabel('验证码').fill(codeIn(await sms.next()));
    await codeDialog.getByTestId('export-code-submit').click();
    await codeDialog.waitFor({ state: 'hidden', ...settle });
    await maker.getByTestId('export-current-download').waitFor({ state: 'visible', ...settle });
    const made = maker.getByTestId('export-row').first();
    await expect.poll(() => made.getByTestId('export-status').getAttribute('data-status'), settle).toBe('DONE');
    expect(await made.innerText()).toContain('含完整卡号');
    expect(await made.getByTestId('export-download').isEnabled()).toBe(true);
    expect(await made.getByTestId('export-elsewhere').count()).toBe(0);

    // the second browser of the same account: listed, done, but not its to take
    const other = await signedInPage(otherToken, '/bulk-export');
    const row = other.getByTestId('export-row').first();
    await expect.poll(() => row.getByTestId('export-status').getAttribute('data-status').catch(() => null), settle).toBe('DONE');
    expect(await row.getByTestId('export-file-name').innerText()).toBe(await made.getByTestId('export-file-name').innerText());
    expect(await row.innerText()).toContain('含完整卡号');
    const download = row.getByTestId('export-download');
    expect(await download.isDisabled()).toBe(true);
    expect(await download.getAttribute('aria-label')).toContain('含完整卡号的文件仅限发起导出的登录设备下载');

    // on a desktop the disabled button explains itself on hover
    await row.getByTestId('export-elsewhere').hover();
    const tooltip = other.getByRole('tooltip', { name: '含完整卡号的文件仅限发起导出的登录设备下载' });
    await tooltip.waitFor({ state: 'visible', ...settle });
    expect(await uncovered(download)).toBe(true);
    expect(await overflowsSideways(other)).toBe(false);
    await other.screenshot({ path: path.join(shots, 'export-list-elsewhere-1440.png') });
    await other.mouse.move(0, 0);
    await tooltip.waitFor({ state: 'hidden', ...settle });

    // on a phone, where nothing hovers, the reason is written beside the disabled button
    await other.setViewportSize(NARROW);
    const narrowRow = other.locator('li[data-testid="export-row"]').first();
    await narrowRow.waitFor({ state: 'visible', ...settle });
    expect(await narrowRow.getByTestId('export-download').isDisabled()).toBe(true);
    const hint = narrowRow.getByTestId('export-elsewhere-hint');
    await hint.waitFor({ state: 'visible', ...settle });
    expect(await hint.innerText()).toBe('含完整卡号的文件仅限发起导出的登录设备下载');
    await narrowRow.scrollIntoViewIfNeeded();
    // the disabled download is as wide as the row's content, as a download the session may take is
    const widthOf = async (locator: Locator) => (await locator.boundingBox())?.width ?? 0;
    expect(await widthOf(narrowRow.getByTestId('export-download'))).toBeGreaterThan((await widthOf(narrowRow)) - 40);
    for (const part of [hint, narrowRow.getByTestId('export-download'), narrowRow.getByTestId('export-status')]) {
      expect(await uncovered(part)).toBe(true);
      expect(await withinWidth(part)).toBe(true);
    }
    await expect.poll(() => overflowsSideways(other), settle).toBe(false);
    await other.screenshot({ path: path.join(shots, 'export-list-elsewhere-375.png') });

    // the server agrees: the other session is refused the file itself
    const listed = await callApi<{ items: { export_id: string; downloadable: boolean }[] }>(portal, HOST, 'GET', '/api/v1/card/batch-exports', undefined, otherToken);
    const latest = listed.data.items[0];
    if (!latest) throw new Error('the other session lists no export');
    expect(latest.downloadable).toBe(false);
    const refused = await callApi(portal, HOST, 'GET', `/api/v1/card/batch-export/${latest.export_id}/file`, undefined, otherToken);
    expect(refused).toMatchObject({ code: 4315, message: '含完整卡号的导出文件仅限发起导出的登录设备下载，如需下载请重新导出' });
  });
});
