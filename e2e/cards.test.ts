/**
 * Browser tests of the card screens against the real server and its simulated issuer (which answers
 * over signed webhooks ISSUER_SIM_DELAY_MS, 800 ms, after it is asked): a fresh account funded by the
 * operator command line goes through 实名认证, opens a card with its cost shown before paying, sees it
 * issued live, reveals its number with an access code, tops it up, freezes and unfreezes it, withdraws
 * and cancels it, the card's and the wallet's balances checked at every step against the API; a failed
 * issuance (issuer:fail-next) shows its reason and gives the money back; the list of cards filters by
 * status in the address, at 1440 and at 375 px.
 *
 * Every test makes its own account through the API. Nothing waits for a fixed time: the page is waited
 * on for what it shows, the API polled for what it answers.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { CardItem, OpenedAvailableAnswer } from '@portal/contract/cards';
import type { AccountBalanceItem } from '@portal/contract/wallet';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { button, codeIn, createAccountByApi, expectPath, expectToast, field, pathOf, phoneAddress, settle, watchOutbox } from './accounts-support.ts';
import { useHarness } from './harness.ts';
import { openSignedIn } from './signed-in-session.ts';
import { portalCalls } from './portal-calls.ts';

const portal = useHarness();
const HOST = 'localhost';
const { ops, api, postWithKey } = portalCalls(portal, HOST);
const WIDE = { width: 1440, height: 900 };
const NARROW = { width: 375, height: 812 };
const PRODUCT = '订阅支付卡';
const FAILURE = '发卡行风控拒绝，请更换卡种';
const ID_NUMBER = '11010519491231002X';
/** the card page's module in the built app's manifest */
const CARD_PAGE_SOURCE = 'src/app/routes/card-details.tsx';

// ---------------------------------------------------------------------------------------------
// accounts, money and the operator command line

interface Account {
  phone: string;
  email: string;
  token: string;
}

let accounts = 0;

/** A new account (phone and e-mail of its own in this run), its wallet given 500.00 USD by the operator. */
async function fundedAccount(): Promise<Account> {
  const n = ++accounts;
  const phone = `1390008${String(n).padStart(4, '0')}`;
  const email = `cards-e2e-${n}@example.com`;
  const token = await createAccountByApi(portal, HOST, { phone, email });
  await ops(['wallet:recharge', '--host', HOST, '--account', phone, '--amount', '500', '--currency', 'USD']);
  return { phone, email, token };
}

/** The USD wallet as the API answers it: what can be spent, and what is held for operations in flight. */
async function usdWallet(account: Account) {
  const rows = await api<AccountBalanceItem[]>(account, 'GET', '/api/v1/balance/account-balance');
  const usd = rows.find((row) => row.currency === 'USD');
  if (!usd) throw new Error(`no USD row in ${JSON.stringify(rows)}`);
  return { available: usd.available, held: usd.anew };
}

const cardByApi = (account: Account, id: string) => api<CardItem>(account, 'GET', `/api/v1/card/${encodeURIComponent(id)}`);

/** Waits until the API answers the wallet and the card as expected (the issuer's answers land a moment after the page's). */
async function expectMoney(account: Account, cardId: string | null, expected: { wallet: string; held?: string; card?: string; status?: CardItem['status'] }) {
  await expect.poll(() => usdWallet(account), settle).toEqual({ available: expected.wallet, held: expected.held ?? '0.00' });
  if (cardId && (expected.card !== undefined || expected.status !== undefined)) {
    const card = await cardByApi(account, cardId);
    if (expected.card !== undefined) expect(card.balance).toBe(expected.card);
    if (expected.status !== undefined) expect(card.status).toBe(expected.status);
  }
}

async function verifyByApi(account: Account) {
  await api(account, 'PUT', '/api/v1/card/verification', { real_name: '李四', id_number: ID_NUMBER });
}

async function productId(account: Account, name: string) {
  const available = await api<OpenedAvailableAnswer>(account, 'GET', '/api/v1/card/opened-available');
  const product = available.products.find((candidate) => candidate.name === name);
  if (!product) throw new Error(`no product ${name} in ${available.products.map((candidate) => candidate.name).join(', ')}`);
  return product.id;
}

