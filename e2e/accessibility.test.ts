/**
 * Accessibility of every screen, checked with axe-core: the public screens (the drawn sign-in page
 * and the app's, with both tabs, field errors and the second verification; sign-up, e-mail binding,
 * recovery, a spent reset link, the agreement, offline, not found, the unknown-host page) and the
 * signed-in ones (the wallet, frozen and not, with its list and detail drawer; the account menu; the
 * message center with both tabs, a message's dialog and an announcement's page; the card and
 * settings screens; not found), at 1440 × 900 and 375 × 812, on the blue merchant (localhost) and
 * the yellow one (yellow.localhost), whose brand colour is too light for white text.
 *
 * Rules: those axe-core tags wcag2a, wcag2aa, wcag21a, wcag21aa, wcag22aa and best-practice. A
 * violation of impact serious or critical fails the test, listed by rule, impact, target and screen;
 * the minor and moderate ones are not held. EXCLUDED names the single findings left out, each with
 * why. Each screen is checked once it shows what it is for (its heading, its rows, its dialog) and
 * nothing on it is moving: a text fading in is not yet the colour it will be.
 */
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { signUpByApi } from './accounts-support.ts';
import { repoRoot, useHarness } from './harness.ts';
import { apiCall, DEMO, demoSignIn, openSignedIn, runOpsInProcess } from './signed-in-session.ts';

const portal = useHarness();
const settle = { timeout: 15_000 };
const HOSTS = ['localhost', 'yellow.localhost'] as const;
const WIDTHS = [
  { width: 1440, height: 900 },
  { width: 375, height: 812 },
] as const;

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const AXE_OPTIONS = {
  runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
  resultTypes: ['violations'],
};
const HELD_IMPACTS = new Set(['serious', 'critical']);

/** Findings left out on purpose: a rule, the target it is about, and why. */
const EXCLUDED: { rule: string; target: RegExp; why: string }[] = [];

interface Finding {
  screen: string;
  rule: string;
  impact: string;
  help: string;
  target: string;
  /** what axe says of this target, e.g. the contrast it measured */
  detail: string;
}

let signIn: ReturnType<typeof demoSignIn>;
beforeAll(() => {
  signIn = demoSignIn(portal.server.port);
});

/**
 * Waits until nothing on the page is loading or moving: no section draws its loading skeleton,
 * finite animations and transitions have ended, no antd popup, drawer or dialog is still in its
 * motion (its -appear / -enter / -leave classes stay on from before its animation starts until
 * after it ends), and a badge whose count changed shows its new
 * count alone (antd keeps the old digits beside the new ones until they have scrolled, up to a second).
 */
async function still(page: Page) {
  await page.waitForFunction(
    () => {
      const animating = document.getAnimations().some((animation) => {
        if (animation.playState !== 'running') return false;
        const end = animation.effect?.getComputedTiming().endTime;
        return end !== undefined && end !== Number.POSITIVE_INFINITY;
      });
      const inMotion = Array.from(document.querySelectorAll('[class*="-appear"], [class*="-enter"], [class*="-leave"]')).some((element) =>
        Array.from(element.classList).some((name) => /^ant-.*-(appear|enter|leave)(-(prepare|start|active))?$/.test(name)),
      );
      const scrolling = Array.from(document.querySelectorAll('.ant-scroll-number-only')).some((digits) => digits.children.length !== 1);
      // a section still loading draws a skeleton, and what it holds (a button's state, a form's) changes when it arrives
      const loading = document.querySelector('.ant-skeleton-active') !== null;
      return !animating && !inMotion && !scrolling && !loading;
    },
    undefined,
    settle,
  );
}

/**
 * Runs axe-core on the page as it is and adds its serious and critical findings, one a target.
 * The source is evaluated rather than added as a script tag: the portal's Content-Security-Policy
 * (script-src 'self') refuses inline scripts, and the check must see the page as it is served.
 */
