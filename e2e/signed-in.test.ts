/**
 * Browser tests of the signed-in layout (spec §2 "Logged-in layout", §4): header, menu and menuKey,
 * the guard and the allow-list, offline navigation, the user agreement from the account menu, and
 * logging out.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useHarness } from './harness.ts';
import { apiCall, DEMO, demoSignIn, openSignedIn } from './signed-in-session.ts';

const portal = useHarness();
const HOST = 'localhost';
let signIn: ReturnType<typeof demoSignIn>;

beforeAll(() => {
  signIn = demoSignIn(portal.server.port);
});

const settle = { timeout: 10_000 };
const NOT_FOUND = '非常抱歉，您访问的页面不存在';

async function signedInPage(urlPath: string): Promise<{ page: Page; token: string }> {
  const token = await signIn(HOST);
  const page = await portal.pageAt(HOST, '/sign-in');
  await openSignedIn(page, token, urlPath);
  await header(page).waitFor({ state: 'visible', timeout: 10_000 });
  return { page, token };
}

const header = (page: Page) => page.getByRole('navigation', { name: '主菜单' });
const pathname = (page: Page) => new URL(page.url()).pathname;
const menuKey = (page: Page) => page.evaluate(() => sessionStorage.getItem('menuKey'));
const activeMenu = (page: Page) =>
  header(page)
    .locator('a')
    .evaluateAll((links) => links.filter((link) => link.className.includes('Active')).map((link) => link.getAttribute('data-menu-key')));
const text = (page: Page) => page.evaluate(() => document.body.innerText);

async function openAccountMenu(page: Page) {
  await page.getByTestId('account-menu').hover();
  await page.getByRole('menuitem', { name: /退出登录/ }).waitFor({ state: 'visible', timeout: 5_000 });
}

/**
 * Chooses an entry of the open account menu. The click is dispatched on the entry itself: Playwright's
 * pointer click first scrolls the entry "into view", and on a page taller than the window that scroll
 * moves the popup under the pointer while it realigns to the header, so the click may land on nothing.
 */
async function chooseAccountMenuItem(page: Page, name: RegExp) {
  const item = page.getByRole('menuitem', { name });
  await item.waitFor({ state: 'visible', timeout: 5_000 });
  await item.dispatchEvent('click');
}

