/**
 * Browser tests of a card's spending against the real server and its simulated issuer, driven by the
 * operator's `card:simulate-transaction`: a purchase appears live in the card's transactions; a
 * decline shows its reason, its fix and the button that applies it; a 3-D Secure code appears as a
 * dialog within a second on every open tab and counts down; limits set on the page decline the next
 * purchase over them; the card list shows 本月消费 and 近30天拒绝率, at 1440 and at 375 px.
 *
 * Every test makes its own account through the API. Nothing waits for a fixed time: the page is waited
 * on for what it shows, the API polled for what it answers.
 */
import type { CardItem, OpenedAvailableAnswer } from '@portal/contract/cards';
import { chinaDateTime, MACHINE_TIME_PATTERN } from '@portal/contract/date-time';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createAccountByApi, settle } from './accounts-support.ts';
import { useHarness } from './harness.ts';
import { openSignedIn } from './signed-in-session.ts';
import { portalCalls } from './portal-calls.ts';

const portal = useHarness();
const HOST = 'localhost';
const { ops, api, postWithKey } = portalCalls(portal, HOST);
const WIDE = { width: 1440, height: 900 };
const NARROW = { width: 375, height: 812 };
const PRODUCT = '订阅支付卡';
const ID_NUMBER = '11010519491231002X';

interface Account {
  phone: string;
  token: string;
}

let accounts = 0;

/** A new account with 500.00 USD in its wallet and one card in use holding `load`. */
async function accountWithCard(load = '20.00'): Promise<{ account: Account; card: CardItem }> {
  const n = ++accounts;
  const phone = `1390009${String(n).padStart(4, '0')}`;
  const token = await createAccountByApi(portal, HOST, { phone, email: `spending-e2e-${n}@example.com` });
  const account = { phone, token };
  await ops(['wallet:recharge', '--host', HOST, '--account', phone, '--amount', '500', '--currency', 'USD']);
  await api(account, 'PUT', '/api/v1/card/verification', { real_name: '李四', id_number: ID_NUMBER });
  const available = await api<OpenedAvailableAnswer>(account, 'GET', '/api/v1/card/opened-available');
  const product = available.products.find((candidate) => candidate.name === PRODUCT);
  if (!product) throw new Error(`no product ${PRODUCT}`);
  const opened = await postWithKey<CardItem>(account, '/api/v1/card', { product_id: product.id, amount: load, nickname: '广告投放' }, `e2e-spending-${Date.now()}-${n}`);
  await expect.poll(async () => (await api<CardItem>(account, 'GET', `/api/v1/card/${opened.id}`)).status, settle).toBe('NORMAL');
  return { account, card: await api<CardItem>(account, 'GET', `/api/v1/card/${opened.id}`) };
}

/** A purchase at the simulated issuer, as a merchant's payment would make it. */
const purchase = (card: CardItem, amount: string, extra: string[] = [], where = { merchant: 'Meta Ads', mcc: '7311', country: 'US' }) =>
  ops(['card:simulate-transaction', '--card', card.id, '--amount', amount, '--merchant', where.merchant, '--mcc', where.mcc, '--country', where.country, ...extra]);

/** A page signed in as the account at urlPath, once its event stream is open (the live rows ride on it). */
async function signedInPage(account: Account, urlPath: string, viewport = WIDE): Promise<Page> {
  const page = await portal.pageAt(HOST, '/sign-in');
  await page.setViewportSize(viewport);
  const streamOpen = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/v1/events' && response.status() === 200, settle);
  await openSignedIn(page, account.token, urlPath);
  await streamOpen;
  return page;
}

const rows = (page: Page) => page.getByTestId('transaction-row');

