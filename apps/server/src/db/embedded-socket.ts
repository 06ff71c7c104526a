import { chmodSync, mkdirSync, mkdtempSync, rmSync, unlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import type { EmbeddedClaim } from './embedded-owner.ts';

/**
 * While the server runs on PGlite it holds the database folder alone, so it shares the database
 * with the operator command line over the PostgreSQL wire protocol (@electric-sql/pglite-socket):
 * on a Unix socket in a private (0700) folder — DATA_DIR/run, or a temporary folder when that
 * path is too long for a socket — so neither other machines nor other local users can reach it
 * (PGlite has no passwords). Windows gets a socket on 127.0.0.1 instead. The address is written
 * to DATA_DIR's owner file (src/db/embedded-owner.ts).
 *
 * Why the gate below: pglite-socket runs each wire message of a client alone under PGlite's
 * query lock, but PGlite's own query() and transaction() (what the server uses) take another,
 * the transaction lock, and between messages nothing keeps them apart. Unguarded, a server query
 * lands inside a socket client's open transaction (and is rolled back with it), a socket
 * statement lands inside a server transaction, and the server's statements replace a socket
 * client's half-sent extended query. So the gate holds PGlite's transaction lock from a socket
 * client's first message until the backend is idle again (ReadyForQuery 'I'): a socket
 * client's transaction, or single statement, runs whole, and the server's queries and
 * transactions wait around it, never inside it. One socket client is served at a time (a second
 * is turned away and retries): pglite-socket decides whose open work a clean-up belongs to by the
 * last client it served, which is only sure with one; operator commands are short.
 *
 * Notifications: a NOTIFY a socket client commits is answered to that socket client only (the
 * backend is one), so the gate hands each one on to this process's listeners too; that is how an
 * operator's `merchant:set` reaches the server's merchant cache.
 */

export interface SharedDatabase {
  /** the postgres:// URL other processes of this machine connect to */
  url: string;
  stop(): Promise<void>;
}

interface Log {
  warn(message: string): void;
  error(message: string): void;
}

/** a socket client's unit of work may be idle this long before it is closed (and rolled back) */
const CLIENT_IDLE_MS = 10_000;
/** a unit of work left open by a client that is gone is rolled back after this long */
const ABANDONED_AFTER_MS = 30_000;
/** see the note at the top: one socket client at a time */
const MAX_CLIENTS = 1;
/** sun_path holds 108 bytes on Linux, 104 on macOS */
const MAX_SOCKET_PATH = 100;
/** pg finds a socket as <folder>/.s.PGSQL.<port>; the port is only a name here */
const SOCKET_NAME = '.s.PGSQL.5432';

/** Serves the embedded database to this machine's other processes and records where, in the claim. */
export async function shareEmbeddedDatabase(client: PGlite, claim: EmbeddedClaim, log: Log): Promise<SharedDatabase> {
  const gate = new SocketSessionGate(client, log);
  const { server, url, cleanup } = await listen(gate, claim.dataDir, log);
  claim.publish(url);
  let stopping: Promise<void> | undefined;
  return {
    url,
    stop() {
      stopping ??= (async () => {
        // first say it is gone, so an operator command waits for the folder instead of failing to connect
        claim.publish(undefined);
        await server.stop();
        await gate.close();
        cleanup();
      })();
      return stopping;
    },
  };
}

async function listen(gate: SocketSessionGate, dataDir: string, log: Log) {
  const options = { db: gate as unknown as PGlite, maxConnections: MAX_CLIENTS, idleTimeout: CLIENT_IDLE_MS };
  if (process.platform === 'win32') {
    const server = new PGLiteSocketServer({ ...options, host: '127.0.0.1', port: 0 });
    await server.start();
    return { server, url: `postgres://postgres@${server.getServerConn()}/postgres`, cleanup: () => {} };
  }
  const failures: string[] = [];
  for (const candidate of socketFolders(dataDir)) {
    let folder: string;
    try {
      folder = candidate.make();
    } catch (error) {
      failures.push(`${candidate.label}: ${(error as Error).message}`);
      continue;
    }
    const socketPath = path.join(folder, SOCKET_NAME);
    if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH) {
      failures.push(`${socketPath}: too long for a Unix socket`);
      candidate.remove(folder);
      continue;
    }
    // we hold the folder's claim, so a socket file here is one a dead server left
    unlinkQuietly(socketPath);
    const server = new PGLiteSocketServer({ ...options, path: socketPath });
    try {
      await server.start();
    } catch (error) {
      failures.push(`${socketPath}: ${(error as Error).message}`);
      await server.stop().catch(() => {});
      candidate.remove(folder);
      continue;
    }
    chmodSync(socketPath, 0o600);
    const url = `postgres://postgres@localhost/postgres?host=${encodeURIComponent(folder)}`;
    return { server, url, cleanup: () => candidate.remove(folder) };
  }
  log.error(`cannot share the embedded database: ${failures.join('; ')}`);
  throw new Error(`cannot open a socket for the embedded database: ${failures.join('; ')}`);
}

