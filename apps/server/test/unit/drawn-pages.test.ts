import { pathToFileURL } from 'node:url';
import type { Merchant } from '@portal/contract/merchant';
import { themeFor } from '@portal/contract/theme';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type DrawnPages, loadDrawnPages } from '../../src/web/drawn-pages.ts';
import { createWebBuild, fixtureIndexHtml, fixtureManifest, type WebBuild, type WebBuildOptions } from '../helpers/web-build.ts';

/** A logger that keeps what was warned. */
function recordingLog() {
  const warnings: unknown[][] = [];
  const log = {
    warn: (...args: unknown[]) => void warnings.push(args),
    info: () => {},
    error: () => {},
    debug: () => {},
  } as unknown as FastifyBaseLogger;
  return { log, warnings };
}

const builds: WebBuild[] = [];
async function build(options?: WebBuildOptions) {
  const made = await createWebBuild(options);
  builds.push(made);
  return made;
}
afterAll(async () => {
  await Promise.all(builds.map((made) => made.remove()));
});

const blue: Merchant = {
  id: '11111111-1111-4111-8111-111111111111',
  name: '蓝鲸卡',
  color: 'MERCHANT_COLOR_BLUE',
  website: 'bluewhale.example',
  favicon: '/brand/blue/favicon.svg',
  dark_logo: '/brand/blue/logo-dark.svg',
  light_logo: '/brand/blue/logo-light.svg',
  icp: '沪ICP备2021018801号-1',
  version: '2021',
  support_email: 'support@bluewhale.example',
};

const orange: Merchant = {
  id: '22222222-2222-4222-8222-222222222222',
  name: '橙意卡',
  color: 'MERCHANT_COLOR_ORANGE',
  website: 'orangecard.example',
  favicon: '/brand/orange/favicon.ico',
  dark_logo: '/brand/orange/logo-dark.svg',
  light_logo: '/brand/orange/logo-light.svg',
  icp: '粤ICP备2023045502号-2',
  version: '2023',
  support_email: 'support@orangecard.example',
};

/** Branding that tries to break out of every place the page puts it. */
const hostile: Merchant = {
  id: '33333333-3333-4333-8333-333333333333',
  name: '坏<b>卡</b> & "引号" </script><script>alert(1)</script>',
  color: 'MERCHANT_COLOR_RED',
  website: 'x.example/"><script>alert(2)</script>&co',
  favicon: '/f.png?a=1&b="2"><script>alert(3)</script>',
  dark_logo: '/brand/x/logo-dark.svg',
  light_logo: '/brand/x/logo-light.svg',
  icp: '<!-- 京ICP备 -->',
  version: '2022',
  support_email: 'help@x.example',
  note: '</SCRIPT><script>alert(4)</script>',
};

/** The page split at </head>. */
function parts(page: string) {
  const end = page.indexOf('</head>');
  expect(end).toBeGreaterThan(0);
  return { head: page.slice(0, end), body: page.slice(end) };
}

/** The text of `<script type="application/json" id="…">`, and its value. */
function jsonScript(page: string, id: string) {
  const found = new RegExp(`<script type="application/json" id="${id}">(.*?)</script>`).exec(page);
  expect(found, `no ${id} script`).not.toBeNull();
  const text = found?.[1] ?? '';
  return { text, value: JSON.parse(text) as unknown };
}

/** What the root holds. */
function rootOf(page: string) {
  const found = /<div id="root" data-shell="">(.*)<\/div>\s*<noscript>/.exec(page);
  expect(found, 'no drawn root').not.toBeNull();
  return found?.[1] ?? '';
}

