import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Merchant } from '@portal/contract/merchant';
import { pageBranding } from '@portal/contract/theme';
import type { FastifyBaseLogger } from 'fastify';
import { escapeHtml } from '../lib/html.ts';

/**
 * Pages the server draws: the sign-in page (and any login-area screen the web app's renderer names)
 * is answered with its markup for the request's merchant, its stylesheets, the merchant's title,
 * favicon and colours, and the merchant itself as data, so it is on screen without waiting for any
 * script. The boot entry prefetches the app's scripts once the page has loaded and starts the app
 * at the visitor's first touch, key or focus (apps/web/src/lib/shell.ts).
 *
 * It needs the web app's build: dist/index.html, dist/.vite/manifest.json and the renderer
 * (dist-ssr/server-shell.js, `vite build --ssr`). Without them every page path gets index.html.
 */

/** What the web app's renderer exports (apps/web/src/app/server-shell.tsx). */
interface Renderer {
  shellSources: Record<string, readonly string[]>;
  renderShell(pathname: string, merchant: Merchant): { html: string; styles: string } | null;
}

interface ManifestChunk {
  file: string;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

export interface DrawnPages {
  /** The page paths drawn here. */
  paths: ReadonlySet<string>;
  /** The whole HTML page of `pathname` for `merchant`, or null when that path is not drawn here. */
  page(pathname: string, merchant: Merchant): string | null;
}

/** The page paths' own files of a chunk and of every chunk it imports, in load order. */
function collect(manifest: Manifest, keys: readonly string[]) {
  const scripts = new Set<string>();
  const styles = new Set<string>();
  // chunks may import each other in a circle: each is entered once
  const entered = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk) throw new Error(`the web app's manifest has no ${key}`);
    if (entered.has(key)) return;
    entered.add(key);
    for (const imported of chunk.imports ?? []) visit(imported);
    scripts.add(`/${chunk.file}`);
    for (const css of chunk.css ?? []) styles.add(`/${css}`);
  };
  for (const key of keys) visit(key);
  return { scripts, styles };
}

const BOOT_ENTRY = 'src/app/boot.ts';
const CACHE_LIMIT = 500;

export async function loadDrawnPages(webDist: string, log: FastifyBaseLogger): Promise<DrawnPages | null> {
  const indexFile = path.join(webDist, 'index.html');
  const manifestFile = path.join(webDist, '.vite', 'manifest.json');
  const rendererFile = path.join(webDist, '..', 'dist-ssr', 'server-shell.js');
  const missing = [indexFile, manifestFile, rendererFile].filter((file) => !existsSync(file));
  if (missing.length > 0) {
    log.warn({ missing }, 'the web app build has no page renderer: pages are drawn by the browser alone');
    return null;
  }
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
  const renderer = (await import(pathToFileURL(rendererFile).href)) as Renderer;
  const boot = manifest[BOOT_ENTRY];
  if (!boot) throw new Error(`the web app's manifest has no ${BOOT_ENTRY}`);

  // index.html without its own scripts, preloads and start-up spinner: those are the browser-drawn start
  const index = readFileSync(indexFile, 'utf8');
  const template = index
    .replace(/[ \t]*<script type="module"[^>]*><\/script>\s*/g, '')
    .replace(/[ \t]*<link rel="modulepreload"[^>]*>\s*/g, '')
    .replace(/[ \t]*<link rel="preload" href="\/api\/v1\/merchant"[^>]*>\s*/g, '')
    .replace(/[ \t]*<!--[\s\S]*?-->\s*/g, '');
  const linkedStyles = new Set(Array.from(template.matchAll(/<link rel="stylesheet"[^>]*href="([^"]+)"/g), (match) => match[1]));
  for (const [what, pattern] of [
    ['title', /<title><\/title>/],
    ['favicon', /<link rel="icon"[^>]*>/],
    ['root', /<div id="root">.*<\/div>/],
    ['html', /<html lang="zh-CN">/],
  ] as const) {
    if (!pattern.test(template)) throw new Error(`index.html has no ${what} where the page renderer expects it`);
  }

  const bootFiles = collect(manifest, [BOOT_ENTRY]).scripts;
  const pages = new Map<string, { scripts: string; styles: string }>();
  for (const [pathname, sources] of Object.entries(renderer.shellSources)) {
    // the app's main entry (which boot starts) and the page's own screens
    const { scripts, styles } = collect(manifest, [...(boot.dynamicImports ?? []), ...sources]);
    pages.set(pathname, {
      styles: [...styles]
        .filter((href) => !linkedStyles.has(href))
        .map((href) => `<link rel="stylesheet" crossorigin href="${href}">`).join(''),
      // the boot entry prefetches the rest once the page has loaded (a prefetch during the load
      // would share the bandwidth with what the first paint needs)
      scripts: `<script type="module" crossorigin src="/${boot.file}"></script><script type="application/json" id="portal-prefetch">${JSON.stringify(
        [...scripts].filter((src) => !bootFiles.has(src)),
      )}</script>`,
    });
  }

  // a page depends only on the path, the merchant's branding and the year (the copyright line ends
  // at the current year): drawn once for them, kept
  const drawn = new Map<string, string>();
  return {
    paths: new Set(pages.keys()),
    page(pathname, merchant) {
      const links = pages.get(pathname);
      if (!links) return null;
      const key = `${pathname}\n${new Date().getFullYear()}\n${JSON.stringify(merchant)}`;
      const cached = drawn.get(key);
      if (cached) return cached;
      const shell = renderer.renderShell(pathname, merchant);
      if (!shell) return null;
      // React puts the preloads of the page's images first in its markup: they belong in the head
      const preloads = /^(?:<link [^>]*>)*/.exec(shell.html)?.[0] ?? '';
      const body = shell.html.slice(preloads.length);
      const { title, cssVariables, faviconType } = pageBranding(merchant);
      const data = JSON.stringify(merchant).replace(/</g, '\\u003c');
      const favicon = `<link rel="icon" id="favicon" href="${escapeHtml(merchant.favicon)}"${faviconType ? ` type="${faviconType}"` : ''}>`;
      const colours = Object.entries(cssVariables)
        .map(([name, value]) => `${name}:${escapeHtml(value)}`)
        .join(';');
      const html = template
        .replace(/<html lang="zh-CN">/, () => `<html lang="zh-CN" style="${colours}">`)
        .replace(/<title><\/title>/, () => `<title>${escapeHtml(title)}</title>`)
        .replace(/<link rel="icon"[^>]*>/, () => `${preloads}${favicon}`)
        .replace(/<\/head>/, () => `${links.styles}${shell.styles}${links.scripts}<script type="application/json" id="portal-merchant">${data}</script></head>`)
        .replace(/<div id="root">.*<\/div>/, () => `<div id="root" data-shell="">${body}</div>`);
      if (drawn.size >= CACHE_LIMIT) drawn.clear();
      drawn.set(key, html);
      return html;
    },
  };
}