describe('卡片消费', () => {
  it('shows a simulated purchase live in the card’s transactions, with merchant, category and country', async () => {
    const { account, card } = await accountWithCard();
    const page = await signedInPage(account, `/card-details?id=${card.id}`);
    await expect.poll(() => rows(page).count(), settle).toBe(1); // the first load
    await page.evaluate(() => {
      (window as unknown as { __same?: boolean }).__same = true;
    });
    await purchase(card, '12.34');
    await expect.poll(() => rows(page).count(), settle).toBe(2);
    const row = rows(page).first();
    expect(await row.getByTestId('transaction-type').innerText()).toBe('消费');
    expect(await row.getByTestId('transaction-merchant').innerText()).toBe('Meta Ads');
    expect(await row.getByTestId('transaction-category').innerText()).toBe('广告服务');
    expect(await row.getByTestId('transaction-country').innerText()).toBe('美国');
    expect(await row.getByTestId('transaction-amount').innerText()).toMatch(/^12\.34\s*USD$/);
    expect(await page.evaluate(() => (window as unknown as { __same?: boolean }).__same)).toBe(true);
  });

  it('names every category and country in 中文 with no code beside them, the codes in the tooltip', async () => {
    const { account, card } = await accountWithCard();
    await purchase(card, '3.00', [], { merchant: 'Shopify', mcc: '5734', country: 'MT' });
    await purchase(card, '4.00', [], { merchant: 'TikTok Ads', mcc: '7311', country: 'SG' });
    const page = await signedInPage(account, `/card-details?id=${card.id}`);
    await expect.poll(() => rows(page).count(), settle).toBe(3);
    // newest first: TikTok Ads, Shopify, then the first load
    const spent = [rows(page).nth(0), rows(page).nth(1)];
    expect(await Promise.all(spent.map((row) => row.getByTestId('transaction-category').innerText()))).toEqual(['广告服务', '计算机软件商店']);
    expect(await Promise.all(spent.map((row) => row.getByTestId('transaction-country').innerText()))).toEqual(['新加坡', '马耳他']);
    expect(await spent[0]?.getByTestId('transaction-category').getAttribute('title')).toBe('MCC 7311');
    expect(await spent[1]?.getByTestId('transaction-country').getAttribute('title')).toBe('MT');
    expect((await rows(page).allInnerTexts()).join('\n')).not.toMatch(/MCC|\b(MT|SG)\b/);

    const narrow = await signedInPage(account, `/card-details?id=${card.id}`, NARROW);
    await expect.poll(() => rows(narrow).count(), settle).toBe(3);
    const list = await rows(narrow).allInnerTexts();
    expect(list.join('\n')).toContain('计算机软件商店 · 马耳他');
    expect(list.join('\n')).not.toMatch(/MCC|\b(MT|SG)\b/);
  });

  it('explains a decline for want of funds and opens 充值 from it', async () => {
    const { account, card } = await accountWithCard('10.00');
    const page = await signedInPage(account, `/card-details?id=${card.id}`);
    await purchase(card, '50.00');
    const decline = page.getByTestId('transaction-decline').first();
    await expect.poll(() => decline.getByTestId('decline-reason').innerText().catch(() => ''), settle).toBe('卡片余额不足');
    expect(await decline.getByTestId('decline-fix').innerText()).toBe('请为卡片充值后重试');
    await decline.getByTestId('decline-fix-button').click();
    await page.getByRole('dialog').getByRole('textbox', { name: '充值金额' }).waitFor(settle);
  });

  it('shows a 3-D Secure code within a second on every open tab, counting down', async () => {
    const { account, card } = await accountWithCard();
    const page = await signedInPage(account, '/wallet');
    const other = await page.context().newPage();
    await other.setViewportSize(NARROW);
    const otherStream = other.waitForResponse((response) => new URL(response.url()).pathname === '/api/v1/events' && response.status() === 200, settle);
    await other.goto(portal.url(HOST, `/card-details?id=${card.id}`));
    await otherStream;
    const asked = Date.now();
    await purchase(card, '12.34', ['--3ds']);
    for (const tab of [page, other]) {
      const dialog = tab.getByTestId('three-ds-dialog');
      await dialog.getByTestId('three-ds-code').waitFor({ timeout: 5_000 });
      expect(await dialog.getByTestId('three-ds-code').innerText()).toMatch(/^\d{6}$/);
      expect(await dialog.getByTestId('three-ds-merchant').innerText()).toBe('Meta Ads');
      expect(await dialog.getByTestId('three-ds-amount').innerText()).toBe('12.34 USD');
      expect(await dialog.getByTestId('three-ds-card').innerText()).toBe(`广告投放 •••• ${card.last4}`);
    }
    // the command returns once the issuer has sent the code; the dialog follows within a second of that
    expect(Date.now() - asked).toBeLessThan(15_000);
    const countdown = page.getByTestId('three-ds-dialog').getByTestId('three-ds-countdown');
    const first = await countdown.innerText();
    await expect.poll(() => countdown.innerText(), settle).not.toBe(first);
  });

  it('says in the 3-D Secure station message until when the code is valid, in China time', async () => {
    const { account, card } = await accountWithCard();
    const answer = JSON.parse(await purchase(card, '12.34', ['--3ds', '--json'])) as { three_ds: { expires_at: string } | null };
    const expiresAt = answer.three_ds?.expires_at;
    if (!expiresAt) throw new Error('the purchase asked for no 3-D Secure code');
    const page = await signedInPage(account, '/information-center');
    const row = page.getByTestId('message-row').filter({ hasText: '3-D Secure 验证码' });
    await row.first().waitFor({ state: 'visible', ...settle });
    await row.first().click();
    // the message's own dialog (a 3-D Secure code's dialog may be up as well)
    const dialog = page.getByRole('dialog').filter({ hasText: '有效期至' });
    await dialog.waitFor({ state: 'visible', ...settle });
    const text = await dialog.innerText();
    expect(text).toContain(`有效期至 ${chinaDateTime(expiresAt, { seconds: true })}（北京时间）`);
    expect(text).not.toMatch(MACHINE_TIME_PATTERN);
  });

  it('declines the next purchase over a single limit set on the page, and leads the fix back to it', async () => {
    const { account, card } = await accountWithCard();
    const page = await signedInPage(account, `/card-details?id=${card.id}`);
    const single = page.getByTestId('control-single_limit');
    await single.fill('5');
    await page.getByTestId('controls-save').click();
    await page.getByText('卡片限制已保存').waitFor(settle);
    await expect
      .poll(async () => (await api<{ single_limit: string | null }>(account, 'GET', `/api/v1/card/${card.id}/controls`)).single_limit, settle)
      .toBe('5.00');
    await purchase(card, '5.01');
    const decline = page.getByTestId('transaction-decline').first();
    await expect.poll(() => decline.getByTestId('decline-reason').innerText().catch(() => ''), settle).toBe('超出单笔限额');
    await single.blur();
    await decline.getByTestId('decline-fix-button').click();
    await expect.poll(() => single.evaluate((element) => element === document.activeElement), settle).toBe(true);
  });

  it('shows 本月消费 and 近30天拒绝率 on the card list, on a phone too', async () => {
    const { account, card } = await accountWithCard();
    await purchase(card, '3.00');
    await purchase(card, '999.00');
    for (const viewport of [WIDE, NARROW]) {
      const page = await signedInPage(account, '/card', viewport);
      const row = page.getByTestId('card-row').first();
      await expect.poll(() => row.getByTestId('card-spent').innerText().catch(() => ''), settle).toBe('3.00');
      expect(await row.getByTestId('card-decline-rate').innerText()).toBe('50%');
    }
  });
});
