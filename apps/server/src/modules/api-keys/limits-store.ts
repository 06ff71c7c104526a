import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/engine.ts';
import { apiKeyRate, apiKeyReplays } from '../../db/schema.ts';

const leaseQuery = (tx: Tx) =>
  tx
    .insert(apiKeyRate)
    .values({ keyId: sql.placeholder('keyId'), windowStart: sql.placeholder('windowStart'), calls: sql.placeholder('calls') } as never)
    .onConflictDoUpdate({
      target: apiKeyRate.keyId,
      set: {
        calls: sql`case when excluded.window_start > api_key_rate.window_start then excluded.calls else api_key_rate.calls + excluded.calls end`,
        windowStart: sql`greatest(api_key_rate.window_start, excluded.window_start)`,
      },
    })
    .returning({ calls: apiKeyRate.calls, windowStart: apiKeyRate.windowStart });

// a key's calls are leased a few at a time: the statement is built once per database and prepared on the server
const leases = new WeakMap<object, ReturnType<ReturnType<typeof leaseQuery>['prepare']>>();

/**
 * Leases `calls` calls of the key in the window starting at `windowStart`, in one upsert every process
 * shares: a later window starts the count again at `calls`; the same window (or an earlier one, from a
 * process whose clock is behind) adds them to it. Answers the count with this lease in it, which may
 * pass the limit (the caller takes only what was left under it), and the window it is in.
 */
export async function leaseKeyCalls(tx: Tx, keyId: string, windowStart: Date, calls: number) {
  let statement = leases.get(tx);
  if (!statement) {
    statement = leaseQuery(tx).prepare('api_key_rate_lease');
    leases.set(tx, statement);
  }
  const [row] = await statement.execute({ keyId, windowStart, calls });
  if (!row) throw new Error('the key rate upsert returned nothing');
  return row;
}

export type ReplayRow = typeof apiKeyReplays.$inferSelect;

/** Claims the account's Idempotency-Key for a key's write; false when a row holds it already. */
export async function claimReplay(tx: Tx, values: typeof apiKeyReplays.$inferInsert) {
  const rows = await tx.insert(apiKeyReplays).values(values).onConflictDoNothing().returning({ key: apiKeyReplays.key });
  return rows.length > 0;
}

export async function findReplay(tx: Tx, accountId: string, key: string): Promise<ReplayRow | undefined> {
  const [row] = await tx
    .select()
    .from(apiKeyReplays)
    .where(and(eq(apiKeyReplays.accountId, accountId), eq(apiKeyReplays.key, key)));
  return row;
}

/** Takes over a claim whose request never answered (its process stopped): true when this one took it. */
export async function retakeReplay(tx: Tx, accountId: string, key: string, claimedAt: Date, now: Date) {
  const rows = await tx
    .update(apiKeyReplays)
    .set({ claimedAt: now })
    .where(and(eq(apiKeyReplays.accountId, accountId), eq(apiKeyReplays.key, key), eq(apiKeyReplays.claimedAt, claimedAt), sql`${apiKeyReplays.status} is null`))
    .returning({ key: apiKeyReplays.key });
  return rows.length > 0;
}

export async function answerReplay(tx: Tx, accountId: string, key: string, status: number, answer: string, at: Date) {
  await tx
    .update(apiKeyReplays)
    .set({ status, answer, answeredAt: at })
    .where(and(eq(apiKeyReplays.accountId, accountId), eq(apiKeyReplays.key, key)));
}

/** Lets go of a claim whose request was refused: the key may be used again. */
export async function releaseReplay(tx: Tx, accountId: string, key: string) {
  await tx.delete(apiKeyReplays).where(and(eq(apiKeyReplays.accountId, accountId), eq(apiKeyReplays.key, key), sql`${apiKeyReplays.status} is null`));
}