function socketFolders(dataDir: string) {
  return [
    {
      label: 'DATA_DIR/run',
      make: () => {
        const folder = path.join(path.resolve(dataDir), 'run');
        mkdirSync(folder, { recursive: true, mode: 0o700 });
        chmodSync(folder, 0o700);
        return folder;
      },
      remove: (_folder: string) => {},
    },
    {
      label: 'a temporary folder',
      make: () => mkdtempSync(path.join(os.tmpdir(), 'portal-db-')),
      remove: (folder: string) => rmSync(folder, { recursive: true, force: true }),
    },
  ];
}

const READY_FOR_QUERY = 0x5a; // 'Z'
const NOTIFICATION_RESPONSE = 0x41; // 'A'
const TERMINATE = 0x58; // 'X'
const IDLE = 0x49; // 'I'

/**
 * What pglite-socket 0.2.17 is given in place of the PGlite instance (it calls exactly these
 * members: waitReady, isInTransaction, runExclusive, execProtocolRawStream, exec). The package is
 * pinned to that version in package.json; test/api/embedded-socket.test.ts proves the behaviour.
 */
class SocketSessionGate {
  readonly #client: PGlite;
  readonly #log: Log;
  /** releases PGlite's transaction lock; set while a socket client's unit of work is open */
  #release: (() => void) | null = null;
  #session = 0;
  /** the transaction status of the last ReadyForQuery a socket client was sent */
  #status = IDLE;
  #terminated = false;
  #lastActivity = Date.now();
  #carry = new Uint8Array(0);
  #notifications: Array<{ channel: string; payload: string }> = [];
  readonly #watchdog: NodeJS.Timeout;

  constructor(client: PGlite, log: Log) {
    this.#client = client;
    this.#log = log;
    this.#watchdog = setInterval(() => void this.#checkAbandoned(), 5_000);
    this.#watchdog.unref();
  }

  get waitReady() {
    return this.#client.waitReady;
  }

  /** pglite-socket keeps handing the same client's messages while this is true */
  isInTransaction() {
    return this.#release !== null;
  }

  async runExclusive<T>(fn: () => Promise<T>): Promise<T> {
    if (!this.#release) await this.#open();
    this.#lastActivity = Date.now();
    this.#terminated = false;
    let result: T;
    try {
      result = await this.#client.runExclusive(fn);
    } catch (error) {
      this.#log.error(`embedded database socket: a message failed (${(error as Error).message}); rolling its work back`);
      await this.#abandon();
      throw error;
    }
    if (this.#terminated) await this.#abandon();
    else if (this.#status === IDLE) this.#close();
    return result;
  }

  async execProtocolRawStream(message: Uint8Array, options: { onRawData: (data: Uint8Array) => void }) {
    if (message[0] === TERMINATE) {
      // the client says goodbye; what it leaves open is rolled back, and the shared backend stays up
      this.#terminated = true;
      return;
    }
    await this.#client.execProtocolRawStream(message, {
      onRawData: (data) => {
        this.#scan(data);
        options.onRawData(data);
      },
    });
  }

  /** pglite-socket calls this with ROLLBACK when a client that had work open goes away */
  async exec(_sql: string) {
    await this.#abandon();
    return [];
  }

  async close() {
    clearInterval(this.#watchdog);
    if (this.#release) await this.#abandon();
  }

  async #open() {
    await new Promise<void>((entered) => {
      void this.#client._runExclusiveTransaction(
        () =>
          new Promise<void>((release) => {
            this.#release = release;
            this.#session += 1;
            entered();
          }),
      );
    });
  }

  #close() {
    const release = this.#release;
    this.#release = null;
    this.#carry = new Uint8Array(0);
    release?.();
    const notifications = this.#notifications.splice(0);
    if (notifications.length > 0) void this.#relay(notifications);
  }

