/**
 * Browser tests of the message center and the live events: messages sent with the real
 * operator command line reach the open portal through GET /api/v1/events, as the bell's count and
 * floating notices; the center lists, filters, pages and opens them.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, useHarness } from './harness.ts';
import { apiCall, DEMO, demoSignIn, openSignedIn, runOpsCli, runOpsInProcess } from './signed-in-session.ts';

const portal = useHarness();
const HOST = 'localhost';
let signIn: ReturnType<typeof demoSignIn>;

beforeAll(() => {
  signIn = demoSignIn(portal.server.port);
});

const settle = { timeout: 10_000 };

/** A page of the signed-in portal whose event stream is open. */
async function signedInPage(urlPath: string): Promise<{ page: Page; token: string }> {
  const token = await signIn(HOST);
  await markEverythingRead(token);
  const page = await portal.pageAt(HOST, '/sign-in');
  const streamOpen = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/v1/events' && response.status() === 200);
  await openSignedIn(page, token, urlPath);
  await streamOpen;
  // the stream's first event carries the unread count; the bell shows it once it has arrived
  await expect.poll(() => bellLabel(page), settle).toBe('消息中心');
  return { page, token };
}

async function markEverythingRead(token: string) {
  const answer = await apiCall(portal.server.port, HOST, 'PUT', '/api/v1/msg-center/station-msg/read-status', { body: { all: true }, token });
  expect(answer.body.code).toBe(0);
}

const bellLabel = (page: Page) => page.getByTestId('unread-bell').getAttribute('aria-label');
const badgeText = (page: Page) => page.getByTestId('unread-bell').locator('.ant-badge-count').innerText();
const notices = (page: Page) => page.getByTestId('message-notice');
/** A window with room for five stacked notices below the wallet's controls and its rows' 详情. */
const ROOMY = { width: 1440, height: 1600 };
/** The notices drawn and the ones the +N (or N 条新消息) line holds folded. */
async function drawnAndFolded(page: Page) {
  const drawn = await notices(page).count();
  const summary = page.getByTestId('notices-summary');
  if ((await summary.count()) === 0) return drawn;
  const folded = Number(/\+(\d+)|(\d+) 条新消息/.exec(await summary.innerText())?.slice(1).find(Boolean) ?? Number.NaN);
  return drawn + folded;
}
const noticeTitles = (page: Page) => page.getByTestId('notice-title').allTextContents();

/** `npm run ops -- …` in this process, through the running server's socket like the CLI. */
const opsInProcess = (args: string[]) => runOpsInProcess(portal.server.dataDir, args);

const sendInProcess = (title: string, content = `<p>${title}</p>`) =>
  opsInProcess(['message:send', '--host', HOST, '--account', DEMO.phone, '--title', title, '--content', content]);

/**
 * Whether the element is on screen and nothing lies over it: points near each of its edges and its
 * middle all hit it (inset from the corners, which a rounded border leaves outside the element).
 */
function uncovered(locator: Locator) {
  return locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    if (box.top < 0 || box.left < 0 || box.bottom > window.innerHeight || box.right > window.innerWidth) return false;
    const dx = Math.min(12, box.width / 4);
    const dy = Math.min(12, box.height / 4);
    const middle = { x: (box.left + box.right) / 2, y: (box.top + box.bottom) / 2 };
    const points = [
      [middle.x, middle.y],
      [box.left + dx, middle.y],
      [box.right - dx, middle.y],
      [middle.x, box.top + dy],
      [middle.x, box.bottom - dy],
    ] as const;
    return points.every(([x, y]) => {
      const hit = document.elementFromPoint(x, y);
      return hit !== null && element.contains(hit);
    });
  });
}

