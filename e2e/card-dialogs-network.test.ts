/**
 * Browser tests of the card page's money dialogs when the network fails or the card changes under
 * them, against the real server and its simulated issuer: offline, 确认充值 keeps the dialog, its
 * values and the loaded page, tells the outage once, and sends the same Idempotency-Key when pressed
 * again (an answer lost on the way back moves the money once); the page reads itself again once the
 * browser is online; a double click on 确认充值 or 确认并支付 sends one request and says one success;
 * a dialog open in one tab on a card another tab cancels says so instead of offering the top-up.
 *
 * Every test makes its own account through the API. Nothing waits for a fixed time.
 */
import { type CardItem, IDEMPOTENCY_HEADER, type OpenedAvailableAnswer } from '@portal/contract/cards';
import type { AccountBalanceItem } from '@portal/contract/wallet';
import type { Locator, Page, Request } from 'playwright-core';
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { createAccountByApi, field, settle } from './accounts-support.ts';
import { useHarness } from './harness.ts';
import { openSignedIn } from './signed-in-session.ts';
import { portalCalls } from './portal-calls.ts';

const portal = useHarness();
const HOST = 'localhost';
const { ops, api } = portalCalls(portal, HOST);
const PRODUCT = '订阅支付卡';
const SAVE_FAILED = '当前网络异常，数据已保存，恢复后提交即可';

interface Account {
  phone: string;
  token: string;
}

/** A request to the server as the merchant of HOST; the parsed JSON answer. */
function send<T>(method: string, urlPath: string, payload: string | null, headers: Record<string, string>): Promise<T> {
  const port = portal.server.port;
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: '127.0.0.1', port, method, path: urlPath, headers: { ...headers, host: `${HOST}:${port}`, accept: 'application/json' }, timeout: 15_000 },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          try {
            resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as T);
          } catch (error) {
            reject(error);
          }
        });
      },
    );
    request.on('timeout', () => request.destroy(new Error(`${method} ${urlPath} timed out`)));
    request.on('error', reject);
    request.end(payload ?? undefined);
  });
}

/** Sends the browser's request on to the server itself, as it left the browser; the browser never sees the answer. */
async function deliverWithoutAnswer(request: Request) {
  const headers = Object.fromEntries(Object.entries(await request.allHeaders()).filter(([name]) => !name.startsWith(':') && name !== 'host' && name !== 'content-length'));
  const url = new URL(request.url());
  await send(request.method(), `${url.pathname}${url.search}`, request.postData(), headers);
}

let accounts = 0;

/** A verified account whose wallet holds 500.00 USD, with one issued 订阅支付卡 holding 20.00 USD. */
async function accountWithCard(nickname: string): Promise<{ account: Account; cardId: string; productId: string }> {
  const n = ++accounts;
  const phone = `1390019${String(n).padStart(4, '0')}`;
  const token = await createAccountByApi(portal, HOST, { phone, email: `card-dialogs-${n}@example.com` });
  const account = { phone, token };
  await ops(['wallet:recharge', '--host', HOST, '--account', phone, '--amount', '500', '--currency', 'USD']);
  await api(account, 'PUT', '/api/v1/card/verification', { real_name: '李四', id_number: '11010519491231002X' });
  const available = await api<OpenedAvailableAnswer>(account, 'GET', '/api/v1/card/opened-available');
  const productId = available.products.find((candidate) => candidate.name === PRODUCT)?.id;
  if (!productId) throw new Error(`no product ${PRODUCT}`);
  const card = await api<CardItem>(account, 'POST', '/api/v1/card', { product_id: productId, amount: '20.00', nickname }, { [IDEMPOTENCY_HEADER]: `e2e-dialogs-${n}` });
  await expect.poll(async () => (await cardOf(account, card.id)).status, settle).toBe('NORMAL');
  return { account, cardId: card.id, productId };
}

const cardOf = (account: Account, id: string) => api<CardItem>(account, 'GET', `/api/v1/card/${encodeURIComponent(id)}`);

async function usdAvailable(account: Account) {
  const rows = await api<AccountBalanceItem[]>(account, 'GET', '/api/v1/balance/account-balance');
  return rows.find((row) => row.currency === 'USD')?.available;
}

/** Opens urlPath signed in as the account, 1440 px wide, once its event stream answers. */
async function signedInPage(account: Account, urlPath: string): Promise<Page> {
  const page = await portal.pageAt(HOST, '/sign-in');
  await page.setViewportSize({ width: 1440, height: 900 });
  await withStream(page, () => openSignedIn(page, account.token, urlPath));
  return page;
}

