import { createHmac } from 'node:crypto';
import { appendFileSync, closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import path from 'node:path';
import { createSealer, type Sealer } from '../../lib/sealed.ts';

/**
 * What the simulated issuer keeps, so that it survives a crash as a real issuer's books do: every
 * request it accepted (a card, a lifecycle change, an authorisation, a fail-next) and every event it
 * has not delivered yet. A record is written before the request is answered, so an accepted request
 * or a made event is never lost to a kill -9 (the kernel holds what was written, whatever happens to
 * the process). The simulator reads the records back at its start and goes on delivering.
 */
export type JournalRecord =
  | { kind: 'card'; card: Record<string, unknown> }
  | { kind: 'event'; queued: Record<string, unknown> }
  | { kind: 'done'; id: string }
  | { kind: 'authorization'; authorization: Record<string, unknown> }
  | { kind: 'fail-next'; reasons: string[] };

export interface SimulatorJournal {
  /** the records kept, in the order they were written; records it cannot read are left out and counted */
  read(): { records: JournalRecord[]; unreadable: number };
  /** keeps one record; returns once it is written */
  write(record: JournalRecord): void;
  /** replaces every record by these (what is still live), all at once: a crash leaves the old or the new */
  compact(records: JournalRecord[]): void;
}

/** The journal's key, from the issuer's secret: card numbers are in it, so it is sealed like the portal's card data. */
function journalSealer(secret: string): Sealer {
  return createSealer(createHmac('sha256', secret).update('issuer-simulator-journal').digest());
}

/**
 * A journal in one file, a sealed record a line (AES-256-GCM, lib/sealed.ts). A line that does not
 * open (cut short by a crash mid-write, or written with another secret) is skipped and counted.
 */
export function fileJournal(file: string, secret: () => string): SimulatorJournal {
  let sealer: Sealer | undefined;
  const sealed = () => {
    sealer ??= journalSealer(secret());
    return sealer;
  };
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  return {
    read() {
      if (!existsSync(file)) return { records: [], unreadable: 0 };
      const records: JournalRecord[] = [];
      let unreadable = 0;
      for (const line of readFileSync(file, 'utf8').split('\n')) {
        if (!line) continue;
        try {
          records.push(JSON.parse(sealed().open(line)) as JournalRecord);
        } catch {
          unreadable++;
        }
      }
      return { records, unreadable };
    },
    write(record) {
      appendFileSync(file, `${sealed().seal(JSON.stringify(record))}\n`, { mode: 0o600 });
    },
    compact(records) {
      const next = `${file}.next`;
      const handle = openSync(next, 'w', 0o600);
      try {
        for (const record of records) writeSync(handle, `${sealed().seal(JSON.stringify(record))}\n`);
        fsyncSync(handle);
      } finally {
        closeSync(handle);
      }
      renameSync(next, file);
    },
  };
}

/** The journal's file in a data folder: the built-in simulator and `npm run issuer-sim` keep theirs there. */
export const simulatorJournalFile = (dataDir: string) => path.join(dataDir, 'issuer-simulator', 'journal.jsonl');
