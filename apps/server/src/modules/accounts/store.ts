import { and, asc, eq, getTableColumns, gt, isNull, ne, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Tx } from '../../db/engine.ts';
import { maskPhone } from '../../lib/mask.ts';
import { accounts, customerManagers, loginAttempts, members, resetTickets, trustedDevices, unknownSignIns } from '../../db/schema.ts';

/** A member as sign-in and the security centre read them, with their account's status. */
export type MemberRow = typeof members.$inferSelect & { accountStatus: string; managerId: string | null };

/** A member who can still sign in or be found: not removed. */
const notRemoved = sql`${members.status} <> 'REMOVED'`;

const memberWithAccount = { ...getTableColumns(members), accountStatus: accounts.status, managerId: accounts.managerId };

/** Each kind of password's wrong tries and lock, as a new password or a right one leaves them. */
const loginTriesCleared = { failedLogins: 0, failedWindowStart: null, lockedUntil: null };
const tradeTriesCleared = { trxFailedTries: 0, trxFailedWindowStart: null, trxLockedUntil: null };

/** The member of the merchant who signs in with this phone (not removed), with their account's status. */
export async function findMemberByPhone(tx: Tx, merchantId: string, prefix: string, phone: string): Promise<MemberRow | undefined> {
  const rows = await tx
    .select(memberWithAccount)
    .from(members)
    .innerJoin(accounts, eq(accounts.id, members.accountId))
    .where(and(eq(members.merchantId, merchantId), eq(members.phonePrefix, prefix), eq(members.phone, phone), notRemoved))
    .limit(1);
  return rows[0];
}

/** The member of the merchant who signs in with this e-mail (not removed), with their account's status. */
export async function findMemberByEmail(tx: Tx, merchantId: string, email: string): Promise<MemberRow | undefined> {
  const rows = await tx
    .select(memberWithAccount)
    .from(members)
    .innerJoin(accounts, eq(accounts.id, members.accountId))
    .where(and(eq(members.merchantId, merchantId), eq(members.email, email.toLowerCase()), notRemoved))
    .limit(1);
  return rows[0];
}

/** The e-mail addresses of the account's active members whose role is one of `roles`. */
export async function memberEmailsWithRoles(tx: Tx, accountId: string, roles: readonly string[]) {
  const rows = await tx
    .select({ email: members.email, role: members.role })
    .from(members)
    .where(and(eq(members.accountId, accountId), eq(members.status, 'ACTIVE')));
  return [...new Set(rows.filter((row) => row.email && roles.includes(row.role)).map((row) => row.email as string))];
}

export interface NewOwner {
  merchantId: string;
  phonePrefix: string;
  phone: string;
  email?: string | null;
  passwordHash: string;
  managerId?: string | null;
}

/**
 * A new account and its owner, whose member id is the account's: answers the owner, or undefined
 * when the phone (or e-mail) already signs in at the merchant, and then nothing is written.
 */
export async function insertAccountWithOwner(tx: Tx, values: NewOwner): Promise<MemberRow | undefined> {
  const name = `${maskPhone(values.phone)} 的团队`;
  const [account] = await tx.insert(accounts).values({ merchantId: values.merchantId, name, managerId: values.managerId ?? null }).returning();
  if (!account) throw new Error('account insert returned nothing');
  const [owner] = await tx
    .insert(members)
    .values({
      id: account.id,
      merchantId: values.merchantId,
      accountId: account.id,
      role: 'OWNER',
      phonePrefix: values.phonePrefix,
      phone: values.phone,
      email: values.email ? values.email.toLowerCase() : null,
      passwordHash: values.passwordHash,
    })
    .onConflictDoNothing()
    .returning();
  if (!owner) {
    // no account without its owner
    await tx.delete(accounts).where(eq(accounts.id, account.id));
    return undefined;
  }
  return { ...owner, accountStatus: account.status, managerId: account.managerId };
}

/** A member joining an existing account by an invitation; undefined when the phone or e-mail already signs in at the merchant. */
export async function insertInvitedMember(
  tx: Tx,
  values: NewOwner & { accountId: string; role: string; monthlyBudget: bigint | null; invitedBy: string },
): Promise<MemberRow | undefined> {
  const [member] = await tx
    .insert(members)
    .values({
      merchantId: values.merchantId,
      accountId: values.accountId,
      role: values.role,
      phonePrefix: values.phonePrefix,
      phone: values.phone,
      email: values.email ? values.email.toLowerCase() : null,
      passwordHash: values.passwordHash,
      monthlyBudget: values.monthlyBudget,
      invitedBy: values.invitedBy,
    })
    .onConflictDoNothing()
    .returning();
  if (!member) return undefined;
  const [account] = await tx.select({ status: accounts.status, managerId: accounts.managerId }).from(accounts).where(eq(accounts.id, values.accountId));
  return { ...member, accountStatus: account?.status ?? 'ACTIVE', managerId: account?.managerId ?? null };
}

