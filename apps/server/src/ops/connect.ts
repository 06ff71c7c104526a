import { sql } from 'drizzle-orm';
import type { Config } from '../config.ts';
import {
  busyMessage,
  currentOwner,
  embeddedDatabaseExists,
  embeddedDatabaseFolder,
  type OwnerRecord,
  tryClaimEmbeddedDatabase,
} from '../db/embedded-owner.ts';
import { type Database, openDatabase } from '../db/engine.ts';
import { OpsError } from './command.ts';

export interface OperatorDatabase {
  database: Database;
  /** said once, on stderr, so the operator knows which database a command changed */
  description: string;
  close(): Promise<void>;
}

/** how long a command waits for DATA_DIR's database while another process holds it without sharing it */
const WAIT_MS = 15_000;
const POLL_MS = 250;
const CONNECT_TIMEOUT_MS = 5_000;

/**
 * The database an operator command works on:
 * - with DATABASE_URL, that PostgreSQL (migrated first, as a server start would);
 * - otherwise DATA_DIR's embedded database: through the running server's socket when a server
 *   holds it (src/db/embedded-socket.ts), or opened here (and migrated) when none runs. While a
 *   command holds the folder, a server that starts waits for it. A command never creates it: one run
 *   from another folder (DATA_DIR is relative to where it runs) would otherwise work on a new, empty
 *   database of its own and report that nothing exists.
 */
export async function openOperatorDatabase(config: Config, { waitMs = WAIT_MS } = {}): Promise<OperatorDatabase> {
  if (config.databaseUrl) {
    const database = await openDatabase({ databaseUrl: config.databaseUrl, poolSize: 2 });
    try {
      await withTimeout(database.migrate(), CONNECT_TIMEOUT_MS * 4, 'PostgreSQL at DATABASE_URL does not answer');
    } catch (error) {
      await database.close().catch(() => {});
      throw new OpsError(`cannot use the database at DATABASE_URL: ${(error as Error).message}`);
    }
    return { database, description: `PostgreSQL (${redact(config.databaseUrl)})`, close: () => database.close() };
  }

  // a process that holds the folder (a server starting) is about to create the database
  if (!embeddedDatabaseExists(config.dataDir) && !currentOwner(config.dataDir)) {
    throw new OpsError(noDatabaseMessage(config.dataDir));
  }

  const deadline = Date.now() + waitMs;
  let lastHolder: OwnerRecord | undefined;
  let lastProblem = '';
  for (;;) {
    const attempt = tryClaimEmbeddedDatabase(config.dataDir, 'ops');
    if ('claim' in attempt) {
      const { claim } = attempt;
      try {
        const database = await openDatabase({ dataDir: claim.folder });
        await database.migrate();
        return {
          database,
          description: `the embedded database in ${claim.folder} (no server is running)`,
          close: async () => {
            try {
              await database.close();
            } finally {
              claim.release();
            }
          },
        };
      } catch (error) {
        claim.release();
        throw error;
      }
    }
    lastHolder = attempt.holder;
    if (attempt.holder.url) {
      const shared = await connectToServer(attempt.holder.url);
      if ('database' in shared) {
        return {
          database: shared.database,
          description: `the embedded database of the running server (pid ${attempt.holder.pid})`,
          close: () => shared.database.close(),
        };
      }
      lastProblem = shared.problem;
    }
    if (Date.now() >= deadline) {
      throw new OpsError(
        `${busyMessage(config.dataDir, lastHolder)}${lastProblem ? ` Its socket did not answer: ${lastProblem}.` : ' It does not share the database (yet); try again in a moment.'}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** Where the command looked, and how to point it at the server's data. */
function noDatabaseMessage(dataDir: string) {
  return [
    `没有找到数据库：${dataDir} 里没有门户的嵌入式数据库（${embeddedDatabaseFolder(dataDir)}），命令不会新建数据库。`,
    '未设置 DATA_DIR 时，命令使用运行它的目录下的 ./data。请把 DATA_DIR 设为运行中服务器的数据目录（服务器启动时的 DATA_DIR），',
    '例如 DATA_DIR=/srv/portal/data npm run ops -- merchant:list；服务器使用 PostgreSQL 时，请设置与服务器相同的 DATABASE_URL。',
  ].join('\n');
}

/** The server serves one socket client at a time; a busy or stopping one is tried again by the caller. */
async function connectToServer(url: string): Promise<{ database: Database } | { problem: string }> {
  // one connection: the socket takes one client, and a command's queries run one after another
  const database = await openDatabase({ databaseUrl: url, poolSize: 1, preparedStatements: false });
  try {
    await withTimeout(database.db.execute(sql`select 1`), CONNECT_TIMEOUT_MS, 'no answer');
    return { database };
  } catch (error) {
    await withTimeout(database.close(), 1_000, '').catch(() => {});
    return { problem: (error as Error).message };
  }
}

async function withTimeout<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(message)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

function redact(url: string) {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'DATABASE_URL';
  }
}
