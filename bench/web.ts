// `npm run bench:web`: the sign-in page's first-load JavaScript (gzip bytes) and its Lighthouse
// mobile performance score, FCP, LCP and TBT in Debian's Chromium, against the built app served by
// the real server on the embedded database.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
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
  env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
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

/** Every script the page loads on a cold visit, with its gzip (level 9) and brotli sizes. */
async function firstLoadScripts() {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
  try {
    const page = await browser.newPage();
    const scripts: { path: string; raw: number; gzip: number; brotli: number }[] = [];
    const pending: Promise<void>[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() !== 'script') return;
      pending.push(
        response.body().then(
          (body) => {
            scripts.push({ path: new URL(response.url()).pathname, raw: body.length, gzip: gzipSync(body, { level: 9 }).length, brotli: brotliCompressSync(body).length });
          },
          () => {},
        ),
      );
    });
    await page.goto(url, { waitUntil: 'networkidle' });
    await Promise.all(pending);
    return scripts.sort((a, b) => b.gzip - a.gzip);
  } finally {
    await browser.close();
  }
}

async function lighthouseRun() {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: FLAGS });
  try {
    const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] });
    if (!result) throw new Error('Lighthouse gave no result');
    const { lhr } = result;
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
    };
  } finally {
    await chrome.kill();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

try {
  await waitForServer();
  const scripts = await firstLoadScripts();
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  console.log(`\nFirst load of ${url}: ${scripts.length} scripts`);
  console.table(Object.fromEntries(scripts.map((s) => [s.path, { raw: kb(s.raw), gzip: kb(s.gzip), brotli: kb(s.brotli) }])));
  const gzip = scripts.reduce((sum, s) => sum + s.gzip, 0);
  const brotli = scripts.reduce((sum, s) => sum + s.brotli, 0);
  console.log(`initial JS: ${gzip} bytes gzip (${kb(gzip)}), ${kb(brotli)} brotli — goal ≤ 220 KB gzip: ${gzip / 1024 <= 220 ? 'met' : 'NOT met'}`);

  const runs: NonNullable<Awaited<ReturnType<typeof lighthouseRun>>>[] = [];
  for (let attempt = 0; runs.length < RUNS && attempt < RUNS * 2; attempt++) {
    const run = await lighthouseRun();
    if (run) runs.push(run);
  }
  if (runs.length === 0) throw new Error('every Lighthouse run failed');
  console.log(`\nLighthouse ${runs[0]?.formFactor} performance, ${runs.length} runs (median shown last)`);
  const rows = runs.map((r, i) => [`run ${i + 1}`, { score: r.score, 'FCP ms': Math.round(r.fcp), 'LCP ms': Math.round(r.lcp), 'TBT ms': Math.round(r.tbt) }]);
  const med = { score: median(runs.map((r) => r.score)), fcp: median(runs.map((r) => r.fcp)), lcp: median(runs.map((r) => r.lcp)), tbt: median(runs.map((r) => r.tbt)) };
  rows.push(['median', { score: med.score, 'FCP ms': Math.round(med.fcp), 'LCP ms': Math.round(med.lcp), 'TBT ms': Math.round(med.tbt) }]);
  console.table(Object.fromEntries(rows));
  console.log(`performance ${med.score} — goal ≥ 95: ${med.score >= 95 ? 'met' : 'NOT met'}`);
} finally {
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  rmSync(dataDir, { recursive: true, force: true });
}
