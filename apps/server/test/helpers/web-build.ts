import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * A small stand-in for the web app's build (`npm run build -w @portal/web`), so tests of the pages
 * the server draws do not need the real one: `web/dist/index.html` shaped as Vite writes it,
 * `web/dist/.vite/manifest.json`, and a renderer `web/dist-ssr/server-shell.js` in plain ESM.
 *
 * The names in it, as the tests expect them:
 * - index.html links `/assets/early-start-E1.js` and `/assets/index-I1.js` (module scripts),
 *   modulepreloads `/assets/react-R1.js`, `/assets/shell-H1.js`, `/assets/main-M1.js`, and the
 *   stylesheet `/assets/main-M1.css`;
 * - boot (`/assets/boot-B1.js`) imports the shell chunk and loads the main chunk dynamically;
 * - the main chunk imports react and shell, its stylesheet is main-M1.css;
 * - `/sign-in` is drawn from the login area layout (imports react, stylesheet login-area-layout-L1.css)
 *   and the sign-in screen (imports react and form; stylesheet sign-in-S1.css; form has form-F1.css;
 *   its dialog is a dynamic import, not part of the page).
 * Of the assets, only main-M1.css and boot-B1.js are written.
 */

export const fixtureIndexHtml = `<!doctype html>
<html lang="zh-CN">
  <head>
    <script type="module" crossorigin src="/assets/early-start-E1.js"></script>

    <meta charset="UTF-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1.0, viewport-fit=cover" />
    <meta name="description" content="钱包与虚拟卡服务" />
    <link rel="icon" id="favicon" href="data:," />
    <!-- every page starts with the merchant's branding: ask for it while the scripts download -->
    <link rel="preload" href="/api/v1/merchant" as="fetch" crossorigin="anonymous" />
    <title></title>
    <style>html,body{background:#fff;margin:0}.boot-spinner{display:flex;position:fixed;inset:0}</style>
    <script type="module" crossorigin src="/assets/index-I1.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/react-R1.js">
    <link rel="modulepreload" crossorigin href="/assets/shell-H1.js">
    <link rel="modulepreload" crossorigin href="/assets/main-M1.js">
    <link rel="stylesheet" crossorigin href="/assets/main-M1.css">
  </head>
  <body>
    <div id="root"><div class="boot-spinner" role="status" aria-label="加载中"></div></div>
    <noscript>请启用浏览器的 JavaScript 后访问本站。</noscript>
  </body>
</html>
`;

export const fixtureManifest: Record<string, object> = {
  'index.html': { file: 'assets/index-I1.js', name: 'index', src: 'index.html', isEntry: true, imports: ['_main-M1.js'] },
  'src/app/early-start.ts': { file: 'assets/early-start-E1.js', name: 'early-start', src: 'src/app/early-start.ts', isEntry: true },
  'src/app/boot.ts': {
    file: 'assets/boot-B1.js',
    name: 'boot',
    src: 'src/app/boot.ts',
    isEntry: true,
    imports: ['_shell-H1.js'],
    dynamicImports: ['_main-M1.js'],
  },
  '_shell-H1.js': { file: 'assets/shell-H1.js', name: 'shell' },
  '_react-R1.js': { file: 'assets/react-R1.js', name: 'react' },
  '_main-M1.js': {
    file: 'assets/main-M1.js',
    name: 'main',
    imports: ['_react-R1.js', '_shell-H1.js'],
    dynamicImports: ['src/app/layouts/login-area-layout.tsx', 'src/features/auth/routes/sign-in.tsx'],
    css: ['assets/main-M1.css'],
  },
  '_form-F1.js': { file: 'assets/form-F1.js', name: 'form', imports: ['_react-R1.js'], css: ['assets/form-F1.css'] },
  'src/app/layouts/login-area-layout.tsx': {
    file: 'assets/login-area-layout-L1.js',
    name: 'login-area-layout',
    src: 'src/app/layouts/login-area-layout.tsx',
    isDynamicEntry: true,
    imports: ['_react-R1.js'],
    css: ['assets/login-area-layout-L1.css'],
  },
  'src/features/auth/routes/sign-in.tsx': {
    file: 'assets/sign-in-S1.js',
    name: 'sign-in',
    src: 'src/features/auth/routes/sign-in.tsx',
    isDynamicEntry: true,
    imports: ['_react-R1.js', '_form-F1.js'],
    dynamicImports: ['src/features/auth/components/login-verification-dialog.tsx'],
    css: ['assets/sign-in-S1.css'],
  },
  'src/features/auth/components/login-verification-dialog.tsx': {
    file: 'assets/login-verification-dialog-D1.js',
    name: 'login-verification-dialog',
    src: 'src/features/auth/components/login-verification-dialog.tsx',
    isDynamicEntry: true,
    imports: ['_react-R1.js', '_form-F1.js'],
  },
};

