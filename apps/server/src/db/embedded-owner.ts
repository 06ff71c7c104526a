import { randomUUID } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * PGlite keeps its data in a folder that only one process may open at a time; a second one
 * opening it would corrupt it. Whoever opens DATA_DIR's embedded database (the server, or the
 * operator command line when no server runs) first claims it through an owner file beside it.
 * A server that holds it also writes there the address at which it shares the database
 * (src/db/embedded-socket.ts), so the operator command line can work through it.
 */

/** Where DATA_DIR keeps the embedded database. */
export const embeddedDatabaseFolder = (dataDir: string) => path.join(dataDir, 'pglite');

/** Whether DATA_DIR holds an embedded database: PostgreSQL writes PG_VERSION when it creates its folder. */
export const embeddedDatabaseExists = (dataDir: string) => existsSync(path.join(embeddedDatabaseFolder(dataDir), 'PG_VERSION'));

export const ownerFilePath = (dataDir: string) => path.join(dataDir, 'pglite.owner.json');

export type OwnerRole = 'server' | 'ops';

export interface OwnerRecord {
  pid: number;
  role: OwnerRole;
  /** when the claim was made; with the pid, tells one claim from another */
  since: string;
  /** a postgres:// URL at which the holder shares the database, while it does */
  url?: string;
}

export interface EmbeddedClaim {
  readonly dataDir: string;
  /** the PGlite folder this claim covers */
  readonly folder: string;
  /** tells other processes where this one shares the database, or (undefined) that it no longer does */
  publish(url: string | undefined): void;
  /** gives the database up; also done when the process exits */
  release(): void;
}

export type ClaimAttempt = { claim: EmbeddedClaim } | { holder: OwnerRecord };

/** claims this process holds, by DATA_DIR */
const claimedHere = new Map<string, OwnerRecord>();

/**
 * One attempt to claim DATA_DIR's embedded database for this process: either the claim, or the
 * record of the live process that holds it. A record left by a process that is gone is removed.
 */
export function tryClaimEmbeddedDatabase(dataDir: string, role: OwnerRole): ClaimAttempt {
  const dir = path.resolve(dataDir);
  const file = ownerFilePath(dir);
  mkdirSync(dir, { recursive: true });
  const mine = claimedHere.get(dir);
  if (mine) return { holder: mine };
  for (let attempt = 0; attempt < 5; attempt++) {
    const record: OwnerRecord = { pid: process.pid, role, since: new Date().toISOString() };
    if (createExclusively(file, record)) return { claim: makeClaim(dir, file, record) };
    const holder = readOwner(file);
    if (!holder) continue; // given up between the two steps: try again
    // the same pid as ours can only be a process that is gone (e.g. a restarted container's pid 1)
    if (holder.pid !== process.pid && isAlive(holder.pid)) return { holder };
    removeStale(file, holder);
  }
  const holder = readOwner(file);
  if (holder) return { holder };
  throw new Error(`could not claim the embedded database in ${dir}: ${file} keeps changing`);
}

/** The record of whoever holds DATA_DIR's embedded database now, if a live process does. */
export function currentOwner(dataDir: string): OwnerRecord | undefined {
  const holder = readOwner(ownerFilePath(path.resolve(dataDir)));
  return holder && isAlive(holder.pid) ? holder : undefined;
}

/**
 * Claims DATA_DIR's embedded database, waiting up to `waitMs` for a holder to give it up (an
 * operator command runs for a moment). Throws a message naming the holder when it does not.
 */
export async function claimEmbeddedDatabase(
  dataDir: string,
  role: OwnerRole,
  { waitMs = 30_000, pollMs = 200 }: { waitMs?: number; pollMs?: number } = {},
): Promise<EmbeddedClaim> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const attempt = tryClaimEmbeddedDatabase(dataDir, role);
    if ('claim' in attempt) return attempt.claim;
    if (Date.now() >= deadline) throw new Error(busyMessage(dataDir, attempt.holder));
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

export function busyMessage(dataDir: string, holder: OwnerRecord) {
  const who = holder.role === 'server' ? 'a portal server' : 'an operator command';
  return (
    `the embedded database in ${path.resolve(dataDir)} is in use by ${who} (pid ${holder.pid}, since ${holder.since}). ` +
    `If no such process runs any more, delete ${ownerFilePath(path.resolve(dataDir))}.`
  );
}

function makeClaim(dir: string, file: string, record: OwnerRecord): EmbeddedClaim {
  claimedHere.set(dir, record);
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.off('exit', release);
    claimedHere.delete(dir);
    try {
      const now = readOwner(file);
      if (now && sameClaim(now, record)) unlinkQuietly(file);
    } catch {
      // an owner file that is not ours to read is not ours to delete
    }
  };
  process.on('exit', release);
  return {
    dataDir: dir,
    folder: embeddedDatabaseFolder(dir),
    publish(url) {
      if (released) return;
      const next: OwnerRecord = { ...record, ...(url ? { url } : {}) };
      // readers must never see half a file: write beside it, then swap it in
      const temp = `${file}.${process.pid}.${randomUUID()}.tmp`;
      writeFileSync(temp, JSON.stringify(next), { mode: 0o600 });
      renameSync(temp, file);
      claimedHere.set(dir, next);
    },
    release,
  };
}

/** Creates the owner file only if none exists, and never visible half written. */
function createExclusively(file: string, record: OwnerRecord) {
  const temp = `${file}.${process.pid}.${randomUUID()}.tmp`;
  writeFileSync(temp, JSON.stringify(record), { mode: 0o600 });
  try {
    linkSync(temp, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    unlinkQuietly(temp);
  }
}

/**
 * Removes an owner file left by a process that is gone. It is first moved aside, so that a claim
 * another process made in the meantime is recognised and put back rather than deleted.
 */
function removeStale(file: string, stale: OwnerRecord) {
  const aside = `${file}.${process.pid}.${randomUUID()}.stale`;
  try {
    renameSync(file, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  const moved = readOwner(aside);
  if (moved && !sameClaim(moved, stale)) {
    try {
      linkSync(aside, file);
    } catch {
      // a third claim appeared meanwhile; it stands, and the one moved aside is reported by its holder's next look
    }
  }
  unlinkQuietly(aside);
}

function readOwner(file: string): OwnerRecord | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const value = JSON.parse(text) as Partial<OwnerRecord>;
    if (typeof value.pid === 'number' && (value.role === 'server' || value.role === 'ops') && typeof value.since === 'string') {
      return {
        pid: value.pid,
        role: value.role,
        since: value.since,
        ...(typeof value.url === 'string' ? { url: value.url } : {}),
      };
    }
  } catch {
    // fall through: not ours to interpret
  }
  throw new Error(`${file} is not an owner record of the embedded database; if no portal process runs, delete it`);
}

const sameClaim = (a: OwnerRecord, b: OwnerRecord) => a.pid === b.pid && a.since === b.since;

function isAlive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, it is only not ours to signal
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function unlinkQuietly(file: string) {
  try {
    unlinkSync(file);
  } catch {
    // already gone
  }
}