/** Sets the e-mail of an account that has none; false when it already had one or the e-mail is taken. */
export async function setEmailIfNone(tx: Tx, memberId: string, email: string) {
  const rows = await tx
    .update(members)
    .set({ email: email.toLowerCase() })
    .where(and(eq(members.id, memberId), isNull(members.email)))
    .returning({ id: members.id });
  return rows.length === 1;
}

export async function setPassword(tx: Tx, memberId: string, passwordHash: string) {
  await tx
    .update(members)
    .set({ passwordHash, ...loginTriesCleared })
    .where(eq(members.id, memberId));
}

/**
 * Sets the trade password; its wrong tries and any lock end with the old one. With `expected` (the
 * hash that was checked, null for none) only if it is still that one, so two changes at once cannot
 * both land: false when it had changed in between. Without it (the e-mail reset), whatever it was.
 */
export async function setTrxPassword(tx: Tx, memberId: string, trxPasswordHash: string, expected?: string | null) {
  const still = expected === undefined ? undefined : expected === null ? isNull(members.trxPasswordHash) : eq(members.trxPasswordHash, expected);
  const rows = await tx
    .update(members)
    .set({ trxPasswordHash, ...tradeTriesCleared })
    .where(and(eq(members.id, memberId), still))
    .returning({ id: members.id });
  return rows.length === 1;
}

/** The account's trade password hash; null: none set. */
export async function findTradePasswordHash(tx: Tx, memberId: string) {
  const [row] = await tx.select({ hash: members.trxPasswordHash }).from(members).where(eq(members.id, memberId));
  return row?.hash ?? null;
}

/**
 * The trade password with its count, the member's row locked until the transaction ends: one
 * account's trade password checks run one at a time, each seeing the count the one before left.
 */
export async function lockTradePassword(tx: Tx, memberId: string) {
  const [row] = await tx
    .select({ hash: members.trxPasswordHash, failures: members.trxFailedTries, lockedUntil: members.trxLockedUntil })
    .from(members)
    .where(eq(members.id, memberId))
    .for('update');
  return row ?? { hash: null, failures: 0, lockedUntil: null };
}

