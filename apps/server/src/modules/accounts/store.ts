import { and, asc, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Tx } from '../../db/engine.ts';
import { accounts, customerManagers, loginAttempts, resetTickets, trustedDevices, unknownSignIns } from '../../db/schema.ts';

export type AccountRow = typeof accounts.$inferSelect;

/** Each kind of password's wrong tries and lock, as a new password or a right one leaves them. */
const loginTriesCleared = { failedLogins: 0, failedWindowStart: null, lockedUntil: null };
const tradeTriesCleared = { trxFailedTries: 0, trxFailedWindowStart: null, trxLockedUntil: null };

export async function findAccountByPhone(tx: Tx, merchantId: string, prefix: string, phone: string) {
  const rows = await tx
    .select()
    .from(accounts)
    .where(and(eq(accounts.merchantId, merchantId), eq(accounts.phonePrefix, prefix), eq(accounts.phone, phone)))
    .limit(1);
  return rows[0];
}

export async function findAccountByEmail(tx: Tx, merchantId: string, email: string) {
  const rows = await tx
    .select()
    .from(accounts)
    .where(and(eq(accounts.merchantId, merchantId), eq(accounts.email, email.toLowerCase())))
    .limit(1);
  return rows[0];
}

/** Inserts unless the phone is taken; answers undefined then. */
export async function insertAccount(tx: Tx, values: typeof accounts.$inferInsert) {
  const rows = await tx.insert(accounts).values(values).onConflictDoNothing().returning();
  return rows[0];
}

/** Sets the e-mail of an account that has none; false when it already had one or the e-mail is taken. */
export async function setEmailIfNone(tx: Tx, accountId: string, email: string) {
  const rows = await tx
    .update(accounts)
    .set({ email: email.toLowerCase() })
    .where(and(eq(accounts.id, accountId), isNull(accounts.email)))
    .returning({ id: accounts.id });
  return rows.length === 1;
}

export async function setPassword(tx: Tx, accountId: string, passwordHash: string) {
  await tx
    .update(accounts)
    .set({ passwordHash, ...loginTriesCleared })
    .where(eq(accounts.id, accountId));
}

/**
 * Sets the trade password; its wrong tries and any lock end with the old one. With `expected` (the
 * hash that was checked, null for none) only if it is still that one, so two changes at once cannot
 * both land: false when it had changed in between. Without it (the e-mail reset), whatever it was.
 */
export async function setTrxPassword(tx: Tx, accountId: string, trxPasswordHash: string, expected?: string | null) {
  const still = expected === undefined ? undefined : expected === null ? isNull(accounts.trxPasswordHash) : eq(accounts.trxPasswordHash, expected);
  const rows = await tx
    .update(accounts)
    .set({ trxPasswordHash, ...tradeTriesCleared })
    .where(and(eq(accounts.id, accountId), still))
    .returning({ id: accounts.id });
  return rows.length === 1;
}

/** The account's trade password hash; null: none set. */
export async function findTradePasswordHash(tx: Tx, accountId: string) {
  const [row] = await tx.select({ hash: accounts.trxPasswordHash }).from(accounts).where(eq(accounts.id, accountId));
  return row?.hash ?? null;
}

/**
 * The trade password with its count, the account's row locked until the transaction ends: one
 * account's trade password checks run one at a time, each seeing the count the one before left.
 */
export async function lockTradePassword(tx: Tx, accountId: string) {
  const [row] = await tx
    .select({ hash: accounts.trxPasswordHash, failures: accounts.trxFailedTries, lockedUntil: accounts.trxLockedUntil })
    .from(accounts)
    .where(eq(accounts.id, accountId))
    .for('update');
  return row ?? { hash: null, failures: 0, lockedUntil: null };
}

/** A right trade password: the tries counted before it are no failures. */
export async function clearTradePasswordTries(tx: Tx, accountId: string) {
  await tx.update(accounts).set(tradeTriesCleared).where(eq(accounts.id, accountId));
}

/**
 * A try counted on a failures / window start / locked until triple: a new window once the last one
 * has passed, the count up by one, and the lock for `windowMs` from the try that reaches `maxTries`;
 * `open` holds while the password is not locked.
 */
function countedTry(failures: AnyPgColumn, windowStarted: AnyPgColumn, lockedUntil: AnyPgColumn, now: Date, windowMs: number, maxTries: number) {
  const at = now.toISOString();
  const expired = sql`(${windowStarted} is null or ${windowStarted} < ${new Date(now.getTime() - windowMs).toISOString()}::timestamptz)`;
  const count = sql`case when ${expired} then 1 else ${failures} + 1 end`;
  return {
    count,
    windowStart: sql`case when ${expired} then ${at}::timestamptz else ${windowStarted} end`,
    lockedUntil: sql`case when ${count} >= ${maxTries} then ${new Date(now.getTime() + windowMs).toISOString()}::timestamptz else null end`,
    open: sql`(${lockedUntil} is null or ${lockedUntil} <= ${at}::timestamptz)`,
  };
}

