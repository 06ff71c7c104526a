import { and, arrayContains, arrayOverlaps, asc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Tx } from '../../db/engine.ts';
import { big, rowsOf } from '../../db/raw-rows.ts';
import { autoRechargePauseMails, cardAutoRecharge, cards, tagAutoRecharge } from '../../db/schema.ts';

/** The SQL of the rules per tag, and of the e-mails of paused rules. */

export type TagRuleRow = typeof tagAutoRecharge.$inferSelect;
export type PauseMailRow = typeof autoRechargePauseMails.$inferSelect;

/**
 * Serialises, per account, what decides which tag rule a card has: a tag's rule saved or removed, a card's
 * tags replaced, a card's own rule removed. Each reads the other's work only once it committed (a
 * statement after the lock sees it), so a card gaining a tag while its rule is saved ends with that rule.
 */
export async function lockTagRules(tx: Tx, accountId: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`tag-auto-recharge:${accountId}`}))`);
}

export async function tagRulesOf(tx: Tx, accountId: string, tags?: readonly string[]) {
  if (tags && tags.length === 0) return [];
  return tx
    .select()
    .from(tagAutoRecharge)
    .where(and(eq(tagAutoRecharge.accountId, accountId), tags ? inArray(tagAutoRecharge.tag, [...tags]) : undefined))
    .orderBy(asc(tagAutoRecharge.tag));
}

export async function saveTagRule(tx: Tx, row: typeof tagAutoRecharge.$inferInsert) {
  const { accountId: _account, tag: _tag, ...changes } = row;
  const [saved] = await tx
    .insert(tagAutoRecharge)
    .values(row)
    .onConflictDoUpdate({ target: [tagAutoRecharge.accountId, tagAutoRecharge.tag], set: changes })
    .returning();
  if (!saved) throw new Error(`auto top-up rule of tag ${row.tag} not saved`);
  return saved;
}

export async function deleteTagRule(tx: Tx, accountId: string, tag: string) {
  const rows = await tx
    .delete(tagAutoRecharge)
    .where(and(eq(tagAutoRecharge.accountId, accountId), eq(tagAutoRecharge.tag, tag)))
    .returning();
  return rows.length > 0;
}

/** The account's cards carrying any of `tags`, in id order (the order their rules are locked in). */
export async function cardsTagged(tx: Tx, accountId: string, tags: readonly string[]) {
  if (tags.length === 0) return [];
  return tx
    .select()
    .from(cards)
    .where(and(eq(cards.accountId, accountId), tags.length === 1 ? arrayContains(cards.tags, [...tags]) : arrayOverlaps(cards.tags, [...tags])))
    .orderBy(asc(cards.id));
}

export async function deleteRule(tx: Tx, cardId: string) {
  await tx.delete(cardAutoRecharge).where(eq(cardAutoRecharge.cardId, cardId));
}

/** Per tag of the account: the cards carrying it, and the cards whose rule in force is that tag's. */
export async function tagRuleCounts(tx: Tx, accountId: string) {
  const rows = await rowsOf(
    tx.execute(sql`select t.tag,
        (select count(*) from cards c where c.account_id = ${accountId}::uuid and c.tags @> array[t.tag]) as tagged,
        (select count(*) from card_auto_recharge r where r.account_id = ${accountId}::uuid and r.source = 'TAG' and r.source_tag = t.tag) as in_force
      from tag_auto_recharge t where t.account_id = ${accountId}::uuid`),
  );
  return new Map(rows.map((row) => [String(row.tag), { tagged: Number(big(String(row.tagged))), inForce: Number(big(String(row.in_force))) }]));
}

export async function insertPauseMails(tx: Tx, rows: Array<typeof autoRechargePauseMails.$inferInsert>) {
  if (rows.length > 0) await tx.insert(autoRechargePauseMails).values(rows);
}

/** Pause e-mails not sent yet whose claim (if any) ran out: the oldest first. */
export async function duePauseMails(tx: Tx, now: Date, limit: number) {
  return tx
    .select()
    .from(autoRechargePauseMails)
    .where(and(isNull(autoRechargePauseMails.mailedAt), or(isNull(autoRechargePauseMails.claimedUntil), lt(autoRechargePauseMails.claimedUntil, now))))
    .orderBy(asc(autoRechargePauseMails.createdAt))
    .limit(limit);
}

/**
 * Claims one e-mail until `until`: only if unsent and unclaimed (or its claim ran out), so of two
 * processes one sends it; a process that dies holding it leaves a claim the next run may take once over.
 */
export async function claimPauseMail(tx: Tx, id: string, now: Date, until: Date) {
  const rows = await tx
    .update(autoRechargePauseMails)
    .set({ claimedUntil: until })
    .where(
      and(
        eq(autoRechargePauseMails.id, id),
        isNull(autoRechargePauseMails.mailedAt),
        or(isNull(autoRechargePauseMails.claimedUntil), lt(autoRechargePauseMails.claimedUntil, now)),
      ),
    )
    .returning();
  return rows[0];
}

/** The e-mail went out: marked by the claim that sent it (one whose claim was taken over changes nothing). */
export async function markPauseMailed(tx: Tx, id: string, claimedUntil: Date, at: Date) {
  await tx
    .update(autoRechargePauseMails)
    .set({ mailedAt: at })
    .where(and(eq(autoRechargePauseMails.id, id), eq(autoRechargePauseMails.claimedUntil, claimedUntil), isNull(autoRechargePauseMails.mailedAt)));
}

/** A send that failed: its claim given back, to be tried again by the next run. */
export async function releasePauseMail(tx: Tx, id: string, claimedUntil: Date) {
  await tx
    .update(autoRechargePauseMails)
    .set({ claimedUntil: null })
    .where(and(eq(autoRechargePauseMails.id, id), eq(autoRechargePauseMails.claimedUntil, claimedUntil)));
}