/** A right trade password: the tries counted before it are no failures. */
export async function clearTradePasswordTries(tx: Tx, memberId: string) {
  await tx.update(members).set(tradeTriesCleared).where(eq(members.id, memberId));
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

/** The columns that count one kind of password's wrong tries on the member row. */
const tryCounters = {
  login: { count: 'failedLogins', windowStart: 'failedWindowStart', lockedUntil: 'lockedUntil' },
  trade: { count: 'trxFailedTries', windowStart: 'trxFailedWindowStart', lockedUntil: 'trxLockedUntil' },
} as const;

/**
 * Counts a password try before the password is checked, in one statement: the try is counted as a
 * failure now (a right password clears it afterwards), and the try that reaches `maxTries` in the
 * window locks the password for `windowMs` at once. An account locked already gets no try (null),
 * so however many tries arrive together, at most `maxTries` passwords are checked per window: the
 * update holds the member's row, and each waiting try sees the count of the one before.
 */
async function claimTry(
  tx: Tx,
  kind: keyof typeof tryCounters,
  memberId: string,
  now: Date,
  windowMs: number,
  maxTries: number,
): Promise<{ failures: number; lockedUntil: Date | null } | null> {
  const columns = tryCounters[kind];
  const failures = members[columns.count];
  const lockedUntil = members[columns.lockedUntil];
  const counted = countedTry(failures, members[columns.windowStart], lockedUntil, now, windowMs, maxTries);
  const [row] = await tx
    .update(members)
    .set({ [columns.count]: counted.count, [columns.windowStart]: counted.windowStart, [columns.lockedUntil]: counted.lockedUntil })
    .where(and(eq(members.id, memberId), counted.open))
    .returning({ failures, lockedUntil });
  if (!row) return null;
  return { failures: row.failures, lockedUntil: row.lockedUntil };
}

/** A password sign-in's try, counted before the password is checked (claimTry); the fifth wrong one in 15 minutes locks sign-in. */
export const claimPasswordTry = (tx: Tx, memberId: string, now: Date, windowMs: number, maxTries: number) =>
  claimTry(tx, 'login', memberId, now, windowMs, maxTries);

/** A wrong trade password, wherever it was typed, counted (claimTry) while its check holds the member's row (lockTradePassword). */
export const countWrongTradePassword = (tx: Tx, memberId: string, now: Date, windowMs: number, maxTries: number) =>
  claimTry(tx, 'trade', memberId, now, windowMs, maxTries);

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
export async function findMemberLock(tx: Tx, memberId: string): Promise<Date | null> {
  const [row] = await tx.select({ lockedUntil: members.lockedUntil }).from(members).where(eq(members.id, memberId));
  return row?.lockedUntil ?? null;
}

export async function clearFailedLogins(tx: Tx, memberId: string) {
  await tx.update(members).set(loginTriesCleared).where(eq(members.id, memberId));
}

export async function listAccounts(tx: Tx, merchantId: string) {
  return tx
    .select({
      id: accounts.id,
      name: accounts.name,
      phonePrefix: members.phonePrefix,
      phone: members.phone,
      email: members.email,
      status: accounts.status,
      createdAt: accounts.createdAt,
      managerName: customerManagers.name,
      invitationCode: customerManagers.invitationCode,
    })
    .from(accounts)
    .innerJoin(members, and(eq(members.accountId, accounts.id), eq(members.role, 'OWNER')))
    .leftJoin(customerManagers, eq(customerManagers.id, accounts.managerId))
    .where(eq(accounts.merchantId, merchantId))
    .orderBy(asc(accounts.createdAt));
}

export async function findTrustedDevice(tx: Tx, memberId: string, secretHash: string, now: Date) {
  const rows = await tx
    .select()
    .from(trustedDevices)
    .where(
      and(
        eq(trustedDevices.memberId, memberId),
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

/** Uses a live reset ticket of the member once; false when there is none. */
export async function useResetTicket(tx: Tx, merchantId: string, memberId: string, ticketHash: string, now: Date) {
  const rows = await tx
    .update(resetTickets)
    .set({ usedAt: now })
    .where(
      and(
        eq(resetTickets.merchantId, merchantId),
        eq(resetTickets.memberId, memberId),
        eq(resetTickets.ticketHash, ticketHash),
        isNull(resetTickets.usedAt),
        gt(resetTickets.expiresAt, now),
      ),
    )
    .returning({ id: resetTickets.id });
  return rows.length === 1;
}

/** A member by id (removed ones too), with their account's status. */
export async function findMemberById(tx: Tx, memberId: string): Promise<MemberRow | undefined> {
  const rows = await tx.select(memberWithAccount).from(members).innerJoin(accounts, eq(accounts.id, members.accountId)).where(eq(members.id, memberId)).limit(1);
  return rows[0];
}

/** Another member of the merchant that signs in with this phone, if there is one. */
export async function findOtherMemberByPhone(tx: Tx, merchantId: string, memberId: string, prefix: string, phone: string) {
  const rows = await tx
    .select({ id: members.id })
    .from(members)
    .where(and(eq(members.merchantId, merchantId), eq(members.phonePrefix, prefix), eq(members.phone, phone), ne(members.id, memberId), notRemoved))
    .limit(1);
  return rows[0];
}

/** Replaces the member's e-mail; a unique violation when another member has it. */
export async function setEmail(tx: Tx, memberId: string, email: string) {
  await tx.update(members).set({ email: email.toLowerCase() }).where(eq(members.id, memberId));
}

/** Replaces the member's phone; a unique violation when another member has it. */
export async function setPhone(tx: Tx, memberId: string, prefix: string, phone: string) {
  await tx.update(members).set({ phonePrefix: prefix, phone }).where(eq(members.id, memberId));
}

/** How many sign-in attempts each member keeps, newest first; older ones are deleted as new ones come. */
export const LOGIN_ATTEMPTS_KEPT = 200;

/** Records a sign-in attempt, and deletes the member's attempts beyond the newest LOGIN_ATTEMPTS_KEPT. */
export async function recordLoginAttempt(tx: Tx, values: typeof loginAttempts.$inferInsert) {
  await tx.insert(loginAttempts).values(values);
  await tx.execute(sql`
    delete from ${loginAttempts}
    where ${loginAttempts.memberId} = ${values.memberId}
      and ${loginAttempts.at} < (
        select ${loginAttempts.at} from ${loginAttempts}
        where ${loginAttempts.memberId} = ${values.memberId}
        order by ${loginAttempts.at} desc nulls last
        offset ${LOGIN_ATTEMPTS_KEPT - 1} limit 1
      )`);
}
