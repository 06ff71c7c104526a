import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type Database, openDatabase } from '../../src/db/engine.ts';

export type TestEngine = 'pglite' | 'postgres';

/** The engine this test run uses: the `api-pglite` and `api-postgres` projects set TEST_ENGINE. */
export function testEngine(): TestEngine {
  const engine = process.env.TEST_ENGINE ?? 'pglite';
  if (engine !== 'pglite' && engine !== 'postgres') throw new Error(`TEST_ENGINE must be pglite or postgres, not ${engine}`);
  return engine;
}

/** The admin connection used to create and drop the per-file databases. */
export const adminDatabaseUrl = () => process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

export interface TestDatabaseOptions {
  /** run the migrations (default true); false gives an empty database */
  migrate?: boolean;
  /**
   * PGlite only: keep the data in a temporary folder instead of memory, so `restart()` works.
   * PostgreSQL databases always persist until `close()`.
   */
  persistent?: boolean;
}

export interface TestDatabase extends Database {
  engine: TestEngine;
  /** where the data lives: a postgres:// URL, a PGlite folder, or memory:// */
  location: string;
  /**
   * Closes this handle, keeping the data, and opens the same data again, as a restarted server
   * would. Returns the new handle (closed, with the data, by this object's `close()`).
   * PGlite needs `{persistent: true}`.
   */
  restart(): Promise<Database>;
  /** PostgreSQL only: one more independent handle (own pool) on the same database, as another process would have. */
  connectAgain(): Promise<Database>;
  /** Closes every handle and deletes the data (DROP DATABASE … WITH (FORCE), or the folder). */
  close(): Promise<void>;
}

const DATABASE_PREFIX = 'portal_test_';
/** the migrated template's name begins so (not DATABASE_PREFIX: stale test databases are dropped by age) */
const TEMPLATE_PREFIX = 'portal_template_';
/** the advisory lock held while the template is looked for or made */
const TEMPLATE_LOCK = 7_410_227;
/** databases left by a run that was killed are dropped once they are this old */
const STALE_AFTER_MS = 6 * 60 * 60 * 1000;

/**
 * A fresh database for one test file on the engine in TEST_ENGINE: in-memory PGlite, or a new
 * PostgreSQL database with a unique name. Migrated unless `{migrate: false}`. Call `close()` in
 * afterAll; it drops the data.
 */