describe('live messages in the signed-in layout', () => {
  it('shows the bell count and a floating notice within a second of ops message:send', async () => {
    const { page } = await signedInPage('/wallet');
    expect(await notices(page).count()).toBe(0);

    const sent = await runOpsCli(portal.server.dataDir, [
      'message:send',
      '--host',
      HOST,
      '--account',
      DEMO.phone,
      '--title',
      '充值到账通知',
      '--content',
      '<p>您的钱包已到账 <b>100.00 USD</b>。</p>',
    ]);
    const exitedAt = Date.now();
    expect(sent.code, sent.stderr).toBe(0);

    await notices(page).first().waitFor({ state: 'visible', timeout: 1_000 });
    await expect.poll(() => bellLabel(page), { timeout: Math.max(1, 1_000 - (Date.now() - exitedAt)) }).toBe('消息中心，1 条未读');
    expect(Date.now() - exitedAt).toBeLessThan(1_000);
    expect(await noticeTitles(page)).toEqual(['充值到账通知']);
    expect(await notices(page).first().innerText()).toContain('您的钱包已到账 100.00 USD');
  });

  it('cuts a 20-character title to 15 characters and an ellipsis', async () => {
    const { page } = await signedInPage('/wallet');
    const title = '您申请的虚拟卡已经开通成功请及时查看卡片';
    expect(Array.from(title)).toHaveLength(20);
    await sendInProcess(title);
    const notice = notices(page).first();
    await notice.waitFor({ state: 'visible', timeout: 5_000 });
    const shown = await notice.getByTestId('notice-title').textContent();
    expect(shown).toBe('您申请的虚拟卡已经开通成功请及…');
    expect(Array.from(shown ?? '')).toHaveLength(16);
  });

  it('keeps five notices when a sixth message arrives, newest on top, 80 px apart', async () => {
    const { page } = await signedInPage('/wallet');
    // a window tall enough for the whole stack below the wallet's controls
    await page.setViewportSize(ROOMY);
    for (let n = 1; n <= 6; n++) await sendInProcess(`第${n}条消息`);
    await expect.poll(() => bellLabel(page), settle).toBe('消息中心，6 条未读');
    await expect.poll(() => notices(page).count(), settle).toBe(5);
    expect(await noticeTitles(page)).toEqual(['第6条消息', '第5条消息', '第4条消息', '第3条消息', '第2条消息']);
    // once they have slid into place
    const gaps = () =>
      notices(page).evaluateAll((elements) => {
        const tops = elements.map((element) => element.getBoundingClientRect().top);
        return tops.slice(1).map((top, index) => Math.round(top - (tops[index] as number)));
      });
    await expect.poll(gaps, settle).toEqual([80, 80, 80, 80]);

    // each has a close button that removes it alone
    await notices(page).nth(1).getByRole('button', { name: '关闭通知' }).click();
    await expect.poll(() => notices(page).count()).toBe(4);
    expect(await noticeTitles(page)).toEqual(['第6条消息', '第4条消息', '第3条消息', '第2条消息']);
    // closing is not reading
    expect(await bellLabel(page)).toBe('消息中心，6 条未读');
  });

  it('never covers the frozen banner or 刷新 with five notices up, at 1440 and at 375 px', async () => {
    const { page } = await signedInPage('/wallet');
    await page.setViewportSize({ width: 1440, height: 900 });
    const shots = path.join(repoRoot, 'test-results');
    await mkdir(shots, { recursive: true });
    await opsInProcess(['wallet:freeze', '--host', HOST, '--account', DEMO.phone, '--reason', '通知遮挡检查']);
    try {
      for (let n = 1; n <= 4; n++) await sendInProcess(`遮挡检查 ${n}`);
      const banner = page.getByTestId('wallet-frozen');
      const refresh = page.getByRole('button', { name: '刷新', exact: true });
      await banner.waitFor(settle);
      await expect.poll(() => bellLabel(page), settle).toBe('消息中心，5 条未读');

      // wide: as many notices as fit clear of the banner, the filters, 导出 and the rows' 详情; the rest
      // fold into +N, not drawn until it is opened
      await page.getByTestId('notices-summary').waitFor(settle);
      // the stack is placed again as its notices arrive: read it once drawn and folded make the five
      await expect.poll(() => drawnAndFolded(page), settle).toBe(5);
      const drawn = await notices(page).count();
      expect(await page.getByTestId('notices-summary').innerText()).toContain(drawn > 0 ? `+${5 - drawn}` : '5 条新消息');
      await page.screenshot({ path: path.join(shots, 'notices-1440.png') });
      for (const control of [banner, refresh, page.getByTestId('wallet-export'), page.getByTestId('unread-bell')]) {
        await expect.poll(() => uncovered(control), settle).toBe(true);
      }
      const balancesRead = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/v1/balance/account-balance');
      await refresh.click();
      await balancesRead;
      // opened on request, the five are there to read, newest first
      await page.getByTestId('notices-summary').click();
      await expect.poll(() => noticeTitles(page), settle).toEqual(['遮挡检查 4', '遮挡检查 3', '遮挡检查 2', '遮挡检查 1', '钱包已冻结']);
      await page.getByTestId('notices-summary').click();
      await expect.poll(() => notices(page).count(), settle).toBe(drawn);

      // narrow: what fits clear of the controls, and the line of the rest, which opens on a tap
      await page.setViewportSize({ width: 375, height: 812 });
      await expect.poll(() => drawnAndFolded(page), settle).toBe(5);
      await page.screenshot({ path: path.join(shots, 'notices-375.png') });
      await expect.poll(() => uncovered(banner), settle).toBe(true);
      await expect.poll(() => uncovered(refresh), settle).toBe(true);
      const readAgain = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/v1/balance/account-balance');
      await refresh.click();
      await readAgain;
      await expect.poll(() => drawnAndFolded(page), settle).toBe(5);
      if ((await notices(page).count()) < 5) await page.getByTestId('notices-summary').click();
      await expect.poll(() => notices(page).count(), settle).toBe(5);
    } finally {
      await opsInProcess(['wallet:unfreeze', '--host', HOST, '--account', DEMO.phone]);
    }
  });

  it('opens the message center with the message read when a notice is clicked', async () => {
    const { page, token } = await signedInPage('/wallet');
    await sendInProcess('点击打开的消息', '<p>正文：<b>请查看</b></p>');
    await sendInProcess('另一条未读消息');
    await expect.poll(() => notices(page).count(), settle).toBe(2);

    await notices(page).filter({ hasText: '点击打开的消息' }).locator('button').first().click();
    await expect.poll(() => new URL(page.url()).pathname, settle).toBe('/information-center');
    // the message opens, and no notice is shown on the message page
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.innerText(), settle).toContain('正文：请查看');
    expect(await notices(page).count()).toBe(0);
    await expect.poll(() => bellLabel(page), settle).toBe('消息中心，1 条未读');

    const row = page.getByTestId('message-row').filter({ hasText: '点击打开的消息' });
    await expect.poll(() => row.getAttribute('data-read'), settle).toBe('true');
    const other = page.getByTestId('message-row').filter({ hasText: '另一条未读消息' });
    expect(await other.getAttribute('data-read')).toBe('false');

    const list = await apiCall<{ items: { title: string; is_read: boolean }[] }>(
      portal.server.port,
      HOST,
      'GET',
      '/api/v1/msg-center/station-msg/list?kind=message&page_size=5',
      { token },
    );
    expect(list.body.data.items.find((item) => item.title === '点击打开的消息')?.is_read).toBe(true);
  });

  it('shows 99+ on the bell above 99 unread', { timeout: 180_000 }, async () => {
    const { page } = await signedInPage('/wallet');
    await page.setViewportSize(ROOMY);
    for (let n = 1; n <= 100; n++) await sendInProcess(`批量消息 ${n}`);
    await expect.poll(() => bellLabel(page), { timeout: 20_000 }).toBe('消息中心，99+ 条未读');
    expect(await badgeText(page)).toBe('99+');
    expect(await notices(page).count()).toBe(5);
  });

  it('shows no notice on the message page, where the list itself updates', async () => {
    const { page } = await signedInPage('/information-center');
    await sendInProcess('在消息页收到的消息');
    const row = page.getByTestId('message-row').filter({ hasText: '在消息页收到的消息' });
    await row.waitFor({ state: 'visible', timeout: 5_000 });
    expect(await row.getAttribute('data-read')).toBe('false');
    await expect.poll(() => bellLabel(page), settle).toBe('消息中心，1 条未读');
    expect(await notices(page).count()).toBe(0);
  });
});

