/**
 * Browser tests against the real server: `useHarness()` in a test file starts the server as a
 * child process (embedded database in a temporary DATA_DIR, or DATABASE_URL), builds the web app
 * first when it is missing or stale, launches Debian's Chromium through playwright-core, and
 * stops everything after the file. A failing test leaves a screenshot of each of its pages in
 * test-results/ and prints the browser's console errors.
 *
 *     const portal = useHarness();
 *     it('…', async () => {
 *       const page = await portal.pageAt('orange.localhost', '/sign-in');
 *     });
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, inject, type TestContext } from 'vitest';
import { consoleIsStale } from '../scripts/console-build.mjs';
import { webIsStale } from '../scripts/web-build.mjs';

export const repoRoot = path.resolve(import.meta.dirname, '..');
const resultsDir = path.join(repoRoot, 'test-results');

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

// ---------------------------------------------------------------------------------------------
// the web app

const builtIndex = path.join(repoRoot, 'apps/web/dist/index.html');

/** Builds apps/web when dist is missing or older than its sources; throws with the build output if it fails. */
export async function ensureWebBuilt() {
  if (!webIsStale()) return;
  const output: string[] = [];
  // a production build, whatever NODE_ENV the test runner set (a 'test' one draws pages with React's dev runtime)
  const child = spawn('npm', ['run', 'build', '-w', '@portal/web'], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  child.stdout.on('data', (chunk) => output.push(String(chunk)));
  child.stderr.on('data', (chunk) => output.push(String(chunk)));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`the web app did not build (exit ${code}):\n${output.join('').slice(-4000)}`);
}

/** Builds apps/console (the merchant's console, served at /console/) when it is missing or stale. */
export async function ensureConsoleBuilt() {
  if (!consoleIsStale()) return;
  const output: string[] = [];
  const child = spawn('npm', ['run', 'build', '-w', '@portal/console'], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_ENV: 'production' } });
  child.stdout.on('data', (chunk) => output.push(String(chunk)));
  child.stderr.on('data', (chunk) => output.push(String(chunk)));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`the console did not build (exit ${code}):\n${output.join('').slice(-4000)}`);
}

// ---------------------------------------------------------------------------------------------
// the server

export interface ServerOptions {
  /** PostgreSQL instead of the embedded database */
  databaseUrl?: string;
  /** more environment for the server (NODE_ENV, LOG_LEVEL, …) */
  env?: Record<string, string>;
  /** an existing DATA_DIR, e.g. a stopped server's, to start again on its data; kept after stop() */
  dataDir?: string;
}

export interface PortalServer {
  port: number;
  /** the simulated card issuer the server started (ISSUER_URL for operator commands such as issuer:fail-next) */
  issuerUrl: string;
  /** the port of the simulated crypto gateway the server started (CRYPTO_SIM_PORT for crypto:simulate-deposit) */
  cryptoSimPort: number;
  dataDir: string;
  /** `http://<host>:<port><path>` */
  url(host: string, path?: string): string;
  /** what the server printed so far (its log) */
  output(): string;
  stop(): Promise<void>;
}

/** A port the system has just handed out and released. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** GET on the local server with a chosen Host header; the parsed JSON body and the status. */
export function getJson<T = unknown>(port: number, host: string, urlPath: string): Promise<{ status: number; body: T }> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      { host: '127.0.0.1', port, path: urlPath, headers: { host: `${host}:${port}`, accept: 'application/json' }, timeout: 20_000 },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          try {
            resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) as T });
          } catch {
            reject(new Error(`GET ${urlPath} on ${host} answered ${response.statusCode} with a body that is not JSON: ${text.slice(0, 200)}`));
          }
        });
      },
    );
    request.on('timeout', () => request.destroy(new Error(`GET ${urlPath} timed out`)));
    request.on('error', reject);
  });
}

const running = new Set<ChildProcess>();
// a test run that dies must not leave servers behind
process.once('exit', () => {
  for (const child of running) killGroup(child, 'SIGKILL');
});

function killGroup(child: ChildProcess, signal: NodeJS.Signals) {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    child.kill(signal);
  }
}

/** The parts of a DATA_DIR that a started server's template gives a fresh one: its database and its keys. */
const TEMPLATE_PARTS = ['pglite', 'secrets'];

