/**
 * Signing in for the browser tests of the signed-in screens: the demo account signs in through the
 * API, its second verification answered with the code from the development outbox, and the token is
 * put where the portal keeps it (lib/storage.ts). The first sign-in on a host trusts the test's
 * "device" for 30 days, so later sign-ins need no code (codes are limited to one a minute).
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { runOps } from '../apps/server/src/ops/cli.ts';
import { repoRoot } from './harness.ts';

export const DEMO = { phone: '13800138000', password: 'Demo1234', email: 'demo@bluewhale.example' } as const;

interface Answer<T> {
  status: number;
  body: { code: number; message: string; data: T };
  setCookie: string[];
}

/** One call to the server with a Host header (the merchant), a bearer token and cookies. */
export function apiCall<T = unknown>(
  port: number,
  host: string,
  method: string,
  urlPath: string,
  options: { body?: unknown; token?: string; cookie?: string } = {},
): Promise<Answer<T>> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers: Record<string, string> = { host: `${host}:${port}`, accept: 'application/json', 'user-agent': 'portal-e2e' };
  if (payload !== undefined) headers['content-type'] = 'application/json';
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.cookie) headers.cookie = options.cookie;
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, method, path: urlPath, headers, timeout: 10_000 }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        try {
          resolve({ status: response.statusCode ?? 0, body: JSON.parse(text), setCookie: response.headers['set-cookie'] ?? [] });
        } catch {
          reject(new Error(`${method} ${urlPath} answered ${response.statusCode} with a body that is not JSON: ${text.slice(0, 200)}`));
        }
      });
    });
    request.on('timeout', () => request.destroy(new Error(`${method} ${urlPath} timed out`)));
    request.on('error', reject);
    request.end(payload);
  });
}

function dataOf<T>(answer: Answer<T>, what: string): T {
  if (answer.body.code !== 0) throw new Error(`${what} failed: ${answer.body.message} (${answer.body.code})`);
  return answer.body.data;
}

/** The newest code the development outbox holds for a phone number. */
async function outboxCode(port: number, host: string, phone: string): Promise<string> {
  const to = encodeURIComponent(`+86 ${phone}`);
  const answer = await new Promise<{ text: string }[]>((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: `/api/dev/outbox?to=${to}`, headers: { host: `${host}:${port}` } }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
      })
      .on('error', reject);
  });
  const code = answer[0]?.text.match(/\b(\d{6})\b/)?.[1];
  if (!code) throw new Error(`no code in the outbox for ${phone}: ${JSON.stringify(answer[0])}`);
  return code;
}

/** Signs the demo account in through the API; each call gives a new session. */
export function demoSignIn(port: number) {
  const deviceCookies = new Map<string, string>();
  return async function signIn(host = 'localhost'): Promise<string> {
    const cookie = deviceCookies.get(host);
    const login = dataOf(
      await apiCall<{ token: string; check: boolean }>(port, host, 'POST', '/api/v1/account/login', {
        body: { phone_info: { phone: DEMO.phone, phone_prefix: '86' }, password: DEMO.password },
        ...(cookie ? { cookie } : {}),
      }),
      'login',
    );
    if (!login.check) return login.token;
    dataOf(
      await apiCall(port, host, 'POST', '/api/v1/account/send/code-auto', {
        body: { send_type: 'SEND_TYPE_PHONE', mark_type: 'MARK_TYPE_ACCESS' },
        token: login.token,
      }),
      'send/code-auto',
    );
    const captcha = await outboxCode(port, host, DEMO.phone);
    const checked = await apiCall<{ token: string }>(port, host, 'POST', '/api/v1/account/login/code/check', {
      body: { captcha, thirty_day: true, send_type: 'SEND_TYPE_PHONE' },
      token: login.token,
    });
    const device = checked.setCookie.map((line) => line.split(';')[0]).find((pair) => pair?.startsWith('portal_device='));
    if (device) deviceCookies.set(host, device);
    return dataOf(checked, 'login/code/check').token;
  };
}

/** Puts a signed-in session into the page's storage the way the portal keeps it, then opens urlPath. */
export async function openSignedIn(page: Page, token: string, urlPath: string) {
  await page.evaluate((value) => {
    localStorage.setItem('token', value);
    sessionStorage.setItem('token', value);
    localStorage.setItem('isLogin', '1');
  }, token);
  await page.goto(new URL(urlPath, page.url()).href, { waitUntil: 'load' });
}

/**
 * The operator command line run in this process, against a running server's DATA_DIR (through its
 * socket, as the CLI connects): quicker than a process for many commands. Throws on a failure.
 */
export async function runOpsInProcess(dataDir: string, args: string[]) {
  const err: string[] = [];
  const code = await runOps(args, {
    env: { DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn' },
    out: () => {},
    err: (text) => err.push(text),
  });
  if (code !== 0) throw new Error(`${args[0]} failed (${code}): ${err.join('\n')}`);
}

/** Runs the real operator command line (`npm run ops -- …`) against a server's DATA_DIR. */
export function runOpsCli(dataDir: string, args: string[], more: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn', ...more };
    delete env.VITEST;
    delete env.TEST_ENGINE;
    const child = spawn(process.execPath, ['--import', 'tsx', path.join('apps/server/src/ops/main.ts'), ...args], {
      cwd: repoRoot,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += String(chunk);
    });
    child.stderr.on('data', (chunk) => {
      stderr += String(chunk);
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