async function audit(page: Page, screen: string, findings: Finding[]) {
  await still(page);
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async (options) => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: unknown) => Promise<AxeResults> } }).axe;
    interface AxeResults {
      violations: {
        id: string;
        impact: string | null;
        help: string;
        nodes: { target: unknown[]; impact: string | null; any: { message: string }[]; all: { message: string }[]; none: { message: string }[] }[];
      }[];
    }
    const results = await axe.run(document, options);
    return results.violations.map((violation) => ({
      id: violation.id,
      help: violation.help,
      nodes: violation.nodes.map((node) => ({
        target: node.target.map(String).join(' >> '),
        impact: node.impact ?? violation.impact ?? '',
        detail: [...node.any, ...node.all, ...node.none].map((check) => check.message).join('; '),
      })),
    }));
  }, AXE_OPTIONS);
  for (const violation of violations) {
    for (const node of violation.nodes) {
      if (!HELD_IMPACTS.has(node.impact)) continue;
      if (EXCLUDED.some((entry) => entry.rule === violation.id && entry.target.test(node.target))) continue;
      findings.push({ screen, rule: violation.id, impact: node.impact, help: violation.help, target: node.target, detail: node.detail });
    }
  }
}

/** Fails with every finding, grouped by rule; also keeps them in test-results/ for counting. */
async function expectNone(findings: Finding[], name: string) {
  const dir = path.join(repoRoot, 'test-results');
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, `accessibility-${name.replace(/[^\w.-]+/g, '-')}.json`), JSON.stringify(findings, null, 2));
  if (findings.length === 0) return;
  const byRule = new Map<string, Finding[]>();
  for (const finding of findings) byRule.set(finding.rule, [...(byRule.get(finding.rule) ?? []), finding]);
  const lines = [...byRule].map(
    ([rule, list]) =>
      `${rule} (${list[0]?.impact}, ${list.length}): ${list[0]?.help}\n` +
      list.map((finding) => `    ${finding.screen}: ${finding.target}\n      ${finding.detail}`).join('\n'),
  );
  expect.fail(`${findings.length} serious or critical accessibility findings:\n${lines.join('\n')}`);
}

const heading = (page: Page, name: string) => page.getByRole('heading', { name, exact: true });
const field = (page: Page, label: string) => page.locator('input').and(page.getByLabel(label, { exact: true }));
const show = (page: Page, urlPath: string) => page.goto(new URL(urlPath, page.url()).href, { waitUntil: 'load' });
/** Opens a message or announcement; one that was unread is read on opening: waits for the bell to count it. */
async function openRow(page: Page, row: Locator) {
  const bell = page.getByTestId('unread-bell');
  const unread = (await row.getAttribute('data-read')) === 'false';
  const before = await bell.getAttribute('aria-label');
  await row.click();
  if (unread) await expect.poll(() => bell.getAttribute('aria-label'), settle).not.toBe(before);
}
const sized = (viewport: { width: number; height: number }) => `${viewport.width}px`;

/** `npm run ops -- …` in this process, through the running server's socket. */
const ops = (args: string[]) => runOpsInProcess(portal.server.dataDir, args);

async function firstAgreement(host: string) {
  const titles = await apiCall<{ id: string; title: string }[]>(portal.server.port, host, 'GET', '/api/v1/merchant/user-agreement/title');
  const first = titles.body.data[0];
  if (!first) throw new Error(`the merchant of ${host} has no agreement`);
  return first;
}