let keys = 0;
/** A card opened through the API: answered at once, 申请中 until the issuer answers. */
async function openCardByApi(account: Account, product: string, nickname: string, amount = '20.00') {
  const key = `e2e-cards-${Date.now()}-${++keys}`;
  const card = await postWithKey<CardItem>(account, '/api/v1/card', { product_id: product, amount, nickname }, key);
  return card.id;
}

/** Waits until the API answers the card in this status (the issuer's answer lands by webhook). */
async function cardReaches(account: Account, id: string, status: CardItem['status']) {
  await expect.poll(async () => (await cardByApi(account, id)).status, settle).toBe(status);
}

// ---------------------------------------------------------------------------------------------
// the page

/** A page signed in as the account at urlPath, 1440 px wide, once its event stream is open (live statuses ride on it). */
async function signedInPage(account: Account, urlPath: string): Promise<Page> {
  const page = await portal.pageAt(HOST, '/sign-in');
  await page.setViewportSize(WIDE);
  await gotoWithStream(page, () => openSignedIn(page, account.token, urlPath));
  return page;
}

/** Loads a page and waits for its event stream to answer. */
async function gotoWithStream(page: Page, load: () => Promise<unknown>) {
  const streamOpen = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/v1/events' && response.status() === 200, settle);
  await load();
  await streamOpen;
}

/**
 * Records every status the card's tag shows, however briefly, from now on in this document (a status
 * waiting on the issuer lasts its ~800 ms): `[data-status, text]` pairs, each once when it changes.
 * A mark on the window tells later that the document was never reloaded.
 */
async function recordStatuses(page: Page) {
  await page.evaluate(() => {
    const seen: [string, string][] = [];
    const w = window as unknown as { __cardStatuses?: [string, string][]; __sameDocument?: boolean };
    w.__cardStatuses = seen;
    w.__sameDocument = true;
    const note = () => {
      const tag = document.querySelector<HTMLElement>('[data-testid="card-status"]');
      if (!tag) return;
      const entry: [string, string] = [tag.dataset.status ?? '', tag.textContent?.trim() ?? ''];
      const last = seen.at(-1);
      if (!last || last[0] !== entry[0] || last[1] !== entry[1]) seen.push(entry);
    };
    new MutationObserver(note).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    note();
  });
}

const statusesSeen = (page: Page) => page.evaluate(() => (window as unknown as { __cardStatuses?: [string, string][] }).__cardStatuses ?? []);
const sameDocument = (page: Page) => page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument === true);

interface ManifestChunk {
  file: string;
  css?: string[];
  imports?: string[];
}

/**
 * Loads a screen's code and styles into the page before its first visit, as a browser that had it
 * cached would. The simulated issuer answers ISSUER_SIM_DELAY_MS (800 ms) after it is asked, and on a
 * busy machine fetching the card page's code on the navigation after 确认并支付 can take most of that
 * (measured up to ~600 ms): the 申请中 the page draws first would then be outrun by the issuer's
 * answer. The files are the ones the server serves, from its own copy of the built app.
 */
async function loadScreenAhead(page: Page, source: string) {
  const manifestFile = path.join(portal.server.dataDir, 'web/dist/.vite/manifest.json');
  const manifest = JSON.parse(await readFile(manifestFile, 'utf8')) as Record<string, ManifestChunk>;
  const entry = manifest[source];
  if (!entry) throw new Error(`${source} is not in ${manifestFile}`);
  const styles = new Set<string>();
  const seen = new Set<string>();
  const collect = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || seen.has(key)) return;
    seen.add(key);
    for (const css of chunk.css ?? []) styles.add(css);
    for (const imported of chunk.imports ?? []) collect(imported);
  };
  collect(source);
  await page.evaluate(
    (sheets) =>
      Promise.all(
        sheets.map(
          (href) =>
            new Promise<void>((resolve, reject) => {
              if (document.querySelector(`link[rel="stylesheet"][href="${href}"]`)) return resolve();
              const link = document.createElement('link');
              link.rel = 'stylesheet';
              link.href = href;
              link.onload = () => resolve();
              link.onerror = () => reject(new Error(`${href} did not load`));
              document.head.append(link);
            }),
        ),
      ),
    [...styles].map((file) => `/${file}`),
  );
  // as text: the test runner would rewrite an import() written in this file's own code
  await page.evaluate(`import(${JSON.stringify(`/${entry.file}`)}).then(() => true)`);
}