/**
 * A DATA_DIR whose embedded database is migrated and holds the demo merchants: a server started on it
 * once and stopped. The browser files' servers start on copies of it (e2e/global-setup.ts), rather
 * than each migrating and seeding its own, which is most of a fresh start's time.
 */
export async function makeServerTemplate(): Promise<string> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-e2e-template-'));
  const server = await startServer({ dataDir });
  await server.stop();
  await rm(path.join(dataDir, 'web'), { recursive: true, force: true });
  return dataDir;
}

/** The template the global set-up made, when this file runs under it. */
function serverTemplate(): string | undefined {
  try {
    return inject('serverTemplate') || undefined;
  } catch {
    return undefined;
  }
}

/** Starts `node --import tsx apps/server/src/main.ts` on a free port with a fresh DATA_DIR; resolves once /healthz answers. */
export async function startServer(options: ServerOptions = {}): Promise<PortalServer> {
  const ownsDataDir = !options.dataDir;
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'portal-e2e-')));
  const template = ownsDataDir && !options.databaseUrl ? serverTemplate() : undefined;
  if (template) {
    for (const part of TEMPLATE_PARTS) {
      if (existsSync(path.join(template, part))) await cp(path.join(template, part), path.join(dataDir, part), { recursive: true });
    }
  }
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await startOnce(dataDir, ownsDataDir, await freePort(), options.env?.ISSUER_SIM_PORT ? Number(options.env.ISSUER_SIM_PORT) : await freePort(), options);
    } catch (error) {
      lastError = error;
      // another process may have taken the port between our probe and the server's listen
      if (!String(error).includes('EADDRINUSE')) break;
    }
  }
  if (ownsDataDir) await rm(dataDir, { recursive: true, force: true });
  throw lastError;
}

async function startOnce(dataDir: string, ownsDataDir: boolean, port: number, issuerPort: number, options: ServerOptions): Promise<PortalServer> {
  // the server serves its own copy of the built app (dist, and beside it dist-ssr, the renderer of
  // the pages it draws), so a rebuild of apps/web during the run changes nothing
  const webCopy = path.join(dataDir, 'web');
  const webDist = path.join(webCopy, 'dist');
  if (existsSync(builtIndex)) {
    await rm(webCopy, { recursive: true, force: true });
    await cp(path.dirname(builtIndex), webDist, { recursive: true });
    await cp(path.join(repoRoot, 'apps/web/dist-ssr'), path.join(webCopy, 'dist-ssr'), { recursive: true });
  }
  const cryptoSimPort = options.env?.CRYPTO_SIM_PORT ? Number(options.env.CRYPTO_SIM_PORT) : await freePort();
  const env: NodeJS.ProcessEnv = {
    ...(existsSync(builtIndex) ? { WEB_DIST: webDist } : {}),
    ...process.env,
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    ...options.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    // the simulated issuer on a free port of its own, so servers of several test files start side by side
    // and the tests know where to reach it (issuer:fail-next)
    ISSUER_SIM_PORT: String(issuerPort),
    // the simulated crypto gateway too, so that servers side by side never share 4200
    CRYPTO_SIM_PORT: String(cryptoSimPort),
    DATA_DIR: dataDir,
    DATABASE_URL: options.databaseUrl ?? '',
  };
  // the test runner's own settings are not the server's
  delete env.VITEST;
  delete env.TEST_ENGINE;
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: repoRoot,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-200_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  exited.then(() => running.delete(child));

  const server: PortalServer = {
    port,
    issuerUrl: `http://127.0.0.1:${issuerPort}`,
    cryptoSimPort,
    dataDir,
    url: (host, urlPath = '/') => `http://${host}:${port}${urlPath}`,
    output: () => output,
    async stop() {
      killGroup(child, 'SIGTERM');
      const stopped = await Promise.race([exited.then(() => true), delay(10_000).then(() => false)]);
      if (!stopped) {
        killGroup(child, 'SIGKILL');
        await exited;
      }
      if (ownsDataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };

  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`the server exited (${child.exitCode ?? child.signalCode}) before it was ready:\n${output.slice(-4000)}`);
    }
    try {
      const health = await getJson<{ status: string }>(port, 'localhost', '/healthz');
      if (health.status === 200 && health.body.status === 'ok') return server;
    } catch {
      // not listening yet
    }
    await delay(200);
  }
  killGroup(child, 'SIGKILL');
  throw new Error(`the server did not answer /healthz within 90 s:\n${output.slice(-4000)}`);
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------
// the browser

