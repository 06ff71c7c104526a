/**
 * Browser tests of the floating layers of the signed-in layout (the message notices, the batch
 * progress, the 3-D Secure codes) against the real server and its simulated issuer: with a batch that
 * ended with failures, a 3-D Secure code pending and six new messages, on the screens a customer uses
 * at 1440 and at 375 px, no layer lies over a primary control, a table row's controls or another layer;
 * at 1280 × 720 on /wallet the notices that fit are drawn and the rest fold into +N, not drawn until
 * opened; the batch bar shows the issued and the failed cards in their shares; a seen result folds to
 * its chip on the next screen; the 3-D Secure dialog keeps its labels whole beside a long nickname.
 *
 * Every test makes its own account through the API. Nothing waits for a fixed time.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { BatchStatusAnswer } from '@portal/contract/card-batches';
import type { CardItem, OpenedAvailableAnswer } from '@portal/contract/cards';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createAccountByApi, settle } from './accounts-support.ts';
import { repoRoot, useHarness } from './harness.ts';
import { openSignedIn } from './signed-in-session.ts';
import { portalCalls } from './portal-calls.ts';

const portal = useHarness({ env: { BATCH_CONCURRENCY: '2' } });
const HOST = 'localhost';
const { ops, api, postWithKey } = portalCalls(portal, HOST);
const WIDE = { width: 1440, height: 900 };
const NARROW = { width: 375, height: 812 };
const PRODUCT = '订阅支付卡';
const LONG_NICKNAME = 'QWERTYUIOPASDFGHJKLZ';
const batchSettle = { timeout: 45_000 };

interface Account {
  phone: string;
  token: string;
}

let accounts = 0;

/**
 * A new account with one card in use named LONG_NICKNAME, a batch of 10 that ended with `failures`
 * failed cards, and (when asked) one finished export of its cards.
 */
async function accountWithBatch(failures: number, options: { export?: boolean } = {}) {
  const n = ++accounts;
  const phone = `1390029${String(n).padStart(4, '0')}`;
  const token = await createAccountByApi(portal, HOST, { phone, email: `floating-e2e-${n}@example.com` });
  const account = { phone, token };
  await ops(['wallet:recharge', '--host', HOST, '--account', phone, '--amount', '800', '--currency', 'USD']);
  await api(account, 'PUT', '/api/v1/card/verification', { real_name: '李四', id_number: '11010519491231002X' });
  const available = await api<OpenedAvailableAnswer>(account, 'GET', '/api/v1/card/opened-available');
  const product = available.products.find((candidate) => candidate.name === PRODUCT);
  if (!product) throw new Error(`no product ${PRODUCT}`);
  const opened = await postWithKey<CardItem>(account, '/api/v1/card', { product_id: product.id, amount: '20.00', nickname: LONG_NICKNAME }, `floating-card-${n}`);
  await expect.poll(async () => (await api<CardItem>(account, 'GET', `/api/v1/card/${opened.id}`)).status, settle).toBe('NORMAL');
  const card = await api<CardItem>(account, 'GET', `/api/v1/card/${opened.id}`);

  for (let failed = 0; failed < failures; failed++) await ops(['issuer:fail-next', '--reason', 'BIN 额度已满，请稍后再试']);
  await postWithKey(account, '/api/v1/batch-create-card', { product_id: product.id, quantity: 10, amount: product.min_first_load, nickname_prefix: 'FL' }, `floating-batch-${n}`);
  await expect.poll(async () => (await api<BatchStatusAnswer>(account, 'GET', '/api/v1/card/batch-create-card-status')).status, batchSettle).toBe(failures > 0 ? 'FAIL' : 'SUCCESS');

  if (options.export) {
    const started = await postWithKey<{ export_id: string }>(account, '/api/v1/card/batch-export', { filters: {} }, `floating-export-${n}`);
    await expect
      .poll(async () => (await api<{ status: string }>(account, 'GET', `/api/v1/card/batch-export-status?export_id=${started.export_id}`)).status, batchSettle)
      .toBe('DONE');
  }
  return { account, card };
}

async function signedInPage(account: Account, urlPath: string, viewport: { width: number; height: number }): Promise<Page> {
  const page = await portal.pageAt(HOST, '/sign-in');
  await page.setViewportSize(viewport);
  const streamOpen = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/v1/events' && response.status() === 200, settle);
  await openSignedIn(page, account.token, urlPath);
  await streamOpen;
  return page;
}