/** The columns that count one kind of password's wrong tries on the account row. */
const tryCounters = {
  login: { count: 'failedLogins', windowStart: 'failedWindowStart', lockedUntil: 'lockedUntil' },
  trade: { count: 'trxFailedTries', windowStart: 'trxFailedWindowStart', lockedUntil: 'trxLockedUntil' },
} as const;

/**
 * Counts a password try before the password is checked, in one statement: the try is counted as a
 * failure now (a right password clears it afterwards), and the try that reaches `maxTries` in the
 * window locks the password for `windowMs` at once. An account locked already gets no try (null),
 * so however many tries arrive together, at most `maxTries` passwords are checked per window: the
 * update holds the account's row, and each waiting try sees the count of the one before.
 */
async function claimTry(
  tx: Tx,
  kind: keyof typeof tryCounters,
  accountId: string,
  now: Date,
  windowMs: number,
  maxTries: number,
): Promise<{ failures: number; lockedUntil: Date | null } | null> {
  const columns = tryCounters[kind];
  const failures = accounts[columns.count];
  const lockedUntil = accounts[columns.lockedUntil];
  const counted = countedTry(failures, accounts[columns.windowStart], lockedUntil, now, windowMs, maxTries);
  const [row] = await tx
    .update(accounts)
    .set({ [columns.count]: counted.count, [columns.windowStart]: counted.windowStart, [columns.lockedUntil]: counted.lockedUntil })
    .where(and(eq(accounts.id, accountId), counted.open))
    .returning({ failures, lockedUntil });
  if (!row) return null;
  return { failures: row.failures, lockedUntil: row.lockedUntil };
}

/** A password sign-in's try, counted before the password is checked (claimTry); the fifth wrong one in 15 minutes locks sign-in. */
export const claimPasswordTry = (tx: Tx, accountId: string, now: Date, windowMs: number, maxTries: number) =>
  claimTry(tx, 'login', accountId, now, windowMs, maxTries);

/** A wrong trade password, wherever it was typed, counted (claimTry) while its check holds the account's row (lockTradePassword). */
export const countWrongTradePassword = (tx: Tx, accountId: string, now: Date, windowMs: number, maxTries: number) =>
  claimTry(tx, 'trade', accountId, now, windowMs, maxTries);

/**
 * A password sign-in's try for a phone or e-mail that is no account (its keyed hash), counted as an
 * account's is (claimTry): the first makes the row, the fifth in the window locks it, a locked one
 * gets no try (null). One statement, so parallel tries count one after another.
 */
export async function claimUnknownTry(
  tx: Tx,
  merchantId: string,
  identifierHash: string,
  now: Date,
  windowMs: number,
  maxTries: number,
): Promise<{ failures: number; lockedUntil: Date | null } | null> {
  const counted = countedTry(unknownSignIns.failures, unknownSignIns.windowStart, unknownSignIns.lockedUntil, now, windowMs, maxTries);
  const [row] = await tx
    .insert(unknownSignIns)
    .values({ merchantId, identifierHash, failures: 1, windowStart: now, lockedUntil: maxTries <= 1 ? new Date(now.getTime() + windowMs) : null })
    .onConflictDoUpdate({
      target: [unknownSignIns.merchantId, unknownSignIns.identifierHash],
      set: { failures: counted.count, windowStart: counted.windowStart, lockedUntil: counted.lockedUntil },
      setWhere: counted.open,
    })
    .returning({ failures: unknownSignIns.failures, lockedUntil: unknownSignIns.lockedUntil });
  return row ?? null;
}

/** Until when password sign-in for a phone or e-mail that is no account is locked, if it is. */
export async function findUnknownLock(tx: Tx, merchantId: string, identifierHash: string): Promise<Date | null> {
  const [row] = await tx
    .select({ lockedUntil: unknownSignIns.lockedUntil })
    .from(unknownSignIns)
    .where(and(eq(unknownSignIns.merchantId, merchantId), eq(unknownSignIns.identifierHash, identifierHash)));
  return row?.lockedUntil ?? null;
}

/** Forgets the counts of unknown identifiers whose window and lock have both ended before `before`. */
export async function pruneUnknownSignIns(tx: Tx, merchantId: string, before: Date) {
  const at = before.toISOString();
  await tx
    .delete(unknownSignIns)
    .where(
      and(
        eq(unknownSignIns.merchantId, merchantId),
        sql`${unknownSignIns.windowStart} < ${at}::timestamptz`,
        sql`(${unknownSignIns.lockedUntil} is null or ${unknownSignIns.lockedUntil} < ${at}::timestamptz)`,
      ),
    );
}

