import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestDatabase, testEngine } from '../helpers/database.ts';
import { productionEnv } from '../helpers/production-env.ts';

const engine = testEngine();
const repoRoot = path.resolve(import.meta.dirname, '../../../..');

/** Starts the real server with this environment, asks /healthz once, stops it, and answers what it printed. */
async function runServerOnce(env: NodeJS.ProcessEnv): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  try {
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the server did not start:\n${output}`)), 90_000);
      child.stdout.on('data', () => {
        const match = /portal ready on http:\/\/localhost:(\d+)/.exec(output);
        if (match) {
          clearTimeout(timer);
          resolve(Number(match[1]));
        }
      });
      void exited.then((code) => reject(new Error(`the server exited with ${code}:\n${output}`)));
    });
    await new Promise<void>((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port, path: '/healthz', headers: { host: 'localhost' } }, (response) => {
          response.resume();
          response.on('end', () => resolve());
        })
        .on('error', reject);
    });
  } finally {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  }
  return output;
}

describe('the server log in production', () => {
  it('is one JSON object a line, the start and each request included', { timeout: 150_000 }, async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'server-log-'));
    const fresh = engine === 'postgres' ? await createTestDatabase({ migrate: false }) : undefined;
    try {
      const output = await runServerOnce({
        ...productionEnv,
        LOG_LEVEL: 'info',
        DATA_DIR: dataDir,
        ...(fresh ? { DATABASE_URL: fresh.location } : {}),
      });
      const lines = output.trimEnd().split('\n');
      const records = lines.map((line) => {
        try {
          return JSON.parse(line) as { msg?: string; req?: { url?: string }; res?: { statusCode?: number } };
        } catch {
          throw new Error(`not a JSON line: ${line}\n${output}`);
        }
      });
      expect(records.some((record) => /^portal ready on http:\/\/localhost:\d+$/.test(record.msg ?? ''))).toBe(true);
      expect(records.some((record) => record.msg === 'incoming request' && record.req?.url === '/healthz')).toBe(true);
      expect(records.some((record) => record.msg === 'request completed' && record.res?.statusCode === 200)).toBe(true);
    } finally {
      await fresh?.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