const sendMessages = async (account: Account, count: number) => {
  for (let n = 1; n <= count; n++) await ops(['message:send', '--host', HOST, '--account', account.phone, '--title', `浮层检查 ${n}`, '--content', `<p>第 ${n} 条</p>`]);
};

/** A 3-D Secure code for the card: its dialog opens; closed, its notice stays while the code is pending. */
async function pendingThreeDs(page: Page, card: CardItem) {
  await ops(['card:simulate-transaction', '--card', card.id, '--amount', '12.34', '--merchant', 'Meta Ads', '--mcc', '7311', '--country', 'US', '--3ds']);
  const dialog = page.getByTestId('three-ds-dialog');
  await dialog.getByTestId('three-ds-code').waitFor(settle);
  return dialog;
}

const FLOATING_LAYERS = ['batch-progress', 'batch-pill', 'three-ds-notice', 'message-notice', 'notices-summary'];

/**
 * Every floating layer on the page against every control it must leave clear: the marked primary
 * controls, the controls in a table row or a list's rows, the fields of a form, and every other
 * layer. Answers each overlap found, named, as "layer × control"; none is what is wanted.
 */
function overlaps(page: Page) {
  return page.evaluate((layerIds) => {
    const visible = (element: Element) => {
      const box = element.getBoundingClientRect();
      return box.width > 0 && box.height > 0 ? box : null;
    };
    const name = (element: Element) =>
      `${element.tagName.toLowerCase()}${element.getAttribute('data-testid') ? `[${element.getAttribute('data-testid')}]` : ''} "${(element.textContent ?? '').trim().slice(0, 20)}"`;
    const layers = layerIds.flatMap((id) => Array.from(document.querySelectorAll(`[data-testid="${id}"]`)));
    const controls = Array.from(
      document.querySelectorAll(
        '[data-primary-control], tbody tr :is(input, a, button, label), main :is(button, a[href]), [data-testid="card-actions"] button, :is(input:not([type="hidden"]), textarea, label:has(input), [role="switch"]), [data-testid="export-file-name"]',
      ),
    ).filter((control) => !layers.some((layer) => layer.contains(control) || control.contains(layer)));
    const found: string[] = [];
    const hit = (a: DOMRect, b: DOMRect) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    layers.forEach((layer, index) => {
      const box = visible(layer);
      if (!box) return;
      for (const control of controls) {
        const other = visible(control);
        if (other && hit(box, other)) found.push(`${name(layer)} × ${name(control)}`);
      }
      for (const second of layers.slice(index + 1)) {
        const other = visible(second);
        if (other && !layer.contains(second) && !second.contains(layer) && hit(box, other)) found.push(`${name(layer)} × ${name(second)}`);
      }
    });
    return found;
  }, FLOATING_LAYERS);
}

/**
 * Once the layers were placed again (on the frame after a scroll or a change) and what slides into
 * place has arrived: every animation that ends has ended.
 */
const settled = (page: Page) =>
  page.evaluate(async () => {
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const ending = document.getAnimations().filter((animation) => animation.effect?.getComputedTiming().iterations !== Number.POSITIVE_INFINITY);
    await Promise.all(ending.map((animation) => animation.finished.catch(() => undefined)));
  });

/**
 * The overlaps once the layers have found their place: a placement can take a few frames (a layer
 * moves, the dock grows, the page is measured again), so an overlap counts only when it is still
 * there after they had their time to move.
 */
async function placedOverlaps(page: Page) {
  let found: string[] = [];
  const until = Date.now() + 5_000;
  do {
    await settled(page);
    found = await overlaps(page);
  } while (found.length > 0 && Date.now() < until);
  return found;
}

/** Scrolls the page through its whole height, checking the layers at each step. */
async function overlapsWhileScrolling(page: Page) {
  const found = new Set<string>();
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  const step = Math.round((page.viewportSize()?.height ?? 800) / 2);
  for (let y = 0; y <= height; y += step) {
    await page.evaluate((top) => window.scrollTo(0, top), y);
    for (const overlap of await placedOverlaps(page)) found.add(`${overlap} (at ${y})`);
  }
  await page.evaluate(() => window.scrollTo(0, 0));
  return [...found];
}

