import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  claimEmbeddedDatabase,
  type EmbeddedClaim,
  ownerFilePath,
  tryClaimEmbeddedDatabase,
} from '../../src/db/embedded-owner.ts';
import { type SharedDatabase, shareEmbeddedDatabase } from '../../src/db/embedded-socket.ts';
import { until } from '../helpers/until.ts';

const quietLog = { warn: () => {}, error: () => {} };
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** settles → 'done', still pending after ms → 'waiting' */
async function stateOf(promise: Promise<unknown>, ms = 150) {
  return Promise.race([promise.then(() => 'done' as const), pause(ms).then(() => 'waiting' as const)]);
}

describe('the embedded database shared over a socket', () => {
  let dataDir: string;
  let client: PGlite;
  let claim: EmbeddedClaim;
  let shared: SharedDatabase;
  const sockets: pg.Client[] = [];

  async function connect() {
    const socket = new pg.Client({ connectionString: shared.url });
    socket.on('error', () => {});
    await socket.connect();
    sockets.push(socket);
    return socket;
  }
  const rows = async () => (await client.query<{ x: number }>('select x from t order by x')).rows.map((r) => r.x);

  // one PGlite for the file (it is slow to start); each test gets a fresh claim, socket and table
  beforeAll(async () => {
    client = await PGlite.create('memory://');
    await client.exec('create table t (x int)');
  }, 120_000);
  afterAll(async () => {
    await client?.close();
  });
  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'embedded-socket-'));
    claim = await claimEmbeddedDatabase(dataDir, 'server');
    shared = await shareEmbeddedDatabase(client, claim, quietLog);
  });
  afterEach(async () => {
    await Promise.all(sockets.splice(0).map((socket) => socket.end().catch(() => {})));
    await shared.stop();
    claim.release();
    await client.exec('truncate t');
    await rm(dataDir, { recursive: true, force: true });
  });

  it('listens on a Unix socket only its owner can reach, and says where in the owner file', () => {
    const owner = JSON.parse(readFileSync(ownerFilePath(dataDir), 'utf8'));
    expect(owner).toMatchObject({ pid: process.pid, role: 'server', url: shared.url });
    const folder = new URL(shared.url).searchParams.get('host') as string;
    expect(folder).toBe(path.join(dataDir, 'run'));
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    const socketFile = path.join(folder, '.s.PGSQL.5432');
    expect(statSync(socketFile).isSocket()).toBe(true);
    expect(statSync(socketFile).mode & 0o777).toBe(0o600);
  });

  it("keeps the server's queries out of a socket client's open transaction", async () => {
    const socket = await connect();
    await socket.query('begin');
    await socket.query('insert into t values (1)');
    const serverInsert = client.query('insert into t values (2)');
    expect(await stateOf(serverInsert)).toBe('waiting');
    await socket.query('rollback');
    await serverInsert;
    expect(await rows()).toEqual([2]);
  });

  it("keeps a socket client's statements out of the server's open transaction", async () => {
    const socket = await connect();
    const server: { finish?: () => void } = {};
    const serverTransaction = client
      .transaction(async (tx) => {
        await tx.query('insert into t values (3)');
        await new Promise<void>((resolve) => {
          server.finish = resolve;
        });
        throw new Error('the server changes its mind');
      })
      .catch(() => 'rolled back');
    // the server's transaction has written its row and holds the database
    await until('the server transaction to hold', async () => server.finish !== undefined);
    const socketInsert = socket.query('insert into t values (4)');
    expect(await stateOf(socketInsert)).toBe('waiting');
    server.finish?.();
    expect(await serverTransaction).toBe('rolled back');
    await socketInsert;
    expect(await rows()).toEqual([4]);
  });

  it('rolls back what a client leaves open when it goes, and the server carries on', async () => {
    const socket = await connect();
    await socket.query('begin');
    await socket.query('insert into t values (5)');
    await socket.end();
    expect(await rows()).toEqual([]);
    await client.query('insert into t values (6)');
    expect(await rows()).toEqual([6]);
  });

  it('serves the next client after one whose extended query failed', async () => {
    const socket = await connect();
    await expect(socket.query('select $1::int', ['not a number'])).rejects.toThrow(/invalid input syntax/);
    expect((await socket.query('select $1::int as v', [7])).rows).toEqual([{ v: 7 }]);
    expect((await client.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
  });

  it('answers a failed statement as an error and keeps the connection: the next statement on it runs', async () => {
    const socket = await connect();
    const unlisten = await client.listen('portal_events', () => {});
    const busy = setInterval(() => void client.query('select 1').catch(() => {}), 1);
    await socket.query('create unique index if not exists t_x_uq on t (x)');
    await socket.query('insert into t values (1)');
    await expect(socket.query('insert into t values (1)')).rejects.toThrow(/duplicate key/);
    await expect(socket.query('select 1/0')).rejects.toThrow(/division by zero/);
    await expect(socket.query('insert into t values ($1)', [1])).rejects.toThrow(/duplicate key/);
    expect((await socket.query('select count(*)::int as n from t')).rows[0]).toEqual({ n: 1 });
    clearInterval(busy);
    await unlisten();
    await socket.query('drop index t_x_uq');
  });

  it("passes a socket client's committed NOTIFY on to this process's listeners, and not a rolled-back one", async () => {
    const heard: string[] = [];
    await client.listen('merchant_changed', (payload) => heard.push(payload));
    const socket = await connect();
    await socket.query("select pg_notify('merchant_changed', 'blue')");
    await socket.query('begin');
    await socket.query("select pg_notify('merchant_changed', 'never')");
    await socket.query('rollback');
    await socket.query('begin');
    await socket.query("select pg_notify('merchant_changed', 'orange')");
    await socket.query('commit');
    // notifications arrive in commit order: once the last one is heard, any before it would have been
    await until('the last notification', async () => heard.includes('orange'));
    expect(heard).toEqual(['blue', 'orange']);
  });

  it('serves one client at a time; the next gets in when it leaves', async () => {
    const first = await connect();
    const second = new pg.Client({ connectionString: shared.url });
    second.on('error', () => {});
    await expect(second.connect()).rejects.toThrow();
    expect((await first.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    await first.end();
    const third = await connect();
    expect((await third.query('select 2 as two')).rows).toEqual([{ two: 2 }]);
  });

  it('uses a private temporary folder when DATA_DIR is too deep for a socket path', async () => {
    await shared.stop();
    const deep = path.join(dataDir, 'a-folder-name-long-enough'.repeat(4));
    const deepClaim = await claimEmbeddedDatabase(deep, 'server');
    try {
      const deepShare = await shareEmbeddedDatabase(client, deepClaim, quietLog);
      const folder = new URL(deepShare.url).searchParams.get('host') as string;
      expect(path.dirname(folder)).toBe(os.tmpdir());
      expect(statSync(folder).mode & 0o777).toBe(0o700);
      const socket = new pg.Client({ connectionString: deepShare.url });
      await socket.connect();
      expect((await socket.query('select 3 as three')).rows).toEqual([{ three: 3 }]);
      await socket.end();
      await deepShare.stop();
      expect(existsSync(folder)).toBe(false);
    } finally {
      deepClaim.release();
    }
  });

  it('says it no longer shares the database when stopped, and removes the socket', async () => {
    const folder = new URL(shared.url).searchParams.get('host') as string;
    await shared.stop();
    expect(JSON.parse(readFileSync(ownerFilePath(dataDir), 'utf8')).url).toBeUndefined();
    expect(existsSync(path.join(folder, '.s.PGSQL.5432'))).toBe(false);
  });
});

describe('claiming the embedded database folder', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'embedded-owner-'));
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('gives it to one holder; another learns who holds it, and gets it once released', () => {
    const first = tryClaimEmbeddedDatabase(dataDir, 'ops');
    if (!('claim' in first)) throw new Error('the free folder was not claimed');
    const second = tryClaimEmbeddedDatabase(dataDir, 'server');
    expect(second).toEqual({ holder: expect.objectContaining({ pid: process.pid, role: 'ops' }) });
    first.claim.release();
    expect(existsSync(ownerFilePath(dataDir))).toBe(false);
    const third = tryClaimEmbeddedDatabase(dataDir, 'server');
    expect('claim' in third).toBe(true);
    if ('claim' in third) third.claim.release();
  });

  it('reports a live process that holds it', () => {
    // the test runner's parent process is alive and is not this one
    const holder = { pid: process.ppid, role: 'server', since: new Date().toISOString(), url: 'postgres://x' };
    writeFileSync(ownerFilePath(dataDir), JSON.stringify(holder));
    expect(tryClaimEmbeddedDatabase(dataDir, 'ops')).toEqual({ holder });
  });

  it('takes over from a process that is gone', () => {
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const stale = { pid: Number(gone.stdout), role: 'server', since: '2020-01-01T00:00:00.000Z' };
    writeFileSync(ownerFilePath(dataDir), JSON.stringify(stale));
    const attempt = tryClaimEmbeddedDatabase(dataDir, 'ops');
    expect('claim' in attempt).toBe(true);
    expect(JSON.parse(readFileSync(ownerFilePath(dataDir), 'utf8'))).toMatchObject({ pid: process.pid, role: 'ops' });
    if ('claim' in attempt) attempt.claim.release();
  });

  it('waits for a holder for a while, then names it', async () => {
    const holder = { pid: process.ppid, role: 'ops', since: '2026-01-01T00:00:00.000Z' };
    writeFileSync(ownerFilePath(dataDir), JSON.stringify(holder));
    await expect(claimEmbeddedDatabase(dataDir, 'server', { waitMs: 300, pollMs: 50 })).rejects.toThrow(
      new RegExp(`in use by an operator command \\(pid ${process.ppid}`),
    );
  });
});