describe.each(HOSTS)('accessibility of %s', (host) => {
  it(`has no serious or critical violation on the public screens of ${host}`, { timeout: 240_000 }, async () => {
    const findings: Finding[] = [];
    const agreement = await firstAgreement(host);
    // a token that can only bind an e-mail, as a sign-up leaves it
    const bindOnly = await signUpByApi(portal, host, host === 'localhost' ? '13700000001' : '13700000002');
    const page = await portal.pageAt(host, '/sign-in');

    for (const viewport of WIDTHS) {
      await page.setViewportSize(viewport);
      const at = (screen: string) => `${screen} @ ${sized(viewport)}`;

      // the page the server draws, before any of the app's code runs
      await show(page, '/sign-in');
      await heading(page, '登录').waitFor(settle);
      await audit(page, at('/sign-in, drawn (手机号)'), findings);
      // a click on a tab starts the app, which takes the page over and answers it
      await page.getByRole('tab', { name: '邮箱' }).click();
      await page.getByRole('tab', { name: '邮箱', selected: true }).waitFor(settle);
      await field(page, '邮箱').waitFor(settle);
      await audit(page, at('/sign-in 邮箱'), findings);
      await page.getByRole('tab', { name: '手机号' }).click();
      await page.getByRole('tab', { name: '手机号', selected: true }).waitFor(settle);
      await field(page, '手机号').waitFor(settle);
      await audit(page, at('/sign-in 手机号'), findings);
      await page.getByRole('button', { name: /登\s*录/ }).click();
      await page.getByRole('alert').first().waitFor(settle);
      await audit(page, at('/sign-in, field errors'), findings);
      await field(page, '手机号').fill(DEMO.phone);
      await field(page, '密码').fill(DEMO.password);
      await page.getByRole('button', { name: /登\s*录/ }).click();
      const verification = page.getByRole('dialog', { name: '安全验证' });
      await verification.waitFor(settle);
      await audit(page, at('/sign-in, 安全验证 dialog'), findings);
      await verification.getByRole('button', { name: /取\s*消/ }).click();
      await verification.waitFor({ state: 'hidden', ...settle });

      await show(page, '/sign-up');
      await heading(page, '注册').waitFor(settle);
      await page.getByRole('link', { name: agreement.title }).waitFor(settle);
      await audit(page, at('/sign-up'), findings);

      await page.evaluate((token) => {
        localStorage.setItem('token', token);
        sessionStorage.setItem('token', token);
        localStorage.removeItem('isLogin');
      }, bindOnly);
      await show(page, '/sign-email');
      await heading(page, '绑定邮箱').waitFor(settle);
      await audit(page, at('/sign-email'), findings);
      await page.evaluate(() => {
        localStorage.removeItem('token');
        sessionStorage.removeItem('token');
      });

      await show(page, '/forget-password');
      await heading(page, '忘记密码').waitFor(settle);
      await audit(page, at('/forget-password'), findings);
      await page.getByRole('button', { name: /下一步/ }).click();
      await page.locator('.ant-form-item-explain-error').first().waitFor(settle);
      await audit(page, at('/forget-password, field error'), findings);

      await show(page, `/agreement?id=${agreement.id}`);
      await heading(page, agreement.title).waitFor(settle);
      await page.locator('article p').first().waitFor(settle);
      await audit(page, at('/agreement'), findings);

      await show(page, '/network-anomaly');
      await heading(page, '网络异常，请稍后重试').waitFor(settle);
      await audit(page, at('/network-anomaly'), findings);

      await show(page, '/no-such-page');
      await heading(page, '非常抱歉，您访问的页面不存在').waitFor(settle);
      await audit(page, at('not found'), findings);

      await show(page, '/reset-password?email=x%40y.z&code=123456&type=FORGET_PASSWORD');
      await heading(page, '重置密码').waitFor(settle);
      await page.getByRole('alert').filter({ hasText: '链接已失效或已被使用' }).waitFor(settle);
      await audit(page, at('/reset-password, link spent'), findings);
    }
    await expectNone(findings, `public-${host}`);
  });

  it(`has no serious or critical violation on the signed-in screens of ${host}`, { timeout: 300_000 }, async () => {
    const findings: Finding[] = [];
    const account = ['--host', host, '--account', DEMO.phone];
    const token = await signIn(host);
    // a frozen wallet shows its banner; freezing and unfreezing also leave two tagged messages
    await ops(['wallet:freeze', ...account, '--reason', '账户安全审核中']);
    await ops(['message:send', ...account, '--title', '开卡失败', '--content', '<p>开卡申请未通过，<a href="https://example.com/help">查看原因</a>。</p>', '--status', 'fail']);
    await ops(['message:send', ...account, '--title', '充值到账通知', '--content', '<p>您的钱包已到账 <b>100.00 USD</b>。</p>']);
    const page = await portal.pageAt(host, '/sign-in');
    await openSignedIn(page, token, '/wallet');

    const walletShown = async () => {
      await page.getByTestId('balance-USD').getByTestId('balance-available').waitFor(settle);
      await page.getByTestId('transaction-row').first().waitFor(settle);
    };
    for (const viewport of WIDTHS) {
      await page.setViewportSize(viewport);
      await show(page, '/wallet');
      await walletShown();
      await page.getByTestId('wallet-frozen').waitFor(settle);
      await audit(page, `/wallet, frozen @ ${sized(viewport)}`, findings);
    }
    await ops(['wallet:unfreeze', ...account]);

    for (const viewport of WIDTHS) {
      await page.setViewportSize(viewport);
      const at = (screen: string) => `${screen} @ ${sized(viewport)}`;

      await show(page, '/wallet');
      await walletShown();
      await audit(page, at('/wallet'), findings);
      await page.getByTestId('transaction-row').first().click();
      const detail = page.getByTestId('transaction-detail');
      await detail.waitFor(settle);
      await audit(page, at('/wallet, transaction detail'), findings);
      await page.getByRole('button', { name: '关闭', exact: true }).click();
      await detail.waitFor({ state: 'hidden', ...settle });

      await page.getByTestId('account-menu').hover();
      await page.getByRole('menuitem', { name: /退出登录/ }).waitFor(settle);
      await audit(page, at('account menu'), findings);

      await show(page, '/information-center');
      await heading(page, '消息中心').waitFor(settle);
      await page.getByTestId('message-row').filter({ hasText: '充值到账通知' }).waitFor(settle);
      await audit(page, at('/information-center 站内信'), findings);
      await openRow(page, page.getByTestId('message-row').filter({ hasText: '开卡失败' }));
      const dialog = page.getByRole('dialog');
      await dialog.getByText('开卡申请未通过').waitFor(settle);
      await audit(page, at('/information-center, a message open'), findings);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden', ...settle });
      await page.getByRole('tab', { name: /公告/ }).click();
      await page.getByRole('tab', { name: /公告/, selected: true }).waitFor(settle);
      const announcement = page.getByTestId('message-row').first();
      await announcement.waitFor(settle);
      await audit(page, at('/information-center 公告'), findings);
      await openRow(page, announcement);
      await page.locator('main h1').filter({ hasText: /欢迎/ }).waitFor(settle);
      await audit(page, at('/information-announcement-details'), findings);

      for (const [urlPath, title] of [
        ['/card', '我的卡片'],
        ['/create-card', '开卡'],
        ['/card-details', '卡片详情'],
        ['/bulk-export', '批量导出'],
        ['/settings', '设置'],
        ['/create-card/verification', '实名认证'],
        ['/create-card/secondary-verification-data', '补充资料'],
      ] as const) {
        await show(page, urlPath);
        await heading(page, title).waitFor(settle);
        await audit(page, at(urlPath), findings);
      }

      await show(page, '/no-such-page');
      await heading(page, '非常抱歉，您访问的页面不存在').waitFor(settle);
      await page.getByRole('navigation', { name: '主菜单' }).waitFor(settle);
      await audit(page, at('not found, signed in'), findings);
    }
    await expectNone(findings, `signed-in-${host}`);
  });
});

describe('accessibility of a host no merchant owns', () => {
  it('has no serious or critical violation', async () => {
    const findings: Finding[] = [];
    const page = await portal.pageAt('nobody.localhost', '/sign-in');
    for (const viewport of WIDTHS) {
      await page.setViewportSize(viewport);
      await show(page, '/sign-in');
      await heading(page, '该站点尚未开通，请确认访问地址').waitFor(settle);
      await audit(page, `unknown host @ ${sized(viewport)}`, findings);
    }
    await expectNone(findings, 'unknown-host');
  });
});