/** The unread count the bell says, once the event stream has told it. */
const unread = async (page: Page) => {
  const label = (await page.getByTestId('unread-bell').getAttribute('aria-label')) ?? '';
  return Number(/(\d+) 条未读/.exec(label)?.[1] ?? 0);
};

const shots = path.join(repoRoot, 'test-results');
/** What the window shows at the top of the page and scrolled to its end. */
const shoot = async (page: Page, name: string) => {
  await mkdir(shots, { recursive: true });
  await settled(page);
  await page.screenshot({ path: path.join(shots, `floating-${name}.png`) });
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await settled(page);
  await page.screenshot({ path: path.join(shots, `floating-${name}-end.png`) });
  await page.evaluate(() => window.scrollTo(0, 0));
};

/** Whether nothing lies over the element once it is scrolled into view. */
const uncovered = (page: Page, testId: string) =>
  page.getByTestId(testId).evaluate((element) => {
    element.scrollIntoView({ block: 'center' });
    const box = element.getBoundingClientRect();
    const hit = document.elementFromPoint((box.left + box.right) / 2, (box.top + box.bottom) / 2);
    return hit !== null && element.contains(hit);
  });

/** Goes to a screen inside the app (the layers stay mounted) and waits for what it shows first. */
async function visit(page: Page, screen: string, ready: string) {
  await page.evaluate((to) => {
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, screen);
  await page.getByTestId(ready).first().waitFor(settle);
}

describe('the floating layers', () => {
  it('cover no control, row or one another with a failed batch, a pending 3-D Secure code and six new messages, at 375 and 1440 px', async () => {
    const { account, card } = await accountWithBatch(2, { export: true });

    const page = await signedInPage(account, `/card-details?id=${card.id}`, NARROW);
    await page.getByTestId('card-actions').waitFor(settle);
    await page.getByTestId('batch-progress').waitFor(settle);
    const dialog = await pendingThreeDs(page, card);
    // the dialog keeps its labels on one line beside the long nickname: measured once it has opened (its
    // zoom scales what the window shows), by layout height, which no transform changes
    await settled(page);
    const labels = await dialog.locator('dt').evaluateAll((terms) =>
      terms.map((term) => ({ text: term.textContent, lines: Math.round((term as HTMLElement).offsetHeight / Number.parseFloat(getComputedStyle(term).lineHeight)) })),
    );
    expect(labels.every((label) => label.lines === 1), JSON.stringify(labels)).toBe(true);
    // the nickname is cut, with the last four digits still shown, inside the window
    const nickname = await dialog.getByTestId('three-ds-card').evaluate((element) => ({
      right: element.getBoundingClientRect().right,
      window: window.innerWidth,
      text: (element as HTMLElement).innerText,
      lines: Math.round((element as HTMLElement).offsetHeight / Number.parseFloat(getComputedStyle(element).lineHeight)),
    }));
    expect(nickname.right).toBeLessThanOrEqual(nickname.window);
    expect(nickname.text).toBe(`${LONG_NICKNAME} •••• ${card.last4}`);
    expect(nickname.lines).toBe(1);
    await shoot(page, '3ds-dialog-375');
    const unreadBefore = await unread(page);
    await dialog.getByRole('button', { name: '关闭' }).last().click();
    await page.getByTestId('three-ds-notice').waitFor(settle);
    await sendMessages(account, 6);
    await expect.poll(() => unread(page), settle).toBe(unreadBefore + 6);

    // card details at 375: 冻结 and 注销, the widget, the code and the notices
    expect(await page.getByTestId('card-actions').getByRole('button', { name: /冻结/ }).count()).toBe(1);
    expect(await overlapsWhileScrolling(page)).toEqual([]);
    expect(await uncovered(page, 'batch-view-failures')).toBe(true);
    await shoot(page, 'card-details-375');

    // 1440: the opening form, the card rows, the recent exports
    await page.setViewportSize(WIDE);
    for (const [screen, ready] of [
      ['/create-card', 'open-card-submit'],
      ['/card', 'card-row'],
      ['/bulk-export', 'export-row'],
    ] as const) {
      await visit(page, screen, ready);
      await page.getByTestId('three-ds-notice').waitFor(settle);
      expect(await overlapsWhileScrolling(page), screen).toEqual([]);
      await shoot(page, `${screen.slice(1)}-1440`);
    }
    // and at 375 too
    await page.setViewportSize(NARROW);
    for (const [screen, ready] of [
      ['/card', 'card-row'],
      ['/bulk-export', 'export-row'],
    ] as const) {
      await visit(page, screen, ready);
      expect(await overlapsWhileScrolling(page), screen).toEqual([]);
      await shoot(page, `${screen.slice(1)}-375`);
    }
  });

  it('draws the notices that fit at 1280 × 720 on /wallet and folds only the rest into +N', async () => {
    const { account } = await accountWithBatch(0);
    const page = await signedInPage(account, '/wallet', { width: 1280, height: 720 });
    await page.getByTestId('transaction-filters').waitFor(settle);
    await sendMessages(account, 6);
    const notices = page.getByTestId('message-notice');
    const summary = page.getByTestId('notices-summary');
    await summary.waitFor(settle);
    await page.getByText('浮层检查 6', { exact: true }).waitFor(settle);
    // the stack is placed again as its notices arrive: read it once drawn and folded make the five
    const drawnAndFolded = async () => {
      const text = (await summary.count()) > 0 ? await summary.innerText() : '';
      return (await notices.count()) + Number(/\+(\d+)/.exec(text)?.[1] ?? 0);
    };
    await expect.poll(drawnAndFolded, settle).toBe(5);
    const drawn = await notices.count();
    expect(drawn).toBeGreaterThanOrEqual(1);
    expect(drawn).toBeLessThan(5);
    // at most five are kept; the folded ones are named by +N and are not in the page
    expect(await summary.innerText()).toContain(`+${5 - drawn}`);
    expect(await page.getByText('浮层检查 1', { exact: true }).count()).toBe(0);
    for (const notice of await notices.all()) {
      const box = await notice.boundingBox();
      expect(box && box.y >= 0 && box.y + box.height <= 720).toBe(true);
    }
    const titles = await page.getByTestId('notice-title').allTextContents();
    expect(titles).toEqual(['浮层检查 6', '浮层检查 5', '浮层检查 4', '浮层检查 3', '浮层检查 2'].slice(0, drawn));
    expect(await placedOverlaps(page)).toEqual([]);
    await shoot(page, 'wallet-1280x720');

    await summary.click();
    await expect.poll(() => notices.count(), settle).toBe(5);
  });

  it('shows the issued and the failed cards in their shares of the bar, and folds a seen result to its chip on the next screen', async () => {
    const { account } = await accountWithBatch(3);
    const page = await signedInPage(account, '/card', WIDE);
    const widget = page.getByTestId('batch-progress');
    await widget.waitFor(settle);
    expect(await widget.getByTestId('batch-counts').innerText()).toMatch(/成功\s*7\s*\/\s*失败\s*3\s*\/\s*共\s*10/);
    const shares = await widget.getByTestId('batch-percent').evaluate((bar) => {
      const whole = bar.getBoundingClientRect().width;
      const part = (id: string) => (bar.querySelector(`[data-testid="${id}"]`) as HTMLElement).getBoundingClientRect();
      const success = part('batch-bar-success');
      const fail = part('batch-bar-fail');
      return {
        success: success.width / whole,
        fail: fail.width / whole,
        successColor: getComputedStyle(bar.querySelector('[data-testid="batch-bar-success"]') as Element).backgroundColor,
        failColor: getComputedStyle(bar.querySelector('[data-testid="batch-bar-fail"]') as Element).backgroundColor,
        order: success.right <= fail.left + 0.5,
      };
    });
    expect(shares.success).toBeCloseTo(0.7, 2);
    expect(shares.fail).toBeCloseTo(0.3, 2);
    expect(shares.order).toBe(true);
    expect(shares.successColor).toBe('rgb(82, 196, 26)');
    expect(shares.failColor).toBe('rgb(255, 77, 79)');
    await shoot(page, 'batch-shares-1440');

    // seen here, the result folds to its chip on the next screen, which opens it again
    await page.locator('[data-menu-key="wallet"]').click();
    const chip = page.getByTestId('batch-pill');
    await chip.waitFor(settle);
    expect(await widget.count()).toBe(0);
    await chip.click();
    await widget.waitFor(settle);
  });
});
