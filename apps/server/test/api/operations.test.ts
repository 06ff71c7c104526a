import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../../../e2e/harness.ts';
import { createTestApp } from '../helpers/app.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { productionEnv } from '../helpers/production-env.ts';

describe('GET /healthz while the database does not answer', () => {
  it('answers 503, so a load balancer sends the traffic elsewhere', { timeout: 120_000 }, async () => {
    const t = await createTestApp();
    try {
      expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
      await t.database.close();
      const response = await t.app.inject({ method: 'GET', url: '/healthz' });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({ status: 'unavailable' });
    } finally {
      await t.close().catch(() => {});
    }
  });
});

describe('the API docs', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  }, 120_000);
  afterAll(() => database?.close());

  it('are off in production unless API_DOCS=true', { timeout: 120_000 }, async () => {
    const off = await createTestApp({ database, env: productionEnv });
    try {
      expect((await off.app.inject({ method: 'GET', url: '/api/docs/' })).statusCode).toBe(404);
      expect((await off.app.inject({ method: 'GET', url: '/api/docs/json' })).statusCode).toBe(404);
    } finally {
      await off.close();
    }
    const on = await createTestApp({ database, env: { ...productionEnv, API_DOCS: 'true' } });
    try {
      expect((await on.app.inject({ method: 'GET', url: '/api/docs/json' })).statusCode).toBe(200);
    } finally {
      await on.close();
    }
  });
});

describe('a start on a database that does not answer', () => {
  it('says in one line which server and what to check, and exits 1 without a stack', { timeout: 60_000 }, async () => {
    // a port nothing listens on
    const probe = createServer().listen(0, '127.0.0.1');
    await once(probe, 'listening');
    const { port } = probe.address() as { port: number };
    probe.close();
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'unreachable-'));
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'apps/server/src/main.ts')], {
        cwd: repoRoot,
        env: { ...process.env, DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/portal`, DATA_DIR: dataDir, PORT: '0', VITEST: '', TEST_ENGINE: '' },
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const [code] = (await once(child, 'exit')) as [number | null];
      expect(code).toBe(1);
      const lines = stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`PostgreSQL at 127.0.0.1:${port} (database portal)`);
      expect(lines[0]).toContain('DATABASE_URL');
      expect(stderr).not.toMatch(/\n\s+at /);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