/**
 * The renderer, as `vite build --ssr` would leave it but tiny: it escapes what it writes as React
 * does, starts its markup with the preload of the page's logo as React does, and counts its calls.
 */
export const fixtureRenderer = `const escape = (text) =>
  String(text).replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' })[char]);

export const shellSources = {
  '/sign-in': ['src/app/layouts/login-area-layout.tsx', 'src/features/auth/routes/sign-in.tsx'],
};

export let renders = 0;

export function renderShell(pathname, merchant) {
  if (pathname !== '/sign-in') return null;
  renders += 1;
  return {
    html:
      '<link rel="preload" as="image" href="' + escape(merchant.dark_logo) + '" fetchPriority="high"/>' +
      '<div class="login-page"><h1 class="brand-name">' + escape(merchant.name) + '</h1>' +
      '<form class="sign-in-form"><input name="account" placeholder="请输入手机号或邮箱"/>' +
      '<input name="password" type="password"/><button type="submit">登录</button></form></div>',
    styles: '<style data-token-hash="fixture-theme">.login-page{display:flex}</style>',
  };
}
`;

export interface WebBuild {
  /** the folder holding web/dist and web/dist-ssr */
  root: string;
  /** what the server's WEB_DIST points at */
  webDist: string;
  /** the renderer's file */
  rendererFile: string;
  /** removes the folder */
  remove(): Promise<void>;
}

export interface WebBuildOptions {
  /** index.html's text (default fixtureIndexHtml) */
  indexHtml?: string;
  /** the manifest (default fixtureManifest) */
  manifest?: Record<string, object>;
  /** the renderer's source (default fixtureRenderer) */
  renderer?: string;
  /** leave out these parts of the build */
  without?: Array<'manifest' | 'renderer'>;
}

/** Writes a fixture web build into a new temporary folder. */
export async function createWebBuild(options: WebBuildOptions = {}): Promise<WebBuild> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'portal-web-build-'));
  const webDist = path.join(root, 'web', 'dist');
  const rendererFile = path.join(root, 'web', 'dist-ssr', 'server-shell.js');
  const without = new Set(options.without ?? []);
  try {
    // as apps/web/package.json does: the renderer is an ES module
    await writeFile(path.join(root, 'package.json'), '{ "type": "module" }\n');
    await mkdir(path.join(webDist, '.vite'), { recursive: true });
    await writeFile(path.join(webDist, 'index.html'), options.indexHtml ?? fixtureIndexHtml);
    await mkdir(path.join(webDist, 'assets'));
    await writeFile(path.join(webDist, 'assets', 'main-M1.css'), '.login-page{margin:0}\n');
    await writeFile(path.join(webDist, 'assets', 'boot-B1.js'), 'export {};\n');
    if (!without.has('manifest')) {
      await writeFile(path.join(webDist, '.vite', 'manifest.json'), JSON.stringify(options.manifest ?? fixtureManifest, null, 2));
    }
    if (!without.has('renderer')) {
      await mkdir(path.dirname(rendererFile), { recursive: true });
      await writeFile(rendererFile, options.renderer ?? fixtureRenderer);
    }
  } catch (error) {
    await rm(root, { recursive: true, force: true });
    throw error;
  }
  return { root, webDist, rendererFile, remove: () => rm(root, { recursive: true, force: true }) };
}