/** Another tab of the same browser (its session shared), at urlPath once its own event stream answers. */
async function anotherTab(page: Page, urlPath: string): Promise<Page> {
  const tab = await page.context().newPage();
  await tab.setViewportSize({ width: 1440, height: 900 });
  await withStream(tab, () => tab.goto(portal.url(HOST, urlPath), { waitUntil: 'load' }));
  return tab;
}

async function withStream(page: Page, load: () => Promise<unknown>) {
  const streamOpen = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/v1/events' && response.status() === 200, settle);
  await load();
  await streamOpen;
}

/** Every request the page sends to a path ending so, as it left the browser (failed ones included). */
function requestsTo(page: Page, method: string, ending: string) {
  const seen: Request[] = [];
  page.on('request', (request) => {
    if (request.method() === method && new URL(request.url()).pathname.endsWith(ending)) seen.push(request);
  });
  return seen;
}

async function dialogNamed(page: Page, name: RegExp): Promise<Locator> {
  const dialog = page.getByRole('dialog', { name });
  await dialog.waitFor({ state: 'visible', ...settle });
  return dialog;
}

async function openRecharge(page: Page, amount: string) {
  await page.getByTestId('card-actions').locator('[data-action="RECHARGE"]').click();
  const dialog = await dialogNamed(page, /^充值/);
  await dialog.getByLabel('充值金额').fill(amount);
  await expect.poll(() => dialog.getByTestId('recharge-total').innerText(), settle).toMatch(/USD$/);
  return dialog;
}

const toasts = (page: Page, text: string) => page.getByTestId('toast').filter({ hasText: text });

describe('a money dialog when the network fails', () => {
  it('stays open with its amount offline, keeps the card on screen, tells the outage once, and sends the same key again until answered', async () => {
    const { account, cardId } = await accountWithCard('离线充值');
    const page = await signedInPage(account, `/card-details?id=${cardId}`);
    await page.getByTestId('card-balance').waitFor({ state: 'visible', ...settle });
    const recharges = requestsTo(page, 'POST', '/recharge');
    const dialog = await openRecharge(page, '10');
    const total = (await dialog.getByTestId('recharge-total').innerText()).replace(/\s*USD$/, '');
    const walletBefore = await usdAvailable(account);

    await page.context().setOffline(true);
    try {
      await dialog.getByRole('button', { name: '确认充值' }).click();
      // the dialog says the request did not go through, in spec §8's words, and keeps what was typed
      await expect.poll(() => dialog.getByTestId('unanswered').innerText().catch(() => ''), settle).toContain(SAVE_FAILED);
      expect(await dialog.getByLabel('充值金额').inputValue()).toBe('10');
      // the card read again around the failed call fails too: the page stays, marked as possibly out of date
      await page.getByTestId('stale-data').waitFor({ state: 'visible', ...settle });
      expect(await page.getByTestId('stale-data').innerText()).toMatch(/数据可能不是最新.*\d{2}:\d{2}:\d{2}/);
      expect(await page.getByTestId('card-balance').isVisible()).toBe(true);
      expect(await page.getByText('卡片信息加载失败').count()).toBe(0);
      expect(await dialog.isVisible()).toBe(true);
      // one outage, told once at most (here in the dialog itself), not once per call that failed
      expect(await toasts(page, '当前网络异常').count()).toBeLessThanOrEqual(1);
    } finally {
      await page.context().setOffline(false);
    }

    // back online, the page reads itself again without 重试
    await expect.poll(() => page.getByTestId('stale-data').count(), settle).toBe(0);
    expect(await dialog.isVisible()).toBe(true);

    // the request reaches the server but its answer is lost on the way back: the money moves here
    await page.route('**/recharge', async (route) => {
      await deliverWithoutAnswer(route.request());
      await route.abort('internetdisconnected');
    });
    await dialog.getByRole('button', { name: '确认充值' }).click();
    await expect.poll(() => cardOf(account, cardId).then((card) => card.balance), settle).toBe('30.00');
    await expect.poll(() => dialog.getByTestId('unanswered').innerText().catch(() => ''), settle).toContain(SAVE_FAILED);
    await page.unroute('**/recharge');

    // the same button again: the server answers the first outcome, nothing moves twice
    await dialog.getByRole('button', { name: '确认充值' }).click();
    await toasts(page, '充值成功').first().waitFor({ state: 'visible', ...settle });
    await dialog.waitFor({ state: 'hidden', ...settle });
    expect(recharges.length).toBe(3);
    const keys = await Promise.all(recharges.map((request) => request.headerValue(IDEMPOTENCY_HEADER)));
    expect(keys[0]).toBeTruthy();
    expect(new Set(keys).size).toBe(1);
    expect((await cardOf(account, cardId)).balance).toBe('30.00');
    const cents = (value: string | undefined) => Math.round(Number(value ?? 'NaN') * 100);
    expect(cents(walletBefore) - cents(await usdAvailable(account))).toBe(cents(total));
    await expect.poll(() => page.getByTestId('card-balance').innerText(), settle).toContain('30.00');

    // a new top-up afterwards is a new operation with a key of its own
    const again = await openRecharge(page, '10');
    await again.getByRole('button', { name: '确认充值' }).click();
    await again.waitFor({ state: 'hidden', ...settle });
    expect(recharges.length).toBe(4);
    expect(await recharges[3]?.headerValue(IDEMPOTENCY_HEADER)).not.toBe(keys[0]);
    await expect.poll(() => cardOf(account, cardId).then((card) => card.balance), settle).toBe('40.00');
  }, 120_000);
});