const statusTag = (page: Page) => page.getByTestId('card-status');

/** Waits until the card's tag shows this status, and checks the page was not reloaded to get there. */
async function expectStatus(page: Page, label: string) {
  await expect.poll(() => statusTag(page).innerText().catch(() => ''), settle).toBe(label);
  expect(await sameDocument(page)).toBe(true);
}

/** The statuses the tag went through since the recording began, as their labels, repeats left out. */
async function labelsSeen(page: Page) {
  return (await statusesSeen(page)).map(([, label]) => label);
}

/** "30.00" from the card page's 可用余额 ("30.00 USD"). */
async function shownCardBalance(page: Page) {
  const text = (await page.getByTestId('card-balance').innerText()).replace(/\s+/g, ' ').trim();
  const match = /^([\d,]+\.\d{2}) ?USD$/.exec(text);
  if (!match) throw new Error(`not a balance as the card page shows it: "${text}"`);
  return match[1];
}

const actionButton = (page: Page, action: string) => page.getByTestId('card-actions').locator(`[data-action="${action}"]`);

async function dialogNamed(page: Page, name: string | RegExp): Promise<Locator> {
  const dialog = page.getByRole('dialog', { name });
  await dialog.waitFor({ state: 'visible', ...settle });
  return dialog;
}

const cardIdOf = (page: Page) => new URL(page.url()).searchParams.get('id') ?? '';