export function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`Chromium is not at ${CHROMIUM_PATH}: apt-get install chromium fonts-wqy-microhei (or set CHROMIUM_PATH)`);
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}

export interface Harness {
  readonly server: PortalServer;
  readonly browser: Browser;
  /** `http://<host>:<port><path>` on the started server */
  url(host: string, path?: string): string;
  /** a new page in its own browser context (own storage), opened at http://<host>:<port><path> */
  pageAt(host: string, path: string): Promise<Page>;
  /** GET on the server with a Host header, bypassing the browser */
  getJson<T = unknown>(host: string, path: string): Promise<{ status: number; body: T }>;
}

interface OpenPage {
  page: Page;
  context: BrowserContext;
  consoleErrors: string[];
}

/** Registers the hooks of one test file: server and browser for the file, pages for each test. */
export function useHarness(options: ServerOptions = {}): Harness {
  let server: PortalServer | undefined;
  let browser: Browser | undefined;
  let pages: OpenPage[] = [];

  beforeAll(async () => {
    await ensureWebBuilt();
    [server, browser] = await Promise.all([startServer(options), launchBrowser()]);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  afterEach(async (context) => {
    const open = pages;
    pages = [];
    // the test has run: a failure leaves its pages on disk before they close
    if (context.task.result?.state === 'fail') await recordFailure(context.task, open, server);
    await Promise.all(open.map((entry) => entry.context.close().catch(() => {})));
  });

  const started = () => {
    if (!server || !browser) throw new Error('the harness is not started: call useHarness() at the top of the test file');
    return { server, browser };
  };

  return {
    get server() {
      return started().server;
    },
    get browser() {
      return started().browser;
    },
    url: (host, urlPath = '/') => started().server.url(host, urlPath),
    async pageAt(host, urlPath) {
      const context = await started().browser.newContext({ locale: 'zh-CN', viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      const open: OpenPage = { page, context, consoleErrors: [] };
      page.on('console', (message) => {
        if (message.type() === 'error') open.consoleErrors.push(message.text());
      });
      page.on('pageerror', (error) => open.consoleErrors.push(`uncaught: ${error.message}`));
      page.on('response', (response) => {
        if (response.status() >= 400) open.consoleErrors.push(`HTTP ${response.status()} ${response.request().method()} ${response.url()}`);
      });
      page.on('requestfailed', (request) =>
        open.consoleErrors.push(`request failed: ${request.method()} ${request.url()} (${request.failure()?.errorText ?? ''})`),
      );
      pages.push(open);
      await page.goto(started().server.url(host, urlPath), { waitUntil: 'load' });
      return page;
    },
    getJson: (host, urlPath) => getJson(started().server.port, host, urlPath),
  };
}

/** Screenshots of every page of a failed test in test-results/, with the page's address and the browser's errors. */
async function recordFailure(task: TestContext['task'], open: OpenPage[], server: PortalServer | undefined) {
  await mkdir(resultsDir, { recursive: true });
  const base = `${path.basename(task.file?.name ?? 'e2e', '.test.ts')}-${task.name}`.replace(/[^\p{L}\p{N}._-]+/gu, '-').slice(0, 120);
  for (const [index, entry] of open.entries()) {
    const file = path.join(resultsDir, `${base}${open.length > 1 ? `-${index + 1}` : ''}.png`);
    const shot = await entry.page.screenshot({ path: file, fullPage: true }).then(
      () => file,
      (error: Error) => `none (${error.message})`,
    );
    console.error(
      `[e2e] failed: ${task.name}\n  page: ${entry.page.url()}\n  screenshot: ${shot}` +
        (entry.consoleErrors.length ? `\n  browser errors:\n    ${entry.consoleErrors.join('\n    ')}` : ''),
    );
  }
  if (server) console.error(`[e2e] server log, last lines:\n${server.output().slice(-3000) || '(empty)'}`);
}