/** Until when password sign-in is locked, if it is. */
export async function findAccountLock(tx: Tx, accountId: string): Promise<Date | null> {
  const [row] = await tx.select({ lockedUntil: accounts.lockedUntil }).from(accounts).where(eq(accounts.id, accountId));
  return row?.lockedUntil ?? null;
}

export async function clearFailedLogins(tx: Tx, accountId: string) {
  await tx.update(accounts).set(loginTriesCleared).where(eq(accounts.id, accountId));
}

export async function listAccounts(tx: Tx, merchantId: string) {
  return tx
    .select({
      id: accounts.id,
      phonePrefix: accounts.phonePrefix,
      phone: accounts.phone,
      email: accounts.email,
      status: accounts.status,
      createdAt: accounts.createdAt,
      managerName: customerManagers.name,
      invitationCode: customerManagers.invitationCode,
    })
    .from(accounts)
    .leftJoin(customerManagers, eq(customerManagers.id, accounts.managerId))
    .where(eq(accounts.merchantId, merchantId))
    .orderBy(asc(accounts.createdAt));
}

export async function findTrustedDevice(tx: Tx, accountId: string, secretHash: string, now: Date) {
  const rows = await tx
    .select()
    .from(trustedDevices)
    .where(
      and(
        eq(trustedDevices.accountId, accountId),
        eq(trustedDevices.secretHash, secretHash),
        isNull(trustedDevices.revokedAt),
        gt(trustedDevices.expiresAt, now),
      ),
    )
    .limit(1);
  return rows[0];
}

export async function touchTrustedDevice(tx: Tx, id: string, now: Date, ip: string) {
  await tx.update(trustedDevices).set({ lastUsedAt: now, ip }).where(eq(trustedDevices.id, id));
}

export async function insertTrustedDevice(tx: Tx, values: typeof trustedDevices.$inferInsert) {
  await tx.insert(trustedDevices).values(values);
}


export async function insertResetTicket(tx: Tx, values: typeof resetTickets.$inferInsert) {
  await tx.insert(resetTickets).values(values);
}

/** Uses a live reset ticket of the account once; false when there is none. */
export async function useResetTicket(tx: Tx, merchantId: string, accountId: string, ticketHash: string, now: Date) {
  const rows = await tx
    .update(resetTickets)
    .set({ usedAt: now })
    .where(
      and(
        eq(resetTickets.merchantId, merchantId),
        eq(resetTickets.accountId, accountId),
        eq(resetTickets.ticketHash, ticketHash),
        isNull(resetTickets.usedAt),
        gt(resetTickets.expiresAt, now),
      ),
    )
    .returning({ id: resetTickets.id });
  return rows.length === 1;
}

export async function findAccountById(tx: Tx, accountId: string) {
  const rows = await tx.select().from(accounts).where(eq(accounts.id, accountId)).limit(1);
  return rows[0];
}

/** Another account of the merchant that signs in with this phone, if there is one. */
export async function findOtherAccountByPhone(tx: Tx, merchantId: string, accountId: string, prefix: string, phone: string) {
  const rows = await tx
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(eq(accounts.merchantId, merchantId), eq(accounts.phonePrefix, prefix), eq(accounts.phone, phone), ne(accounts.id, accountId)))
    .limit(1);
  return rows[0];
}

/** Replaces the account's e-mail; a unique violation when another account has it. */
export async function setEmail(tx: Tx, accountId: string, email: string) {
  await tx.update(accounts).set({ email: email.toLowerCase() }).where(eq(accounts.id, accountId));
}

/** Replaces the account's phone; a unique violation when another account has it. */
export async function setPhone(tx: Tx, accountId: string, prefix: string, phone: string) {
  await tx.update(accounts).set({ phonePrefix: prefix, phone }).where(eq(accounts.id, accountId));
}

/** How many sign-in attempts each account keeps, newest first; older ones are deleted as new ones come. */
export const LOGIN_ATTEMPTS_KEPT = 200;

/** Records a sign-in attempt, and deletes the account's attempts beyond the newest LOGIN_ATTEMPTS_KEPT. */
export async function recordLoginAttempt(tx: Tx, values: typeof loginAttempts.$inferInsert) {
  await tx.insert(loginAttempts).values(values);
  await tx.execute(sql`
    delete from ${loginAttempts}
    where ${loginAttempts.accountId} = ${values.accountId}
      and ${loginAttempts.at} < (
        select ${loginAttempts.at} from ${loginAttempts}
        where ${loginAttempts.accountId} = ${values.accountId}
        order by ${loginAttempts.at} desc nulls last
        offset ${LOGIN_ATTEMPTS_KEPT - 1} limit 1
      )`);
}