/** Collects the page's uncaught errors: a journey through the screens throws none. */
function uncaughtErrors(page: Page) {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

// ---------------------------------------------------------------------------------------------

describe('a card, from opening to cancellation', () => {
  it('is opened after 实名认证, issued live, revealed, topped up, frozen, unfrozen, withdrawn from and cancelled', async () => {
    const account = await fundedAccount();
    await expectMoney(account, null, { wallet: '500.00' });
    const page = await signedInPage(account, '/create-card');
    const errors = uncaughtErrors(page);

    // 实名认证 first, then back to the opening
    await expectPath(page, '/create-card/verification');
    await field(page, '真实姓名').waitFor({ state: 'visible', ...settle });
    await field(page, '真实姓名').fill('张三');
    await field(page, '身份证号码').fill(ID_NUMBER);
    await button(page, '提交认证').click();
    await expectPath(page, '/create-card');
    // and it stays there: the opening shows its products, not the verification again (as given)
    const picker = page.getByTestId('product-picker');
    await picker.waitFor({ state: 'visible', ...settle }).catch((error: Error) => {
      throw new Error(`the opening did not show its products after 实名认证; the page is at ${page.url()}\n${error.message}`);
    });
    expect(pathOf(page)).toBe('/create-card');

    // 订阅支付卡 needs no secondary data: chosen, a first load and a nickname, and the cost shows line by line
    await picker.locator('label').filter({ hasText: PRODUCT }).click();
    await expect.poll(() => page.getByRole('radio', { name: PRODUCT }).isChecked(), settle).toBe(true);
    await field(page, '首充金额').fill('20.00');
    await field(page, '卡片昵称').fill('订阅付款');
    const cost = page.getByTestId('cost-breakdown');
    await expect.poll(() => cost.getByTestId('cost-total').innerText(), settle).toBe('22.50 USD');
    expect(await cost.getByTestId('cost-open-fee').innerText()).toBe('2.00 USD');
    expect(await cost.getByTestId('cost-amount').innerText()).toBe('20.00 USD');
    expect(await cost.getByTestId('cost-topup-fee').innerText()).toBe('0.50 USD');
    await expect.poll(() => cost.getByTestId('wallet-available').innerText(), settle).toBe('500.00 USD');
    expect(await cost.getByTestId('wallet-after').innerText()).toBe('477.50 USD');
    expect(await page.getByTestId('opening-blockers').count()).toBe(0);

    // 确认开卡: the review says the same before any money moves
    await page.getByTestId('open-card-submit').click();
    const review = await dialogNamed(page, '确认开卡');
    const reviewText = await review.innerText();
    for (const part of [PRODUCT, '订阅付款', '2.00 USD', '20.00 USD', '0.50 USD', '22.50 USD', '477.50 USD']) expect(reviewText).toContain(part);
    await expectMoney(account, null, { wallet: '500.00' });

    // from here on, every status the card's tag shows is recorded, however briefly
    await loadScreenAhead(page, CARD_PAGE_SOURCE);
    await recordStatuses(page);
    await review.getByRole('button', { name: '确认并支付' }).click();
    await expectPath(page, '/card-details');
    const cardId = cardIdOf(page);
    expect(cardId).not.toBe('');

    // 申请中, the cost held on the wallet; then 使用中 when the issuer answers, without a reload
    await expectStatus(page, '使用中');
    expect(await labelsSeen(page)).toEqual(['申请中', '使用中']);
    await expect.poll(() => shownCardBalance(page), settle).toBe('20.00');
    await expectMoney(account, cardId, { wallet: '477.50', card: '20.00', status: 'NORMAL' });
    const faceNumber = await page.getByTestId('card-face-number').innerText();
    const last4 = /•••• •••• •••• (\d{4})$/.exec(faceNumber.replace(/\s+/g, ' ').trim())?.[1];
    expect(last4, `the face shows "${faceNumber}"`).toMatch(/^\d{4}$/);
    expect(last4).toBe((await cardByApi(account, cardId)).last4);

    // 查看卡号 asks for an access code, then shows the full number (ending in the masked four) and the CVV
    await page.getByRole('button', { name: /查看卡号/ }).click();
    const reveal = await dialogNamed(page, '查看卡号');
    const sms = await watchOutbox(portal, phoneAddress(account.phone));
    await reveal.getByRole('button', { name: '获取验证码' }).click();
    const code = codeIn(await sms.next());
    await reveal.getByLabel('验证码').fill(code);
    await reveal.getByRole('button', { name: /验证并查看/ }).click();
    const number = reveal.getByTestId('reveal-number');
    await expect.poll(() => number.innerText(), settle).toMatch(/^\d{4} \d{4} \d{4} \d{4}$/);
    const pan = (await number.innerText()).replace(/\s/g, '');
    expect(pan.slice(-4)).toBe(last4);
    expect(pan.startsWith('55555555')).toBe(true);
    expect(await reveal.getByTestId('reveal-cvv').innerText()).toMatch(/^\d{3}$/);
    expect(await reveal.getByTestId('reveal-expiry').innerText()).toMatch(/^\d{2}\/\d{2}$/);
    await reveal.getByTestId('reveal-countdown').waitFor({ state: 'visible', ...settle });
    // the dialog's own 关闭 button, not its corner ×
    await reveal.locator('button:not(.ant-modal-close)', { hasText: /关\s*闭/ }).click();
    await reveal.waitFor({ state: 'hidden', ...settle });
    // closed, the number is nowhere on the page
    expect(await page.evaluate(() => document.body.innerText.replace(/\s/g, ''))).not.toContain(pan);

    // 充值 10.00: fee 0.40 and 10.40 in all shown before confirming
    await actionButton(page, 'RECHARGE').click();
    const recharge = await dialogNamed(page, /^充值/);
    await recharge.getByLabel('充值金额').fill('10.00');
    await expect.poll(() => recharge.getByTestId('recharge-total').innerText(), settle).toBe('10.40 USD');
    expect(await recharge.getByTestId('recharge-fee').innerText()).toBe('0.40 USD');
    expect(await recharge.getByTestId('recharge-amount').innerText()).toBe('10.00 USD');
    expect(await recharge.getByTestId('recharge-wallet').innerText()).toBe('477.50 USD');
    await recharge.getByRole('button', { name: '确认充值' }).click();
    await expectToast(page, '充值成功：10.00 USD，手续费 0.40 USD');
    await recharge.waitFor({ state: 'hidden', ...settle });
    await expect.poll(() => shownCardBalance(page), settle).toBe('30.00');
    await expectMoney(account, cardId, { wallet: '467.10', card: '30.00', status: 'NORMAL' });

    // 冻结 → 冻结中 → 已冻结, live
    await recordStatuses(page);
    await actionButton(page, 'FREEZE').click();
    const freeze = await dialogNamed(page, '冻结卡片');
    await freeze.getByRole('button', { name: '确认冻结' }).click();
    await expectStatus(page, '已冻结');
    expect(await labelsSeen(page)).toEqual(['使用中', '冻结中', '已冻结']);
    await page.getByTestId('card-frozen-notice').waitFor({ state: 'visible', ...settle });
    expect(await actionButton(page, 'RECHARGE').count()).toBe(0);
    await expectMoney(account, cardId, { wallet: '467.10', card: '30.00', status: 'FREEZE' });

    // 解冻 → 解冻中 → 使用中
    await recordStatuses(page);
    await actionButton(page, 'UNFREEZE').click();
    const unfreeze = await dialogNamed(page, '解冻卡片');
    await unfreeze.getByRole('button', { name: '确认解冻' }).click();
    await expectStatus(page, '使用中');
    expect(await labelsSeen(page)).toEqual(['已冻结', '解冻中', '使用中']);
    await expectMoney(account, cardId, { wallet: '467.10', card: '30.00', status: 'NORMAL' });

    // 提现 5.00: the card down to 25.00, the wallet up by 5.00
    await actionButton(page, 'WITHDRAW').click();
    const withdraw = await dialogNamed(page, /^提现/);
    expect(await withdraw.getByTestId('withdraw-available').innerText()).toBe('30.00');
    await withdraw.getByLabel('提现金额').fill('5.00');
    await withdraw.getByRole('button', { name: '确认提现' }).click();
    await expectToast(page, '提现成功：5.00 USD 已转回钱包');
    await withdraw.waitFor({ state: 'hidden', ...settle });
    await expect.poll(() => shownCardBalance(page), settle).toBe('25.00');
    await expectMoney(account, cardId, { wallet: '472.10', card: '25.00', status: 'NORMAL' });

    // 注销, confirmed with where the balance goes → 注销中 → 已注销; the 25.00 back in the wallet
    await recordStatuses(page);
    await actionButton(page, 'DELETE').click();
    const close = await dialogNamed(page, '注销卡片');
    expect(await close.getByTestId('delete-refund').innerText()).toBe('卡内余额 25.00 USD 将在注销完成后退回钱包。');
    await close.getByRole('button', { name: '确认注销' }).click();
    await expectStatus(page, '已注销');
    expect(await labelsSeen(page)).toEqual(['使用中', '注销中', '已注销']);
    await expect.poll(() => shownCardBalance(page), settle).toBe('0.00');
    await page.getByTestId('card-deleted-notice').waitFor({ state: 'visible', ...settle });
    expect(await page.getByTestId('card-actions').count()).toBe(0);
    expect(await page.getByRole('button', { name: /查看卡号/ }).isDisabled()).toBe(true);
    await expectMoney(account, cardId, { wallet: '497.10', card: '0.00', status: 'DELETE' });

    // the wallet screen says the same: 500.00 − 22.50 − 10.40 + 5.00 + 25.00
    await page.goto(portal.url(HOST, '/wallet'));
    await expect.poll(() => page.getByTestId('balance-USD').getByTestId('balance-available').innerText(), settle).toBe('497.10');
    expect(errors).toEqual([]);
  });
});

describe('a card the issuer does not issue', () => {
  it('turns 申请中 into 开卡失败 with the issuer’s reason, and the wallet gets everything back', async () => {
    const account = await fundedAccount();
    await verifyByApi(account);
    const page = await signedInPage(account, '/create-card');
    const errors = uncaughtErrors(page);

    await page.getByTestId('product-picker').locator('label').filter({ hasText: PRODUCT }).click();
    await field(page, '首充金额').fill('20.00');
    await field(page, '卡片昵称').fill('会被拒绝');
    await expect.poll(() => page.getByTestId('cost-total').innerText(), settle).toBe('22.50 USD');
    await expect.poll(() => page.getByTestId('wallet-available').innerText(), settle).toBe('500.00 USD');

    // the next issuance fails, asked of this server's own simulated issuer
    const said = await ops(['issuer:fail-next', '--reason', FAILURE]);
    expect(said).toContain(FAILURE);

    await page.getByTestId('open-card-submit').click();
    const review = await dialogNamed(page, '确认开卡');
    await loadScreenAhead(page, CARD_PAGE_SOURCE);
    await recordStatuses(page);
    await review.getByRole('button', { name: '确认并支付' }).click();
    await expectPath(page, '/card-details');
    const cardId = cardIdOf(page);

    await expectStatus(page, '开卡失败');
    expect(await labelsSeen(page)).toEqual(['申请中', '开卡失败']);
    const notice = page.getByTestId('card-failed-notice');
    await notice.waitFor({ state: 'visible', ...settle });
    const noticeText = await notice.innerText();
    expect(noticeText).toContain(`失败原因：${FAILURE}`);
    expect(noticeText).toContain('本次开卡预扣的费用和首充金额已退回钱包。');
    expect(await page.getByTestId('card-face-number').innerText()).toContain('待发卡');
    expect(await page.getByRole('button', { name: /查看卡号/ }).isDisabled()).toBe(true);
    expect(await page.getByTestId('card-actions').count()).toBe(0);

    // the wallet is where it was, nothing held
    await expectMoney(account, cardId, { wallet: '500.00', held: '0.00', card: '0.00', status: 'FAIL' });
    const card = await cardByApi(account, cardId);
    expect(card.failure_reason).toBe(FAILURE);
    expect(errors).toEqual([]);
  });
});

describe('the list of cards', () => {
  it('lists the account’s cards, filters them by status in the address, and opens one; at 1440 and 375 px', async () => {
    const account = await fundedAccount();
    await verifyByApi(account);
    const product = await productId(account, PRODUCT);
    // one after the other (the list is newest first), issued side by side
    const inUse = await openCardByApi(account, product, '日常订阅');
    const frozen = await openCardByApi(account, product, '备用卡', '15.00');
    await Promise.all([cardReaches(account, inUse, 'NORMAL'), cardReaches(account, frozen, 'NORMAL')]);
    await api(account, 'PUT', `/api/v1/card/${frozen}/status`, { action: 'FREEZE' });
    await cardReaches(account, frozen, 'FREEZE');

    const page = await signedInPage(account, '/card');
    const rows = page.getByTestId('card-row');
    const nicknames = () => rows.getByTestId('card-nickname').allInnerTexts();
    await expect.poll(nicknames, settle).toEqual(['备用卡', '日常订阅']);
    expect(await page.getByTestId('card-total').innerText()).toBe('共 2 张');
    const frozenRow = rows.filter({ hasText: '备用卡' });
    expect(await frozenRow.getByTestId('card-status').innerText()).toBe('已冻结');
    expect(await frozenRow.getByTestId('card-balance').innerText()).toBe('15.00');
    expect(await rows.filter({ hasText: '日常订阅' }).getByTestId('card-status').innerText()).toBe('使用中');

    // 卡片状态: 已冻结 — kept in the address, and after a reload
    await page.getByRole('combobox', { name: '卡片状态' }).click();
    await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option[title="已冻结"]').click();
    await expect.poll(nicknames, settle).toEqual(['备用卡']);
    expect(new URL(page.url()).searchParams.get('status')).toBe('FREEZE');
    await page.reload();
    await expect.poll(nicknames, settle).toEqual(['备用卡']);
    expect(new URL(page.url()).searchParams.get('status')).toBe('FREEZE');
    expect(await page.getByTestId('filter-status').innerText()).toContain('已冻结');

    // 使用中 as well: several statuses at once; then 已冻结 taken off leaves the other one
    await page.getByRole('combobox', { name: '卡片状态' }).click();
    const option = (title: string) => page.locator(`.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option[title="${title}"]`);
    await option('使用中').click();
    await expect.poll(nicknames, settle).toEqual(['备用卡', '日常订阅']);
    expect(new URL(page.url()).searchParams.get('status')?.split(',').sort()).toEqual(['FREEZE', 'NORMAL']);
    await option('已冻结').click();
    await expect.poll(nicknames, settle).toEqual(['日常订阅']);
    expect(new URL(page.url()).searchParams.get('status')).toBe('NORMAL');
    await page.keyboard.press('Escape');

    // at 375 px the rows are a list of buttons, nothing wider than the screen, and one opens its card
    await page.setViewportSize(NARROW);
    await page.locator('button[data-testid="card-row"]').first().waitFor({ state: 'visible', ...settle });
    await expect.poll(nicknames, settle).toEqual(['日常订阅']);
    expect(await page.locator('table').count()).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(NARROW.width);
    await rows.first().click();
    await expectPath(page, '/card-details');
    expect(cardIdOf(page)).toBe(inUse);
    await expect.poll(() => statusTag(page).innerText().catch(() => ''), settle).toBe('使用中');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(NARROW.width);
  });
});
