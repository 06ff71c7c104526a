import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';

/** A script the page ran, with its size as sent and compressed (gzip level 9, brotli). */
export interface ScriptSize {
  path: string;
  raw: number;
  gzip: number;
  brotli: number;
}

/**
 * Records the scripts of a visit of a page the server draws, in two parts: those run while it
 * loads, and the app's (prefetched after the load, run at the first focus), each once. Call
 * `loaded()` once the load is over and before the first focus; `settled()` when the app has taken
 * the page over and the network is quiet. The figures of `npm run bench:web` and the budget in
 * e2e/drawn-page.test.ts both come from here.
 */
export function recordScripts(page: Page) {
  const onLoad = new Map<string, ScriptSize>();
  const app = new Map<string, ScriptSize>();
  const pending: Promise<void>[] = [];
  let loading = true;
  page.on('response', (response) => {
    const pathname = new URL(response.url()).pathname;
    if (!pathname.endsWith('.js')) return;
    const into = loading && response.request().resourceType() === 'script' ? onLoad : app;
    pending.push(
      response.body().then(
        (body) =>
          void into.set(pathname, { path: pathname, raw: body.length, gzip: gzipSync(body, { level: 9 }).length, brotli: brotliCompressSync(body).length }),
        // a response whose body is gone (the page closed) counts nothing
        () => {},
      ),
    );
  });
  return {
    async loaded() {
      await Promise.all(pending.splice(0));
      loading = false;
    },
    async settled() {
      await Promise.all(pending.splice(0));
      return { onLoad: [...onLoad.values()], app: [...app.values()] };
    },
  };
}

/** The sum of one size over scripts. */
export const totalOf = (scripts: ScriptSize[], key: 'gzip' | 'brotli' = 'gzip') => scripts.reduce((sum, script) => sum + script[key], 0);