  /** Ends whatever a socket client left open (a half-sent extended query, a transaction block). */
  async #abandon() {
    const session = this.#session;
    if (!this.#release) return;
    await this.#client.runExclusive(async () => {
      if (this.#session !== session || !this.#release) return;
      if (this.#status !== IDLE || this.#client.isInTransaction()) {
        // ROLLBACK ends a block or an unsynced extended query; when an error has the backend
        // skipping to the next Sync, the Sync ends that, and a block left failed needs one more
        await this.#discard(queryMessage('ROLLBACK'));
        await this.#discard(SYNC_MESSAGE);
        if (this.#client.isInTransaction()) await this.#discard(queryMessage('ROLLBACK'));
      }
      this.#status = IDLE;
      // a rolled-back unit's notifications were never sent
      this.#notifications = [];
    });
    if (this.#session === session) this.#close();
  }

  /** Runs a message whose answer nobody reads (execProtocolRaw would send it to the last socket client). */
  #discard(message: Uint8Array) {
    return this.#client.execProtocolRawStream(message, { onRawData: () => {} });
  }

  async #checkAbandoned() {
    if (this.#release && Date.now() - this.#lastActivity > ABANDONED_AFTER_MS) {
      this.#log.warn('embedded database socket: a client left its work open and went silent; rolling it back');
      await this.#abandon().catch((error: Error) => this.#log.error(`embedded database socket: ${error.message}`));
    }
  }

  /** Follows the backend's answer, message by message, for ReadyForQuery and NotificationResponse. */
  #scan(data: Uint8Array) {
    let buffer = data;
    if (this.#carry.length > 0) {
      buffer = new Uint8Array(this.#carry.length + data.length);
      buffer.set(this.#carry);
      buffer.set(data, this.#carry.length);
    }
    const view = new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength);
    let at = 0;
    while (buffer.length - at >= 5) {
      const type = buffer[at] as number;
      const length = view.getInt32(at + 1);
      if (buffer.length - at < 1 + length) break;
      const body = buffer.subarray(at + 5, at + 1 + length);
      if (type === READY_FOR_QUERY) this.#status = body[0] as number;
      else if (type === NOTIFICATION_RESPONSE) this.#notifications.push(readNotification(body));
      at += 1 + length;
    }
    this.#carry = buffer.slice(at);
  }

  async #relay(notifications: Array<{ channel: string; payload: string }>) {
    for (const { channel, payload } of notifications) {
      try {
        await this.#client.query('select pg_notify($1, $2)', [channel, payload]);
      } catch (error) {
        this.#log.error(`embedded database socket: could not pass on a notification on ${channel}: ${(error as Error).message}`);
      }
    }
  }
}

const SYNC_MESSAGE = new Uint8Array([0x53, 0, 0, 0, 4]);

function queryMessage(sql: string) {
  const text = Buffer.from(`${sql}\0`, 'utf8');
  const message = Buffer.alloc(5 + text.length);
  message[0] = 0x51; // 'Q'
  message.writeInt32BE(4 + text.length, 1);
  text.copy(message, 5);
  return new Uint8Array(message.buffer, message.byteOffset, message.length);
}

/** NotificationResponse: Int32 sender pid, channel, payload (both NUL-terminated). */
function readNotification(body: Uint8Array) {
  const decoder = new TextDecoder();
  const channelEnd = body.indexOf(0, 4);
  const payloadEnd = body.indexOf(0, channelEnd + 1);
  return {
    channel: decoder.decode(body.subarray(4, channelEnd)),
    payload: decoder.decode(body.subarray(channelEnd + 1, payloadEnd)),
  };
}

function unlinkQuietly(file: string) {
  try {
    unlinkSync(file);
  } catch {
    // not there
  }
}
