import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Tx } from '../../db/engine.ts';
import { accounts, budgetUsage, cards, members } from '../../db/schema.ts';

/** A member as the team's screens read them. */
export type TeamMemberRow = typeof members.$inferSelect;

const notRemoved = ne(members.status, 'REMOVED');

/** A card counts as held while it is not cancelled and did not fail to open. */
const heldCards = (memberId: typeof members.id) =>
  sql<number>`(select count(*)::int from ${cards} where ${cards.holderMemberId} = ${memberId} and ${cards.status} not in ('DELETE', 'FAIL'))`;

/** The account's members who are not removed, oldest first, with what their budget used in `month` and the cards they hold. */
export async function listMembers(tx: Tx, accountId: string, month: string) {
  return tx
    .select({
      member: members,
      used: sql<string>`coalesce(${budgetUsage.used}, 0)::text`,
      cardsHeld: heldCards(members.id),
    })
    .from(members)
    .leftJoin(budgetUsage, and(eq(budgetUsage.memberId, members.id), eq(budgetUsage.month, month)))
    .where(and(eq(members.accountId, accountId), notRemoved))
    .orderBy(asc(members.createdAt), asc(members.id));
}

/** One member of the account (not removed), optionally locked; undefined for another account's or an unknown id. */
export async function findMember(tx: Tx, accountId: string, memberId: string, { lock = false } = {}) {
  const query = tx
    .select()
    .from(members)
    .where(and(eq(members.id, memberId), eq(members.accountId, accountId), notRemoved));
  const [row] = await (lock ? query.for('update') : query);
  return row;
}

/** The roles of these members of the account who are still in it. */
export async function rolesOf(tx: Tx, accountId: string, memberIds: string[]) {
  if (memberIds.length === 0) return [];
  return tx
    .select({ id: members.id, role: members.role })
    .from(members)
    .where(and(eq(members.accountId, accountId), inArray(members.id, memberIds), notRemoved));
}

/** The account's owner. */
export async function findOwner(tx: Tx, accountId: string) {
  const [row] = await tx
    .select()
    .from(members)
    .where(and(eq(members.accountId, accountId), eq(members.role, 'OWNER'), notRemoved));
  if (!row) throw new Error(`account ${accountId} has no owner`);
  return row;
}

export async function updateMember(tx: Tx, memberId: string, changes: Partial<Pick<TeamMemberRow, 'role' | 'status' | 'monthlyBudget' | 'removedAt'>>) {
  const [row] = await tx.update(members).set(changes).where(eq(members.id, memberId)).returning();
  if (!row) throw new Error(`member ${memberId} vanished`);
  return row;
}

/** What a member's budget used in `month` (minor units). */
export async function budgetUsed(tx: Tx, memberId: string, month: string) {
  const [row] = await tx
    .select({ used: budgetUsage.used })
    .from(budgetUsage)
    .where(and(eq(budgetUsage.memberId, memberId), eq(budgetUsage.month, month)));
  return row?.used ?? 0n;
}

/** The cards a member holds (for one member's row in the answer). */
export async function countHeld(tx: Tx, memberId: string) {
  const [row] = await tx.select({ n: heldCards(members.id) }).from(members).where(eq(members.id, memberId));
  return row?.n ?? 0;
}

export async function renameAccount(tx: Tx, accountId: string, name: string) {
  await tx.update(accounts).set({ name }).where(eq(accounts.id, accountId));
}

/** The e-mail addresses of the account's active members who hold one of `roles` or are one of `memberIds`. */
export async function mailboxesOf(tx: Tx, accountId: string, roles: readonly string[], memberIds: readonly string[]) {
  const rows = await tx
    .select({ id: members.id, role: members.role, email: members.email })
    .from(members)
    .where(and(eq(members.accountId, accountId), eq(members.status, 'ACTIVE')));
  return [...new Set(rows.filter((row) => row.email && (roles.includes(row.role) || memberIds.includes(row.id))).map((row) => row.email as string))];
}