describe('the signed-in layout', () => {
  it('shows the logo, the menu, the bell, the company and the member with their role', async () => {
    const { page } = await signedInPage('/wallet');
    await expect.poll(() => page.getByTestId('account-member').innerText(), settle).toMatch(/^\d{3}\*{4}\d{4} · 所有者$/);
    expect(await page.getByTestId('account-company').innerText()).not.toBe('');
    expect(await page.getByAltText('蓝鲸卡', { exact: true }).first().isVisible()).toBe(true);
    expect(await header(page).locator('a').allInnerTexts()).toEqual(['钱包', '卡片', '消费分析', '批量导出', '设置']);
    expect(await activeMenu(page)).toEqual(['wallet']);
    await page.getByTestId('unread-bell').click();
    await expect.poll(() => pathname(page), settle).toBe('/information-center');
  });

  it('names the company, the member and the e-mail inside its menu at 375 px, where the header has no room for them', async () => {
    const { page } = await signedInPage('/wallet');
    await page.setViewportSize({ width: 375, height: 812 });
    await expect.poll(() => page.getByTestId('account-company').isVisible(), settle).toBe(false);
    // a tap: a click with no pointer hovering first (a mouse's hover would open the menu and its click close it)
    await page.getByTestId('account-menu').dispatchEvent('click');
    await page.getByTestId('account-menu-email').waitFor({ state: 'visible', ...settle });
    expect(await page.getByTestId('account-menu-email').innerText()).toBe(DEMO.email);
    expect(await page.getByTestId('account-menu-member').innerText()).toMatch(/ · 所有者$/);
    await page.getByRole('menuitem', { name: /退出登录/ }).waitFor({ state: 'visible', ...settle });
  });

  it('keeps the chosen menu entry in session storage under menuKey', async () => {
    const { page } = await signedInPage('/wallet');
    expect(await menuKey(page)).toBe('wallet');

    await header(page).getByRole('link', { name: '设置' }).click();
    await expect.poll(() => pathname(page), settle).toBe('/settings');
    await expect.poll(() => page.locator('h1').innerText(), settle).toBe('设置');
    expect(await menuKey(page)).toBe('settings');

    // a page of no menu entry highlights none, and keeps the last one chosen under menuKey
    await page.getByTestId('unread-bell').click();
    await expect.poll(() => page.locator('h1').innerText(), settle).toBe('消息中心');
    expect(await activeMenu(page)).toEqual([]);
    expect(await menuKey(page)).toBe('settings');

    await header(page).getByRole('link', { name: '卡片' }).click();
    await expect.poll(() => page.locator('h1').innerText(), settle).toBe('我的卡片');
    expect(await menuKey(page)).toBe('card');
    await page.reload();
    await header(page).waitFor({ state: 'visible' });
    expect(await activeMenu(page)).toEqual(['card']);
  });

  it('draws every allow-listed path inside the layout', async () => {
    const { page } = await signedInPage('/wallet');
    const titles: Record<string, string> = {
      '/wallet': '钱包',
      '/settings': '设置',
      '/information-center': '消息中心',
      '/card': '我的卡片',
      '/create-card': '开卡',
      '/card-details': '卡片详情',
      '/card/analysis': '消费分析',
      '/bulk-export': '批量导出',
      '/create-card/verification': '实名认证',
      '/create-card/secondary-verification-data': '补充资料',
    };
    for (const [urlPath, title] of Object.entries(titles)) {
      await page.goto(portal.url(HOST, urlPath));
      await expect.poll(() => page.locator('h1').first().innerText().catch(() => ''), settle).toBe(title);
      expect(await header(page).isVisible()).toBe(true);
    }
    // the announcement page without an id goes to the announcements
    await page.goto(portal.url(HOST, '/information-announcement-details'));
    await expect.poll(() => page.url(), settle).toBe(portal.url(HOST, '/information-center?tab=announcement'));
  });

  it('shows the not-found page inside the layout for any other path; Back to home goes to the wallet', async () => {
    const { page } = await signedInPage('/card');
    for (const urlPath of ['/wallet/history', '/no-such-page', '/create-card/other']) {
      await page.goto(portal.url(HOST, urlPath));
      await expect.poll(() => text(page), settle).toContain(NOT_FOUND);
      expect(await header(page).isVisible()).toBe(true);
      // drawn inside the layout's main landmark, not as a second one
      expect(await page.getByRole('main').count()).toBe(1);
      // and no menu entry is highlighted, as none is this page's
      expect(await activeMenu(page)).toEqual([]);
    }
    await page.getByRole('button', { name: 'Back to home' }).click();
    await expect.poll(() => pathname(page), settle).toBe('/wallet');
    expect(await menuKey(page)).toBe('wallet');
  });

  it('goes to /network-anomaly when a navigation happens offline', async () => {
    const { page } = await signedInPage('/wallet');
    await page.context().setOffline(true);
    await header(page).getByRole('link', { name: '卡片' }).click();
    await expect.poll(() => pathname(page), settle).toBe('/network-anomaly');
    await expect.poll(() => text(page), settle).toContain('网络异常，请稍后重试');
    await page.context().setOffline(false);
    await page.getByRole('button', { name: /重\s*试/ }).click();
    await expect.poll(() => pathname(page), settle).toBe('/wallet');
    await header(page).waitFor({ state: 'visible', timeout: 10_000 });
  });
});

