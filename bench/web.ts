// `npm run bench:web`: the sign-in page's first-load JavaScript (gzip bytes: what runs while it
// loads, and the app it starts at the first focus), the time from that focus to the app taking the
// page over, and its Lighthouse mobile performance score, FCP, LCP and TBT in Debian's Chromium,
// against the built app served by the real server on the embedded database.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { recordScripts, type ScriptSize, totalOf } from '../e2e/first-load.ts';
import { buildWebIfStale } from '../scripts/web-build.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

async function freePort() {
  return new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

buildWebIfStale();
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portal-bench-web-'));
const port = await freePort();
const server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
  cwd: root,
  env: { ...process.env, PORT: String(port), ISSUER_SIM_PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const url = `http://localhost:${port}/sign-in`;

async function waitForServer() {
  for (let i = 0; i < 120; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('the server did not start');
}

/**
 * A cold visit of the drawn sign-in page: the scripts that run while it loads (the boot entry), and
 * the scripts of the app, which the page prefetches after its load and runs at the visitor's first
 * focus. Also how long the app takes from that focus to taking the page over, with the processor at
 * full speed and slowed down four times (Lighthouse's mobile setting).
 */
async function firstLoad() {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
  try {
    const measure = async (cpuSlowdown: number) => {
      const page = await browser.newPage({ viewport: { width: 412, height: 823 } });
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuSlowdown });
      const scripts = recordScripts(page);
      await page.goto(url, { waitUntil: 'networkidle' });
      const drawn = await page.evaluate(() => document.getElementById('root')?.hasAttribute('data-shell') ?? false);
      if (!drawn) throw new Error(`${url} was not drawn by the server`);
      await scripts.loaded();
      const takeover = await page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            const field = document.querySelector<HTMLInputElement>('#root input');
            const started = performance.now();
            const observer = new MutationObserver(() => {
              const root = document.getElementById('root');
              if (root && !root.hasAttribute('data-shell')) {
                observer.disconnect();
                resolve(performance.now() - started);
              }
            });
            observer.observe(document.body, { childList: true, subtree: true, attributes: true });
            field?.focus();
          }),
      );
      await page.waitForLoadState('networkidle');
      const { onLoad, app } = await scripts.settled();
      await page.close();
      return { onLoad, app, takeover };
    };
    const fast = await measure(1);
    const slow = await measure(4);
    return { ...fast, takeoverSlow: slow.takeover };
  } finally {
    await browser.close();
  }
}

/** The processor time counters of this machine (Linux /proc/stat), for the share stolen by its host. */
function cpuTimes() {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]?.trim().split(/\s+/).slice(1).map(Number) ?? [];
    return { total: fields.slice(0, 8).reduce((sum, value) => sum + value, 0), steal: fields[7] ?? 0 };
  } catch {
    return null;
  }
}

/**
 * The share of processor time the virtual machine's host took for others while `run` ran: Lighthouse
 * scales the tasks it sees, so a busy host lowers the score of an unchanged page.
 */
async function withSteal<T>(run: () => Promise<T>) {
  const before = cpuTimes();
  const result = await run();
  const after = cpuTimes();
  const total = before && after ? after.total - before.total : 0;
  return { result, steal: before && after && total > 0 ? Math.round(((after.steal - before.steal) / total) * 100) : null };
}

async function lighthouseRun() {
  const { result, steal } = await withSteal(lighthouseOnce);
  return result ? { ...result, steal } : null;
}

async function lighthouseOnce() {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: FLAGS });
  try {
    const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] });
    if (!result) throw new Error('Lighthouse gave no result');
    const { lhr } = result;
    if (process.env.BENCH_LHR_DIR) writeFileSync(path.join(process.env.BENCH_LHR_DIR, `lighthouse-${Date.now()}.json`), JSON.stringify(lhr));
    const metric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
    if (lhr.runtimeError || lhr.categories.performance?.score === null) {
      console.warn(`a Lighthouse run failed: ${lhr.runtimeError?.message ?? 'no performance score'}; running it again`);
      return null;
    }
    return {
      score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
      fcp: metric('first-contentful-paint'),
      lcp: metric('largest-contentful-paint'),
      tbt: metric('total-blocking-time'),
      formFactor: lhr.configSettings.formFactor,
      // Lighthouse's own measure of the machine's speed during the run (higher is faster)
      benchmarkIndex: Math.round(lhr.environment.benchmarkIndex),
    };
  } finally {
    await chrome.kill();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

try {
  await waitForServer();
  const { onLoad, app, takeover, takeoverSlow } = await firstLoad();
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  const table = (list: ScriptSize[]) =>
    console.table(Object.fromEntries([...list].sort((a, b) => b.gzip - a.gzip).map((s) => [s.path, { raw: kb(s.raw), gzip: kb(s.gzip), brotli: kb(s.brotli) }])));
  console.log(`\nScripts run while ${url} loads (the page is drawn by the server): ${onLoad.length}`);
  table(onLoad);
  console.log(`on load: ${totalOf(onLoad, 'gzip')} bytes gzip (${kb(totalOf(onLoad, 'gzip'))})`);
  console.log(`\nThe app's scripts, prefetched after the load and run at the first focus: ${app.length}`);
  table(app);
  const gzip = totalOf(onLoad, 'gzip') + totalOf(app, 'gzip');
  console.log(
    `initial JS (load + app start): ${gzip} bytes gzip (${kb(gzip)}), ${kb(totalOf(onLoad, 'brotli') + totalOf(app, 'brotli'))} brotli — goal ≤ 220 KB gzip: ${gzip / 1024 <= 220 ? 'met' : 'NOT met'}`,
  );
  console.log(`first focus → the app has taken the page over: ${Math.round(takeover)} ms (processor slowed 4×: ${Math.round(takeoverSlow)} ms)`);

  const runs: NonNullable<Awaited<ReturnType<typeof lighthouseRun>>>[] = [];
  for (let attempt = 0; runs.length < RUNS && attempt < RUNS * 2; attempt++) {
    const run = await lighthouseRun();
    if (run) runs.push(run);
  }
  if (runs.length === 0) throw new Error('every Lighthouse run failed');
  console.log(`\nLighthouse ${runs[0]?.formFactor} performance, ${runs.length} runs (median shown last)`);
  const rows = runs.map((r, i) => [`run ${i + 1}`, { score: r.score, 'FCP ms': Math.round(r.fcp), 'LCP ms': Math.round(r.lcp), 'TBT ms': Math.round(r.tbt), 'host steal %': r.steal ?? '–', 'CPU index': r.benchmarkIndex }]);
  const med = { score: median(runs.map((r) => r.score)), fcp: median(runs.map((r) => r.fcp)), lcp: median(runs.map((r) => r.lcp)), tbt: median(runs.map((r) => r.tbt)) };
  rows.push(['median', { score: med.score, 'FCP ms': Math.round(med.fcp), 'LCP ms': Math.round(med.lcp), 'TBT ms': Math.round(med.tbt), 'host steal %': median(runs.map((r) => r.steal ?? 0)), 'CPU index': median(runs.map((r) => r.benchmarkIndex)) }]);
  console.table(Object.fromEntries(rows));
  console.log(`performance ${med.score} — goal ≥ 95: ${med.score >= 95 ? 'met' : 'NOT met'}`);
} finally {
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  rmSync(dataDir, { recursive: true, force: true });
}