describe('a double click on a confirm button', () => {
  it('tops up once: one request, one 充值成功', async () => {
    const { account, cardId } = await accountWithCard('双击充值');
    const page = await signedInPage(account, `/card-details?id=${cardId}`);
    await page.getByTestId('card-balance').waitFor({ state: 'visible', ...settle });
    const recharges = requestsTo(page, 'POST', '/recharge');
    const dialog = await openRecharge(page, '5');
    await dialog.getByRole('button', { name: '确认充值' }).dblclick();
    await toasts(page, '充值成功').first().waitFor({ state: 'visible', ...settle });
    await dialog.waitFor({ state: 'hidden', ...settle });
    // every request sent has its answer before they are counted
    await expect.poll(async () => (await Promise.all(recharges.map((request) => request.response()))).every(Boolean), settle).toBe(true);
    expect(recharges.length).toBe(1);
    expect(await toasts(page, '充值成功').count()).toBe(1);
    expect((await cardOf(account, cardId)).balance).toBe('25.00');
  });

  it('opens one card on 确认并支付: one request, one confirmation', async () => {
    const { account, productId } = await accountWithCard('先开一张');
    const page = await signedInPage(account, `/create-card?product=${productId}`);
    const openings = requestsTo(page, 'POST', '/api/v1/card');
    await field(page, '首充金额').fill('20.00');
    await field(page, '卡片昵称').fill('双击开卡');
    await page.getByTestId('open-card-submit').click();
    const review = await dialogNamed(page, /^确认开卡/);
    await review.getByRole('button', { name: '确认并支付' }).dblclick();
    await expect.poll(() => new URL(page.url()).pathname, settle).toBe('/card-details');
    await expect.poll(async () => (await Promise.all(openings.map((request) => request.response()))).every(Boolean), settle).toBe(true);
    expect(openings.length).toBe(1);
    expect(await toasts(page, '开卡申请已提交').count()).toBe(1);
  });
});

describe('a dialog on a card another tab changes', () => {
  it('no longer offers the top-up once the card was cancelled in another tab, and says so', async () => {
    const { account, cardId } = await accountWithCard('两个标签页');
    const first = await signedInPage(account, `/card-details?id=${cardId}`);
    await first.getByTestId('card-balance').waitFor({ state: 'visible', ...settle });
    const second = await anotherTab(first, `/card-details?id=${cardId}`);
    await second.getByTestId('card-balance').waitFor({ state: 'visible', ...settle });

    const recharge = await openRecharge(first, '10');

    await second.getByTestId('card-actions').locator('[data-action="DELETE"]').click();
    const cancel = await dialogNamed(second, /^注销卡片/);
    await cancel.getByRole('button', { name: '确认注销' }).click();
    await cancel.waitFor({ state: 'hidden', ...settle });

    // the first tab learns it from its event stream: the top-up is gone, the change is said
    const changed = first.getByTestId('card-changed');
    await expect.poll(() => changed.innerText().catch(() => ''), settle).toContain('该卡片已注销');
    // (the line stands in the top-up's place, under the same title)
    await expect.poll(() => recharge.getByLabel('充值金额').count(), settle).toBe(0);
    await expect.poll(() => first.getByRole('button', { name: '确认充值' }).count(), settle).toBe(0);
    await first.getByRole('dialog').filter({ has: changed }).locator('.ant-modal-footer').getByRole('button', { name: /^关\s*闭$/ }).click();
    await changed.waitFor({ state: 'detached', ...settle });
  }, 120_000);
});
