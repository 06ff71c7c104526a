import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { type PgDatabase, type PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema.ts';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction, or the database itself: what a store writes through. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0] | Db;

/**
 * Reads that do not depend on each other, run side by side on the pool's connections; inside a
 * transaction, whose one connection takes one query at a time, one after another.
 */
export async function readsOn<T extends readonly unknown[]>(tx: Tx, reads: { [K in keyof T]: () => Promise<T[K]> }): Promise<T> {
  if (!(tx instanceof PgTransaction)) return (await Promise.all(reads.map((read) => read()))) as unknown as T;
  const answers: unknown[] = [];
  for (const read of reads) answers.push(await read());
  return answers as unknown as T;
}

export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  /** runs the migrations, serialised across processes */
  migrate(): Promise<void>;
  /** runs fn while holding a cluster-wide lock named by key (one process at a time) */
  withLock<T>(key: number, fn: () => Promise<T>): Promise<T>;
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  notify(channel: string, payload: string): Promise<void>;
  /**
   * PostgreSQL only: follows the changes a trigger announces on `channel`, on this process and every
   * other (see `ChangeFollower`). The embedded database has none: the operator's commands reach it
   * through a socket whose notifications this process does not hear.
   */
  follow?(channel: string, follower: ChangeFollower): Promise<() => Promise<void>>;
  close(): Promise<void>;
  /** the embedded engine itself (PGlite only), for sharing it over a socket (src/db/embedded-socket.ts) */
  pglite?: PGlite;
  /** PostgreSQL only: the connection URL, for parts that keep connections of their own (the job queue) */
  url?: string;
}

/**
 * What a follower of a channel of changes hears: `changed`, a change any process committed (its NOTIFY);
 * `noticed`, a change a statement on one of this process's connections has just made, before its
 * transaction commits (the trigger's NOTICE `channel:payload`, raised for connections that set
 * `portal.change_notices`); `lapsed`, the listening connection broke, so changes may go unheard until
 * `resumed`.
 */
export interface ChangeFollower {
  changed(payload: string): void;
  noticed(payload: string): void;
  lapsed(): void;
  resumed(): void;
}

const migrationsFolder = path.resolve(path.dirname(new URL(import.meta.url).pathname), 'migrations');
const MIGRATION_LOCK = 727_001;

export interface EngineOptions {
  databaseUrl?: string | undefined;
  /** a folder for the embedded database, or 'memory://' */
  dataDir?: string;
  /** PGlite only: start from this dump (PGlite's dumpDataDir), e.g. a migrated template in tests */
  loadDataDir?: Blob | File;
  poolSize?: number;
  /**
   * PostgreSQL: connections keep their statements prepared (true). Off for the embedded database's
   * socket, whose one session outlives each client: a statement a client prepared is still there
   * when the next client prepares it again.
   */
  preparedStatements?: boolean;
}

export async function openDatabase(options: EngineOptions): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.poolSize ?? 20, options.preparedStatements ?? true);
  return openPglite(options.dataDir ?? 'memory://', options.loadDataDir);
}

async function openPglite(dataDir: string, loadDataDir?: Blob | File): Promise<Database> {
  if (!dataDir.startsWith('memory://')) mkdirSync(dataDir, { recursive: true });
  const client = await PGlite.create(loadDataDir ? { dataDir, loadDataDir } : { dataDir });
  const db = drizzlePglite({ client, schema }) as unknown as Db;
  return {
    kind: 'pglite',
    db,
    // one connection, one process: nothing to serialise against
    migrate: () => migratePglite(db as never, { migrationsFolder }),
    withLock: (_key, fn) => fn(),
    listen: async (channel, onPayload) => client.listen(channel, onPayload),
    notify: async (channel, payload) => {
      await client.query('select pg_notify($1, $2)', [channel, payload]);
    },
    close: () => client.close(),
    pglite: client,
  };
}

/**
 * A pool that keeps a connection when a statement on it fails. pg's own pool drops the connection of
 * any failed pool.query, though the server ended only the statement: that costs a new connection, and
 * on the embedded database's socket, which serves one client at a time, the new one is turned away
 * while the dropped one is still being let go. A connection that broke is still dropped.
 */
class StatementErrorKeepingPool extends pg.Pool {
  override query(...args: unknown[]): never {
    const [config, values, callback] = args;
    if (typeof callback === 'function' || typeof values === 'function') return (super.query as (...a: unknown[]) => never)(...args);
    return (async () => {
      const client = await this.connect();
      try {
        const result = await client.query(config as pg.QueryConfig, values as unknown[] | undefined);
        client.release();
        return result;
      } catch (error) {
        // an error the server answered leaves the connection good; a broken connection is dropped
        client.release(error instanceof pg.DatabaseError ? undefined : (error as Error));
        throw error;
      }
    })() as never;
  }
}

/** Statements longer than this, or with more parameters, are parsed each time (their shapes are many). */
const PREPARED_TEXT_MAX = 16_384;
const PREPARED_PARAMS_MAX = 64;

/** Names of statement texts seen, kept so a hot statement's text is not hashed on every run. */
const statementNames = new Map<string, string>();
const STATEMENT_NAMES_MAX = 5_000;

function statementName(text: string) {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `s${createHash('sha1').update(text).digest('base64url')}`;
    // texts are few (one per statement shape); should they not be, the oldest names go
    if (statementNames.size >= STATEMENT_NAMES_MAX) statementNames.delete(statementNames.keys().next().value as string);
    statementNames.set(text, name);
  }
  return name;
}