export async function createTestDatabase(options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const engine = testEngine();
  const opened: Database[] = [];
  let cleanup: () => Promise<void>;
  let location: string;
  let openOnce: () => Promise<Database>;

  if (engine === 'postgres') {
    const name = `${DATABASE_PREFIX}${Date.now().toString(36)}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    // a migrated database is a copy of the migrated template, made once per set of migrations
    const template = options.migrate === false ? undefined : await migratedPostgresTemplate();
    await adminQuery(async (client) => {
      await dropStaleDatabases(client);
      await client.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
    });
    const url = new URL(adminDatabaseUrl());
    url.pathname = `/${name}`;
    location = url.toString();
    openOnce = () => openDatabase({ databaseUrl: location, poolSize: 10 });
    cleanup = () =>
      adminQuery(async (client) => {
        // closed pools finish hanging up in the background: let them, before forcing out whatever is left
        for (let waited = 0; waited < 3_000; waited += 50) {
          const { rows } = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name]);
          if (rows[0]?.n === 0) break;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      });
  } else if (options.persistent) {
    location = await mkdtemp(path.join(os.tmpdir(), 'portal-pglite-'));
    openOnce = () => openDatabase({ dataDir: location });
    cleanup = () => rm(location, { recursive: true, force: true });
  } else {
    location = 'memory://';
    // a migrated database starts from the migrated template, several times faster than a new one
    const loadDataDir = options.migrate === false ? undefined : await migratedPgliteTemplate();
    openOnce = () => openDatabase({ dataDir: 'memory://', ...(loadDataDir ? { loadDataDir } : {}) });
    cleanup = async () => {};
  }

  const open = async () => {
    const database = closeOnce(await openOnce());
    opened.push(database);
    return database;
  };

  const first = await open();
  if (options.migrate !== false) await first.migrate();

  return {
    ...first,
    engine,
    location,
    async restart() {
      if (location === 'memory://') throw new Error('restart() needs createTestDatabase({ persistent: true }) on PGlite');
      await first.close();
      return open();
    },
    async connectAgain() {
      if (engine !== 'postgres') throw new Error('PGlite has one connection; connectAgain() is for PostgreSQL');
      return open();
    },
    async close() {
      const results = await Promise.allSettled(opened.map((database) => database.close()));
      await cleanup();
      const failed = results.find((result) => result.status === 'rejected');
      if (failed) throw failed.reason;
    },
  };
}

const migrationsFolder = path.resolve(import.meta.dirname, '../../src/db/migrations');

/** Names the migrations: a template made from other migrations is not used. */
function migrationsFingerprint() {
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else hash.update(entry.name).update(readFileSync(full));
    }
  };
  walk(migrationsFolder);
  return hash.digest('hex').slice(0, 16);
}

/**
 * A dump of an in-memory PGlite with every migration applied, kept in the system's temp folder
 * (one per set of migrations) so every test file and worker after the first starts from it.
 */
async function migratedPgliteTemplate(): Promise<Blob> {
  const file = path.join(os.tmpdir(), `portal-pglite-template-${migrationsFingerprint()}.tar`);
  try {
    return new Blob([await readFile(file)]);
  } catch {
    // not made yet
  }
  const database = await openDatabase({ dataDir: 'memory://' });
  try {
    await database.migrate();
    if (!database.pglite) throw new Error('the embedded engine did not expose its PGlite instance');
    const dump = await database.pglite.dumpDataDir('none');
    // written aside and renamed, so a file that another worker is still writing is never read
    const partial = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
    await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
    await rename(partial, file);
    return dump;
  } finally {
    await database.close();
  }
}

/**
 * The name of a PostgreSQL database with every migration applied, made by the first test file that asks
 * (one per set of migrations, under an advisory lock so workers side by side make it once) and kept for
 * the next runs: CREATE DATABASE … TEMPLATE copies it in a fraction of the time the migrations take.
 * Nothing connects to it after it is made, as a template must not be in use while it is copied.
 */
async function migratedPostgresTemplate(): Promise<string> {
  const name = `${TEMPLATE_PREFIX}${migrationsFingerprint()}`;
  return adminQuery(async (client) => {
    await client.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK]);
    try {
      const { rows } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (rows.length > 0) return name;
      // made under another name and renamed once migrated: a run killed midway leaves no half template
      const making = `${name}_making`;
      await client.query(`DROP DATABASE IF EXISTS ${making} WITH (FORCE)`);
      await client.query(`CREATE DATABASE ${making}`);
      const url = new URL(adminDatabaseUrl());
      url.pathname = `/${making}`;
      const database = await openDatabase({ databaseUrl: url.toString(), poolSize: 2 });
      try {
        await database.migrate();
      } finally {
        await database.close();
      }
      // the closed pool hangs up in the background; a database still connected to cannot be renamed
      for (let waited = 0; waited < 5_000; waited += 50) {
        const { rows: left } = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [making]);
        if (left[0]?.n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await client.query(`ALTER DATABASE ${making} RENAME TO ${name}`);
      // templates of other migrations are left: a run on other code may be copying one at this moment
      return name;
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK]);
    }
  });
}

/** A handle whose close() may be called more than once (a test closes it, the file's cleanup again). */
function closeOnce(database: Database): Database {
  let closing: Promise<void> | undefined;
  return {
    ...database,
    close: () => {
      closing ??= database.close();
      return closing;
    },
  };
}

async function adminQuery<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminDatabaseUrl() });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `PostgreSQL is not reachable at ${adminDatabaseUrl()} (set TEST_DATABASE_URL, or start it): ${(error as Error).message}`,
    );
  }
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Drops test databases that a killed run left behind; their names carry their creation time. */
async function dropStaleDatabases(client: pg.Client) {
  const { rows } = await client.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [
    `${DATABASE_PREFIX}%`,
  ]);
  for (const { datname } of rows) {
    const created = Number.parseInt(datname.slice(DATABASE_PREFIX.length).split('_')[0] ?? '', 36);
    if (Number.isFinite(created) && Date.now() - created > STALE_AFTER_MS) {
      await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`).catch(() => {});
    }
  }
}
