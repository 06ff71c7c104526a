// `npm run bench:console`: the merchant console's first-load JavaScript (gzip bytes) — a cold visit of its
// sign-in page, and a cold visit of its overview by a signed-in operator — and the portal's /sign-in first
// load beside it (what runs while it loads and the app it starts at the first focus), to show the console
// added nothing there. Against the built apps served by the real server on the embedded database.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate } from 'otplib';
import { chromium } from 'playwright-core';
import { recordScripts, type ScriptSize, totalOf } from '../e2e/first-load.ts';
import { runOpsCli } from '../e2e/signed-in-session.ts';
import { buildConsoleIfStale } from '../scripts/console-build.mjs';
import { buildWebIfStale } from '../scripts/web-build.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const CONSOLE_GOAL_KB = 350;
/** docs/figures.md: the portal's /sign-in first load before the console existed */
const PORTAL_SIGN_IN_BEFORE_KB = 218.2;

async function freePort() {
  return new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

buildWebIfStale();
buildConsoleIfStale();
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portal-bench-console-'));
const port = await freePort();
const server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
  cwd: root,
  env: { ...process.env, PORT: String(port), ISSUER_SIM_PORT: '0', CRYPTO_SIM_PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const base = `http://localhost:${port}`;

async function waitForServer() {
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('the server did not start');
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);
const list = (scripts: ScriptSize[]) => scripts.map((s) => `    ${s.path}  ${kb(s.gzip)} KB`).join('\n');

/** A signed-in operator's token: made by the command line, enrolled with the code otplib computes. */
async function operatorToken() {
  const email = `bench${Date.now().toString(36)}@ops.example`;
  const made = await runOpsCli(dataDir, ['operator:create', '--host', 'localhost', '--email', email, '--role', 'ADMIN']);
  const password = /password: (\S+)/.exec(made.stdout)?.[1];
  if (!password) throw new Error(`operator:create failed: ${made.stderr}`);
  const post = async (url: string, body: unknown, token?: string) =>
    (await (await fetch(`${base}${url}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) })).json()) as {
      data: { token: string; totp_enrolment?: { secret: string } };
    };
  const login = await post('/api/console/v1/auth/login', { email, password });
  const secret = login.data.totp_enrolment?.secret as string;
  const given = await post('/api/console/v1/auth/totp', { code: await generate({ secret }) }, login.data.token);
  return given.data.token;
}

try {
  await waitForServer();
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
  try {
    // the console's sign-in page, cold
    const signIn = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const signInScripts = recordScripts(signIn);
    await signIn.goto(`${base}/console/sign-in`, { waitUntil: 'load' });
    await signIn.getByRole('button', { name: '登录' }).waitFor();
    await signInScripts.loaded();
    const signInLoad = await signInScripts.settled();
    const signInTotal = totalOf([...signInLoad.onLoad, ...signInLoad.app]);

    // the overview, cold, for an operator whose token the tab already holds
    const token = await operatorToken();
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.addInitScript((value) => sessionStorage.setItem('console.token', value), token);
    const overview = await context.newPage();
    const overviewScripts = recordScripts(overview);
    await overview.goto(`${base}/console/`, { waitUntil: 'load' });
    await overview.getByTestId('overview').waitFor({ timeout: 30_000 });
    await overviewScripts.loaded();
    const overviewLoad = await overviewScripts.settled();
    const overviewTotal = totalOf([...overviewLoad.onLoad, ...overviewLoad.app]);

    // the portal's drawn /sign-in: what runs while it loads, and the app it starts at the first focus
    const portal = await browser.newPage({ viewport: { width: 412, height: 823 } });
    const portalScripts = recordScripts(portal);
    await portal.goto(`${base}/sign-in`, { waitUntil: 'networkidle' });
    await portalScripts.loaded();
    await portal.evaluate(() => document.querySelector<HTMLInputElement>('#root input')?.focus());
    await portal.waitForFunction(() => !document.getElementById('root')?.hasAttribute('data-shell'), undefined, { timeout: 30_000 });
    await portal.waitForLoadState('networkidle');
    const portalLoad = await portalScripts.settled();
    const portalTotal = totalOf([...portalLoad.onLoad, ...portalLoad.app]);
    const consoleOnPortal = [...portalLoad.onLoad, ...portalLoad.app].filter((s) => s.path.startsWith('/console/'));

    console.log(`console /console/sign-in first load: ${kb(signInTotal)} KB gzip of JavaScript (goal ≤ ${CONSOLE_GOAL_KB} KB)\n${list([...signInLoad.onLoad, ...signInLoad.app])}`);
    console.log(`console /console/ overview, signed in, first load: ${kb(overviewTotal)} KB gzip of JavaScript (goal ≤ ${CONSOLE_GOAL_KB} KB)\n${list([...overviewLoad.onLoad, ...overviewLoad.app])}`);
    console.log(
      `portal /sign-in first load: ${kb(totalOf(portalLoad.onLoad))} KB while it loads + ${kb(totalOf(portalLoad.app))} KB at the first focus = ${kb(portalTotal)} KB gzip (figures.md before the console: ${PORTAL_SIGN_IN_BEFORE_KB} KB); scripts of the console in it: ${consoleOnPortal.length}`,
    );
  } finally {
    await browser.close();
  }
} finally {
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  rmSync(dataDir, { recursive: true, force: true });
}