describe('loadDrawnPages without a whole build', () => {
  it('answers null and warns when the renderer is missing', async () => {
    const made = await build({ without: ['renderer'] });
    const { log, warnings } = recordingLog();
    expect(await loadDrawnPages(made.webDist, log)).toBeNull();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.[0]).toEqual({ missing: [made.rendererFile] });
    expect(String(warnings[0]?.[1])).toMatch(/no page renderer/);
  });

  it('answers null and warns when the manifest is missing', async () => {
    const made = await build({ without: ['manifest'] });
    const { log, warnings } = recordingLog();
    expect(await loadDrawnPages(made.webDist, log)).toBeNull();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.[0]).toEqual({ missing: [`${made.webDist}/.vite/manifest.json`] });
  });

  it('warns nothing for a whole build', async () => {
    const made = await build();
    const { log, warnings } = recordingLog();
    const pages = await loadDrawnPages(made.webDist, log);
    expect(pages).not.toBeNull();
    expect([...(pages?.paths ?? [])]).toEqual(['/sign-in']);
    expect(warnings).toEqual([]);
  });
});

describe('the drawn sign-in page', () => {
  let made: WebBuild;
  let pages: DrawnPages;
  beforeAll(async () => {
    made = await build();
    const loaded = await loadDrawnPages(made.webDist, recordingLog().log);
    if (!loaded) throw new Error('the fixture build was not loaded');
    pages = loaded;
  });
  const draw = (merchant: Merchant, pathname = '/sign-in') => {
    const page = pages.page(pathname, merchant);
    if (page === null) throw new Error(`${pathname} was not drawn`);
    return page;
  };

  it('titles the page with the upper-cased website', () => {
    const page = draw(blue);
    expect(page).toContain('<title>BLUEWHALE.EXAMPLE</title>');
    expect(page).not.toContain('<title></title>');
    expect(page.match(/<title>/g)).toHaveLength(1);
  });

  it('links the favicon, typed as SVG only for an .svg file', () => {
    const bluePage = parts(draw(blue)).head;
    expect(bluePage).toContain('<link rel="icon" id="favicon" href="/brand/blue/favicon.svg" type="image/svg+xml">');
    const orangePage = parts(draw(orange)).head;
    expect(orangePage).toContain('<link rel="icon" id="favicon" href="/brand/orange/favicon.ico">');
    expect(orangePage).not.toContain('image/svg+xml');
    for (const head of [bluePage, orangePage]) {
      expect(head).not.toContain('href="data:,"');
      expect(head.match(/rel="icon"/g)).toHaveLength(1);
    }
  });

  it('sets the brand colours of the merchant on <html>', () => {
    for (const merchant of [blue, orange]) {
      const { primary, link, tint, onPrimary } = themeFor(merchant.color);
      expect(draw(merchant)).toContain(
        `<html lang="zh-CN" style="--brand-primary:${primary};--brand-link:${link};--brand-tint:${tint};--brand-on-primary:${onPrimary}">`,
      );
    }
    expect(draw(orange)).toContain('--brand-primary:#FB7812;--brand-link:#B24F00;--brand-tint:#FFF3E8;--brand-on-primary:#1F2329');
  });

  it('links the stylesheets of the main chunk and of the screens once each', () => {
    const { head, body } = parts(draw(blue));
    const stylesheets = Array.from(head.matchAll(/<link rel="stylesheet"[^>]*href="([^"]+)"/g), (match) => match[1]);
    expect(stylesheets).toEqual([
      '/assets/main-M1.css',
      '/assets/login-area-layout-L1.css',
      '/assets/form-F1.css',
      '/assets/sign-in-S1.css',
    ]);
    expect(head).toContain('<style data-token-hash="fixture-theme">.login-page{display:flex}</style>');
    expect(body).not.toContain('<link');
    expect(body).not.toContain('<style');
  });

  it('starts the boot entry and lists the scripts to prefetch, without what boot loads itself', () => {
    const page = draw(blue);
    const { head } = parts(page);
    expect(head).toContain('<script type="module" crossorigin src="/assets/boot-B1.js"></script>');
    const modules = Array.from(page.matchAll(/<script type="module"[^>]*src="([^"]+)"/g), (match) => match[1]);
    expect(modules).toEqual(['/assets/boot-B1.js']);
    expect(jsonScript(head, 'portal-prefetch').value).toEqual([
      '/assets/react-R1.js',
      '/assets/main-M1.js',
      '/assets/login-area-layout-L1.js',
      '/assets/form-F1.js',
      '/assets/sign-in-S1.js',
    ]);
  });

  it('carries the merchant as data', () => {
    for (const merchant of [blue, orange]) {
      expect(jsonScript(parts(draw(merchant)).head, 'portal-merchant').value).toEqual(merchant);
    }
  });

  it('puts the markup in the root and its leading preload in the head', () => {
    const page = draw(blue);
    const { head } = parts(page);
    const root = rootOf(page);
    expect(root).toBe(
      '<div class="login-page"><h1 class="brand-name">蓝鲸卡</h1><form class="sign-in-form">' +
        '<input name="account" placeholder="请输入手机号或邮箱"/><input name="password" type="password"/>' +
        '<button type="submit">登录</button></form></div>',
    );
    expect(head).toContain('<link rel="preload" as="image" href="/brand/blue/logo-dark.svg" fetchPriority="high"/>');
    expect(page.match(/rel="preload"/g)).toHaveLength(1);
    expect(page.match(/<div id="root"/g)).toHaveLength(1);
  });

  it("leaves out index.html's own scripts, preloads, comment and spinner", () => {
    const page = draw(blue);
    expect(page).not.toContain('early-start-E1.js');
    expect(page).not.toContain('index-I1.js');
    expect(page).not.toContain('modulepreload');
    expect(page).not.toContain('/api/v1/merchant');
    expect(page).not.toContain('<!--');
    expect(page).not.toContain('<div class="boot-spinner"');
    expect(page).not.toContain('aria-label="加载中"');
    // what index.html has besides stays
    expect(page).toContain('<meta name="description" content="钱包与虚拟卡服务" />');
    expect(page).toContain('<noscript>请启用浏览器的 JavaScript 后访问本站。</noscript>');
    expect(page.startsWith('<!doctype html>')).toBe(true);
    expect(page.trimEnd().endsWith('</html>')).toBe(true);
  });

  it('draws nothing for a path it does not know', () => {
    expect(pages.page('/wallet', blue)).toBeNull();
    expect(pages.page('/sign-in/', blue)).toBeNull();
    expect(pages.page('/', blue)).toBeNull();
    expect(pages.paths.has('/wallet')).toBe(false);
  });

  it('gives each merchant a page of its own', () => {
    const bluePage = draw(blue);
    const orangePage = draw(orange);
    expect(bluePage).not.toBe(orangePage);
    expect(orangePage).toContain('<title>ORANGECARD.EXAMPLE</title>');
    expect(orangePage).toContain('<h1 class="brand-name">橙意卡</h1>');
    for (const [page, other] of [
      [bluePage, orange],
      [orangePage, blue],
    ] as const) {
      expect(page).not.toContain(other.name);
      expect(page).not.toContain(other.website);
      expect(page).not.toContain(other.website.toUpperCase());
      expect(page).not.toContain(other.favicon);
      expect(page).not.toContain(other.dark_logo);
      expect(page).not.toContain(themeFor(other.color).primary);
    }
    // drawing another merchant in between changes nothing
    expect(draw(blue)).toBe(bluePage);
  });

  it('draws a page once per branding, and again when the branding changes', async () => {
    const renderer = (await import(pathToFileURL(made.rendererFile).href)) as { renders: number };
    const renamed: Merchant = { ...blue, name: '蓝鲸卡 Pro', id: '44444444-4444-4444-8444-444444444444' };
    const before = renderer.renders;
    const first = draw(renamed);
    expect(renderer.renders).toBe(before + 1);
    expect(draw(renamed)).toBe(first);
    expect(draw({ ...renamed })).toBe(first);
    expect(renderer.renders).toBe(before + 1);
    const recoloured = draw({ ...renamed, color: 'MERCHANT_COLOR_PURPLE' });
    expect(renderer.renders).toBe(before + 2);
    expect(recoloured).toContain(`--brand-primary:${themeFor('MERCHANT_COLOR_PURPLE').primary}`);
    expect(first).toContain(`--brand-primary:${themeFor('MERCHANT_COLOR_BLUE').primary}`);
  });

  it('draws a kept page again in a new year, whose copyright line ends at that year', async () => {
    const renderer = (await import(pathToFileURL(made.rendererFile).href)) as { renders: number };
    const merchant: Merchant = { ...blue, id: '55555555-5555-4555-8555-555555555555' };
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(new Date(2030, 11, 31, 23, 59));
      const before = renderer.renders;
      const lastYear = draw(merchant);
      expect(draw(merchant)).toBe(lastYear);
      expect(renderer.renders).toBe(before + 1);
      vi.setSystemTime(new Date(2031, 0, 1, 0, 1));
      draw(merchant);
      expect(renderer.renders).toBe(before + 2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('lets nothing of the branding out unescaped', () => {
    const page = draw(hostile);
    const { head } = parts(page);
    expect(page).not.toMatch(/<script>alert/i);
    expect(page).not.toContain('<b>');
    expect(head).toContain('<title>X.EXAMPLE/&quot;&gt;&lt;SCRIPT&gt;ALERT(2)&lt;/SCRIPT&gt;&amp;CO</title>');
    expect(head).toContain(
      '<link rel="icon" id="favicon" href="/f.png?a=1&amp;b=&quot;2&quot;&gt;&lt;script&gt;alert(3)&lt;/script&gt;">',
    );
    const data = jsonScript(head, 'portal-merchant');
    expect(data.text).not.toContain('<');
    expect(data.text).toContain('\\u003c/script>\\u003cscript>alert(1)\\u003c/script>');
    expect(data.text).toContain('\\u003c!-- 京ICP备 -->');
    expect(data.value).toEqual(hostile);
    // the JSON block ends where it should: the next thing is the end of the head
    expect(page).toMatch(/<script type="application\/json" id="portal-merchant">[^<]*<\/script><\/head>/);
    expect(page.match(/<\/script>/gi)).toHaveLength(3);
  });
});

describe('loadDrawnPages refusing a build it cannot use', () => {
  it('throws when index.html has no empty <title>', async () => {
    const made = await build({ indexHtml: fixtureIndexHtml.replace('<title></title>', '<title>门户</title>') });
    await expect(loadDrawnPages(made.webDist, recordingLog().log)).rejects.toThrow(
      'index.html has no title where the page renderer expects it',
    );
  });

  it('throws when index.html has no root', async () => {
    const made = await build({ indexHtml: fixtureIndexHtml.replace('<div id="root">', '<div id="app">') });
    await expect(loadDrawnPages(made.webDist, recordingLog().log)).rejects.toThrow(
      'index.html has no root where the page renderer expects it',
    );
  });

  it('throws when the manifest has no boot entry', async () => {
    const { 'src/app/boot.ts': _boot, ...manifest } = fixtureManifest;
    const made = await build({ manifest });
    await expect(loadDrawnPages(made.webDist, recordingLog().log)).rejects.toThrow("the web app's manifest has no src/app/boot.ts");
  });

  it('throws when the manifest lacks a source the renderer names', async () => {
    const { 'src/features/auth/routes/sign-in.tsx': _signIn, ...manifest } = fixtureManifest;
    const made = await build({ manifest });
    await expect(loadDrawnPages(made.webDist, recordingLog().log)).rejects.toThrow(
      "the web app's manifest has no src/features/auth/routes/sign-in.tsx",
    );
  });
});

describe('loadDrawnPages on chunks that import each other', () => {
  it('follows a circle of imports once', async () => {
    const manifest = structuredClone(fixtureManifest) as Record<string, { imports?: string[] }>;
    // the form chunk and the sign-in screen import each other, as a bundler may split them
    manifest['_form-F1.js']?.imports?.push('src/features/auth/routes/sign-in.tsx');
    const made = await build({ manifest });
    const pages = await loadDrawnPages(made.webDist, recordingLog().log);
    const page = pages?.page('/sign-in', blue) ?? '';
    const prefetch = jsonScript(page, 'portal-prefetch').value as string[];
    expect([...prefetch].sort()).toEqual(
      ['/assets/form-F1.js', '/assets/login-area-layout-L1.js', '/assets/main-M1.js', '/assets/react-R1.js', '/assets/sign-in-S1.js'].sort(),
    );
  });
});