/**
 * A connection that keeps its statements prepared: a statement with parameters gets a name made from
 * its text, so the server parses it once per connection and may keep its plan, instead of parsing and
 * planning it on every execution. The same text always gets the same name; other texts get others.
 */
function keepStatementsPrepared(client: pg.PoolClient) {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = (config: unknown, values: unknown, callback: unknown) => {
    if (
      config !== null &&
      typeof config === 'object' &&
      typeof (config as pg.QueryConfig).text === 'string' &&
      !(config as pg.QueryConfig).name &&
      Array.isArray(values) &&
      values.length > 0 &&
      values.length <= PREPARED_PARAMS_MAX &&
      (config as pg.QueryConfig).text.length <= PREPARED_TEXT_MAX
    ) {
      return query({ ...config, name: statementName((config as pg.QueryConfig).text) }, values, callback);
    }
    return query(config, values, callback);
  };
}

async function openPostgres(url: string, max: number, preparedStatements: boolean): Promise<Database> {
  // a server that does not answer is an error after a while, not a wait without end
  // jit off: the portal's statements take milliseconds, and compiling one (its first plans, before a
  // prepared statement settles on its generic plan) took 0.3–0.7 s (bench:cards, the decline-rate sort).
  // portal.change_notices on: every connection asks the triggers that announce changes to tell it too,
  // at once (ChangeFollower), from its start (a query sent on connecting would race the first one)
  const pool = new StatementErrorKeepingPool({
    connectionString: url,
    max,
    connectionTimeoutMillis: 15_000,
    options: '-c jit=off -c portal.change_notices=on',
  });
  // an idle client that loses its server must not take the process down
  pool.on('error', () => {});
  if (preparedStatements) pool.on('connect', keepStatementsPrepared);
  const followers = new Map<string, Set<ChangeFollower>>();
  pool.on('connect', (client) => {
    client.on('notice', (notice) => {
      const at = notice.message?.indexOf(':') ?? -1;
      if (at < 0) return;
      for (const follower of followers.get((notice.message as string).slice(0, at)) ?? []) follower.noticed((notice.message as string).slice(at + 1));
    });
  });
  const db = drizzleNodePg({ client: pool, schema }) as unknown as Db;
  const listeners = new Map<string, Set<(payload: string) => void>>();
  let listenClient: pg.PoolClient | null = null;
  let opening: Promise<pg.PoolClient> | null = null;

  async function listenConnection() {
    if (listenClient) return listenClient;
    if (!opening) {
      opening = (async () => {
        const client = await pool.connect();
        client.on('notification', (message) => {
          for (const handler of listeners.get(message.channel) ?? []) handler(message.payload ?? '');
        });
        client.on('error', () => {
          // a client already handed back by close() is the pool's to discard: releasing it twice throws
          if (listenClient !== client) return;
          // reconnect and re-subscribe every channel on the next tick; until then changes go unheard
          client.release(true);
          listenClient = null;
          opening = null;
          for (const set of followers.values()) for (const follower of set) follower.lapsed();
          setTimeout(() => void resubscribe(), 500).unref();
        });
        listenClient = client;
        return client;
      })().finally(() => {
        opening = null;
      });
    }
    return opening;
  }
  async function resubscribe() {
    try {
      const client = await listenConnection();
      for (const channel of listeners.keys()) await client.query(`LISTEN ${quoteIdent(channel)}`);
      for (const set of followers.values()) for (const follower of set) follower.resumed();
    } catch {
      setTimeout(() => void resubscribe(), 1000).unref();
    }
  }

  async function withLock<T>(key: number, fn: () => Promise<T>) {
    const client = await pool.connect();
    try {
      await client.query('select pg_advisory_lock($1)', [key]);
      return await fn();
    } finally {
      await client.query('select pg_advisory_unlock($1)', [key]).catch(() => {});
      client.release();
    }
  }

  async function listen(channel: string, onPayload: (payload: string) => void) {
    let set = listeners.get(channel);
    if (!set) {
      set = new Set();
      listeners.set(channel, set);
      const client = await listenConnection();
      await client.query(`LISTEN ${quoteIdent(channel)}`);
    }
    set.add(onPayload);
    return async () => {
      set.delete(onPayload);
      if (set.size === 0 && listeners.get(channel) === set) {
        listeners.delete(channel);
        await listenClient?.query(`UNLISTEN ${quoteIdent(channel)}`).catch(() => {});
      }
    };
  }

  return {
    kind: 'postgres',
    db,
    url,
    migrate: () => withLock(MIGRATION_LOCK, () => migrateNodePg(db as never, { migrationsFolder })),
    withLock,
    listen,
    follow: async (channel, follower) => {
      let set = followers.get(channel);
      if (!set) {
        set = new Set();
        followers.set(channel, set);
      }
      set.add(follower);
      const unlisten = await listen(channel, (payload) => follower.changed(payload));
      follower.resumed();
      return async () => {
        set.delete(follower);
        await unlisten();
      };
    },
    notify: async (channel, payload) => {
      await pool.query('select pg_notify($1, $2)', [channel, payload]);
    },
    close: async () => {
      listenClient?.release();
      listenClient = null;
      await pool.end();
    },
  };
}

function quoteIdent(name: string) {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`bad channel name ${name}`);
  return `"${name}"`;
}