describe('the account menu', () => {
  it('opens the user agreement, passing the first agreement id in navigation state', async () => {
    const { page } = await signedInPage('/wallet');
    const titles = await apiCall<{ id: string; title: string }[]>(portal.server.port, HOST, 'GET', '/api/v1/merchant/user-agreement/title');
    const first = titles.body.data[0];
    if (!first) throw new Error('the demo merchant has no agreement');

    await openAccountMenu(page);
    await chooseAccountMenuItem(page, /用户协议/);
    await expect.poll(() => pathname(page), settle).toBe('/agreement');
    expect(new URL(page.url()).search).toBe('');
    expect(await page.evaluate(() => (history.state as { usr?: { id?: string } } | null)?.usr?.id)).toBe(first.id);
    await expect.poll(() => page.locator('h1').innerText(), settle).toBe(first.title);
    // the title shows once: the agreement's own opening heading that repeats it is not shown again
    await page.locator('article p').first().waitFor(settle);
    expect((await text(page)).split(first.title).length - 1).toBe(1);

    // its back arrow returns to the page it came from
    await page.getByRole('button', { name: '返回' }).click();
    await expect.poll(() => pathname(page), settle).toBe('/wallet');
  });

  it('says 暂无用户协议 when the merchant has no agreement', async () => {
    const { page } = await signedInPage('/wallet');
    await page.route('**/api/v1/merchant/user-agreement/title', (route) =>
      route.fulfill({ contentType: 'application/json', body: JSON.stringify({ code: 0, message: 'success', data: [] }) }),
    );
    await openAccountMenu(page);
    await chooseAccountMenuItem(page, /用户协议/);
    await expect.poll(() => page.getByTestId('toasts').innerText().catch(() => ''), settle).toContain('暂无用户协议');
    expect(pathname(page)).toBe('/wallet');
  });

  it('logs out: /sign-in, the session cleared, and the old token refused', async () => {
    const { page, token } = await signedInPage('/wallet');
    expect((await apiCall(portal.server.port, HOST, 'GET', '/api/v1/account/info', { token })).body.code).toBe(0);

    await openAccountMenu(page);
    const loggedOut = page.waitForResponse((response) => response.request().method() === 'DELETE' && response.url().endsWith('/api/v1/account/login'));
    await chooseAccountMenuItem(page, /退出登录/);
    expect((await loggedOut).status()).toBe(200);
    await expect.poll(() => pathname(page), settle).toBe('/sign-in');
    expect(
      await page.evaluate(() => [localStorage.getItem('token'), sessionStorage.getItem('token'), localStorage.getItem('isLogin')]),
    ).toEqual([null, null, null]);

    const refused = await apiCall(portal.server.port, HOST, 'GET', '/api/v1/account/info', { token });
    expect(refused.body.code).toBe(608);

    // the signed-in screens are closed to this tab now
    await page.goto(portal.url(HOST, '/wallet'));
    await expect.poll(() => pathname(page), settle).toBe('/sign-in');
  });

  it('leaves for /sign-in when the session is ended elsewhere', async () => {
    const { page, token } = await signedInPage('/wallet');
    await page.waitForTimeout(500);
    const ended = await apiCall(portal.server.port, HOST, 'DELETE', '/api/v1/account/login', { token });
    expect(ended.body.code).toBe(0);
    // the stream ends with the session; its next try is refused, which ends this tab's session
    await expect.poll(() => pathname(page), { timeout: 15_000 }).toBe('/sign-in');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  });
});

describe('logged out', () => {
  it('sends a signed-in screen to /sign-in, replacing the history entry', async () => {
    const page = await portal.pageAt(HOST, '/sign-in');
    const before = await page.evaluate(() => history.length);
    await page.goto(portal.url(HOST, '/information-center'));
    await expect.poll(() => pathname(page), settle).toBe('/sign-in');
    // one entry for the visit to /information-center, and it now says /sign-in
    expect(await page.evaluate(() => history.length)).toBe(before + 1);
    await page.goBack();
    await expect.poll(() => pathname(page), settle).toBe('/sign-in');
    expect(page.url()).not.toContain('information-center');
  });

  it('shows the not-found page without the layout for an unknown path', async () => {
    const page = await portal.pageAt(HOST, '/no-such-page');
    await expect.poll(() => text(page), settle).toContain(NOT_FOUND);
    expect(await header(page).count()).toBe(0);
    expect(await page.getByRole('main').count()).toBe(1);
    expect(pathname(page)).toBe('/no-such-page');
    // still the merchant's page: its logo, and its website as the title
    expect(await page.getByAltText('蓝鲸卡', { exact: true }).isVisible()).toBe(true);
    expect(await page.title()).toBe('BLUEWHALE.EXAMPLE');
  });
});