describe('/information-center', () => {
  it('filters unread messages, pages through them and marks them all read', async () => {
    const { page } = await signedInPage('/information-center');
    for (let n = 1; n <= 12; n++) await sendInProcess(`分页消息 ${String(n).padStart(2, '0')}`);
    await expect.poll(() => bellLabel(page), settle).toBe('消息中心，12 条未读');

    await page.getByText('未读', { exact: true }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('read'), settle).toBe('unread');
    const rows = page.getByTestId('message-row');
    await expect.poll(() => rows.count(), settle).toBe(10);
    expect(await rows.first().innerText()).toContain('分页消息 12');
    await expect.poll(() => page.locator('.ant-pagination').innerText(), settle).toContain('共 12 条');

    await page.locator('.ant-pagination').getByTitle('2', { exact: true }).click();
    await expect.poll(() => rows.allInnerTexts(), settle).toEqual([expect.stringContaining('分页消息 02'), expect.stringContaining('分页消息 01')]);
    expect(new URL(page.url()).searchParams.get('page')).toBe('2');

    // with nothing unread left, the filter shows its empty state on the first page
    await page.getByRole('button', { name: '全部已读' }).click();
    await expect.poll(() => bellLabel(page), settle).toBe('消息中心');
    await expect.poll(() => page.getByText('没有未读消息').isVisible(), settle).toBe(true);
    expect(new URL(page.url()).searchParams.get('page')).toBeNull();

    await page.getByText('全部', { exact: true }).click();
    await expect.poll(() => rows.count(), settle).toBe(10);
    // the list may show its cached page first; wait for the refetch after read-all
    await expect
      .poll(() => rows.evaluateAll((elements) => elements.map((element) => element.getAttribute('data-read'))), settle)
      .toEqual(Array(10).fill('true'));
  });

  it('shows a message sanitised: no script, no handler runs', async () => {
    const { page } = await signedInPage('/information-center');
    await sendInProcess(
      '带链接的消息',
      '<p>详情见<a href="https://example.com/help">帮助中心</a></p><img src="/nope.png" onerror="window.__hacked = 1"><script>window.__hacked = 2</script>',
    );
    // this test is about how a message is shown, not how it arrives (the tests above cover that): read the list afresh
    await page.reload();
    const row = page.getByTestId('message-row').filter({ hasText: '带链接的消息' });
    await row.click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.innerText(), settle).toContain('详情见帮助中心');
    const body = dialog.locator('.ant-modal-body');
    expect(await body.locator('script').count()).toBe(0);
    expect(await body.locator('[onerror]').count()).toBe(0);
    expect(await body.getByRole('link', { name: '帮助中心' }).getAttribute('target')).toBe('_blank');
    expect(await page.evaluate(() => (window as { __hacked?: number }).__hacked)).toBeUndefined();
    // the list's one-line preview is the text alone
    expect(await row.innerText()).not.toContain('__hacked');
  });

  it('lists announcements on their own tab and shows one on its page, by state or by ?id=', async () => {
    const { page, token } = await signedInPage('/information-center');
    const published = await runOpsCli(portal.server.dataDir, [
      'announcement:publish',
      '--host',
      HOST,
      '--title',
      '春节假期服务安排',
      '--content',
      '<h3>服务安排</h3><p>2月9日至2月17日人工客服暂停。</p>',
    ]);
    expect(published.code, published.stderr).toBe(0);
    await expect.poll(() => bellLabel(page), settle).toBe('消息中心，1 条未读');

    await page.getByRole('tab', { name: /公告/ }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('tab'), settle).toBe('announcement');
    const row = page.getByTestId('message-row').filter({ hasText: '春节假期服务安排' });
    expect(await row.getAttribute('data-read')).toBe('false');
    await row.click();

    await expect.poll(() => new URL(page.url()).pathname, settle).toBe('/information-announcement-details');
    await expect.poll(() => page.locator('h1').innerText(), settle).toBe('春节假期服务安排');
    expect(await page.locator('main').innerText()).toContain('2月9日至2月17日人工客服暂停。');
    await expect.poll(() => bellLabel(page), settle).toBe('消息中心');

    const list = await apiCall<{ items: { id: string; title: string }[] }>(
      portal.server.port,
      HOST,
      'GET',
      '/api/v1/msg-center/station-msg/list?kind=announcement',
      { token },
    );
    const id = list.body.data.items.find((item) => item.title === '春节假期服务安排')?.id;
    await page.goto(portal.url(HOST, `/information-announcement-details?id=${id}`));
    await expect.poll(() => page.locator('h1').innerText(), settle).toBe('春节假期服务安排');

    await page.getByRole('button', { name: '返回' }).click();
    await expect.poll(() => page.url(), settle).toBe(portal.url(HOST, '/information-center?tab=announcement'));
  });
});

describe('wallet status', () => {
  it('re-checks the wallet when a FREEZE event arrives', async () => {
    const { page } = await signedInPage('/wallet');
    await page.getByTestId('balance-USD').waitFor({ state: 'visible', timeout: 10_000 });
    expect(await page.getByTestId('wallet-frozen').count()).toBe(0);

    const frozen = await runOpsCli(portal.server.dataDir, ['wallet:freeze', '--host', HOST, '--account', DEMO.phone, '--reason', '账户安全审核中']);
    expect(frozen.code, frozen.stderr).toBe(0);
    await expect.poll(() => page.getByTestId('wallet-frozen').isVisible(), settle).toBe(true);
    expect(await page.getByTestId('wallet-frozen').innerText()).toContain('账户安全审核中');

    const unfrozen = await runOpsCli(portal.server.dataDir, ['wallet:unfreeze', '--host', HOST, '--account', DEMO.phone]);
    expect(unfrozen.code, unfrozen.stderr).toBe(0);
    await expect.poll(() => page.getByTestId('wallet-frozen').count(), settle).toBe(0);
  });
});
