import { and, desc, eq, isNull, lte, or, sql } from 'drizzle-orm';
import type { Tx } from '../../db/engine.ts';
import { accounts, apiKeys, members } from '../../db/schema.ts';
import { callerColumns } from '../../db/caller-columns.ts';

export type ApiKeyRow = typeof apiKeys.$inferSelect;

export async function insertApiKey(tx: Tx, values: typeof apiKeys.$inferInsert) {
  const [row] = await tx.insert(apiKeys).values(values).returning();
  if (!row) throw new Error('api key insert returned nothing');
  return row;
}

/** The account's keys, newest first (one member's when `memberId` is given), with their member's phone and role. */
export function listApiKeys(tx: Tx, accountId: string, memberId?: string) {
  return tx
    .select({ key: apiKeys, member: { phone: members.phone, role: members.role } })
    .from(apiKeys)
    .innerJoin(members, eq(members.id, apiKeys.memberId))
    .where(and(eq(apiKeys.accountId, accountId), memberId ? eq(apiKeys.memberId, memberId) : undefined))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
}

/** One key of the account, locked for a change. */
export async function lockApiKey(tx: Tx, accountId: string, id: string) {
  const [row] = await tx
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.accountId, accountId), eq(apiKeys.id, id)))
    .for('update');
  return row;
}

export async function updateApiKey(tx: Tx, id: string, changes: Partial<ApiKeyRow>) {
  const [row] = await tx.update(apiKeys).set(changes).where(eq(apiKeys.id, id)).returning();
  if (!row) throw new Error(`api key ${id} vanished`);
  return row;
}

/** Keys of the account that are neither revoked nor expired at `now`. */
export async function countLiveKeys(tx: Tx, accountId: string, now: Date) {
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(apiKeys)
    .where(and(eq(apiKeys.accountId, accountId), sql`${apiKeys.revokedAt} is null`, sql`(${apiKeys.expiresAt} is null or ${apiKeys.expiresAt} > ${now.toISOString()}::timestamptz)`));
  return row?.n ?? 0;
}

const keyByPrefixQuery = (tx: Tx) =>
  tx
    .select({ key: apiKeys, ...callerColumns() })
    .from(apiKeys)
    .innerJoin(members, eq(members.id, apiKeys.memberId))
    .innerJoin(accounts, eq(accounts.id, apiKeys.accountId))
    .where(or(eq(apiKeys.prefix, sql.placeholder('prefix')), eq(apiKeys.previousPrefix, sql.placeholder('prefix'))))
    .limit(1);

// every key call looks its key up: the statement is built once per database and prepared on the server
const keyByPrefix = new WeakMap<object, ReturnType<ReturnType<typeof keyByPrefixQuery>['prepare']>>();

/**
 * The key whose current or replaced secret has the lookup prefix, with its member's and account's
 * columns a caller needs (as a session's lookup reads them: one statement).
 */
export async function findKeyByPrefix(tx: Tx, prefix: string) {
  let statement = keyByPrefix.get(tx);
  if (!statement) {
    statement = keyByPrefixQuery(tx).prepare('api_key_by_prefix');
    keyByPrefix.set(tx, statement);
  }
  const [row] = await statement.execute({ prefix });
  return row;
}

/**
 * Writes the key's last use, unless a later one is written already (by another process, whose clock
 * is ahead): the latest use wins whichever process writes last.
 */
export async function touchApiKey(tx: Tx, id: string, at: Date, ip: string) {
  await tx
    .update(apiKeys)
    .set({ lastUsedAt: at, lastUsedIp: ip })
    .where(and(eq(apiKeys.id, id), or(isNull(apiKeys.lastUsedAt), lte(apiKeys.lastUsedAt, at))));
}

/** Locks the account's row: keys are made one at a time an account, so their count holds. */
export async function lockAccountRow(tx: Tx, accountId: string) {
  await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId)).for('update');
}
