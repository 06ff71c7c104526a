import { and, desc, eq, gte, inArray, sql } from 'drizzle-orm';
import type { Tx } from '../../db/engine.ts';
import { big, rowsOf } from '../../db/raw-rows.ts';
import { autoRechargeRuns, balanceAlertMarks, balanceAlerts, balanceAlertSettings, cardAutoRecharge } from '../../db/schema.ts';

/** The SQL of auto top-up rules and their runs, and of low-balance alerts. */

export type RuleRow = typeof cardAutoRecharge.$inferSelect;
export type RunRow = typeof autoRechargeRuns.$inferSelect;
export type AlertSettingsRow = typeof balanceAlertSettings.$inferSelect;
export type AlertRow = typeof balanceAlerts.$inferSelect;

export async function findRule(tx: Tx, cardId: string, { lock = false } = {}) {
  const query = tx.select().from(cardAutoRecharge).where(eq(cardAutoRecharge.cardId, cardId));
  const [row] = await (lock ? query.for('update') : query);
  return row;
}

export async function saveRule(tx: Tx, row: typeof cardAutoRecharge.$inferInsert) {
  const { cardId: _card, ...changes } = row;
  const [saved] = await tx.insert(cardAutoRecharge).values(row).onConflictDoUpdate({ target: cardAutoRecharge.cardId, set: changes }).returning();
  if (!saved) throw new Error(`auto top-up rule of ${row.cardId} not saved`);
  return saved;
}

export async function updateRule(tx: Tx, cardId: string, changes: Partial<RuleRow>) {
  const [row] = await tx.update(cardAutoRecharge).set(changes).where(eq(cardAutoRecharge.cardId, cardId)).returning();
  return row;
}

/** The account's paused rules in a currency. */
export async function pausedRules(tx: Tx, accountId: string, currency: string) {
  return tx
    .select()
    .from(cardAutoRecharge)
    .where(and(eq(cardAutoRecharge.accountId, accountId), eq(cardAutoRecharge.currency, currency), eq(cardAutoRecharge.status, 'PAUSED'), eq(cardAutoRecharge.enabled, true)));
}

/**
 * What a watched movement of a card needs, in one read: the card's rule, the account's card threshold
 * and whether the card was marked (below a threshold when it was set).
 */
export async function cardWatchState(tx: Tx, accountId: string, cardId: string) {
  const [row] = await rowsOf(
    tx.execute(sql`select r.enabled, r.status, r.threshold::text as threshold, r.pending,
        s.card_default::text as card_default,
        exists (select 1 from balance_alert_marks m where m.account_id = ${accountId}::uuid and m.subject = ${`CARD:${cardId}`}) as marked
      from (select 1) one
      left join card_auto_recharge r on r.card_id = ${cardId}::uuid
      left join balance_alert_settings s on s.account_id = ${accountId}::uuid`),
  );
  return {
    rule: row?.threshold === null || row?.threshold === undefined ? null : { enabled: row.enabled === true, status: String(row.status), threshold: big(row.threshold), pending: row.pending === true },
    cardDefault: row?.card_default === null || row?.card_default === undefined ? null : big(row.card_default),
    marked: row?.marked === true,
  };
}

/** What a watched movement of a wallet needs: the account's threshold in the currency, the mark, and whether any rule waits for funds. */
export async function walletWatchState(tx: Tx, accountId: string, currency: string) {
  const [row] = await rowsOf(
    tx.execute(sql`select s.wallet ->> ${currency} as threshold,
        exists (select 1 from balance_alert_marks m where m.account_id = ${accountId}::uuid and m.subject = ${`WALLET:${currency}`}) as marked,
        exists (select 1 from card_auto_recharge r where r.account_id = ${accountId}::uuid and r.currency = ${currency} and r.status = 'PAUSED' and r.enabled) as paused
      from (select 1) one
      left join balance_alert_settings s on s.account_id = ${accountId}::uuid`),
  );
  return {
    threshold: row?.threshold === null || row?.threshold === undefined ? null : big(row.threshold),
    marked: row?.marked === true,
    paused: row?.paused === true,
  };
}

export async function insertRun(tx: Tx, run: typeof autoRechargeRuns.$inferInsert) {
  await tx.insert(autoRechargeRuns).values(run);
}

export async function findRun(tx: Tx, id: string, { lock = false } = {}) {
  const query = tx.select().from(autoRechargeRuns).where(eq(autoRechargeRuns.id, id));
  const [row] = await (lock ? query.for('update') : query);
  return row;
}

export async function updateRun(tx: Tx, id: string, changes: Partial<RunRow>) {
  await tx.update(autoRechargeRuns).set(changes).where(eq(autoRechargeRuns.id, id));
}

/** What the card's runs put on it since `since` (done ones, and the amount fixed by one still running). */
export async function toppedUpSince(tx: Tx, cardId: string, since: Date, except?: string) {
  const [row] = await rowsOf(
    tx.execute(sql`select coalesce(sum(amount), 0)::text as total from auto_recharge_runs
      where card_id = ${cardId}::uuid and created_at >= ${since.toISOString()}::timestamptz and amount is not null
        and status in ('DONE', 'PENDING') ${except ? sql`and id <> ${except}::uuid` : sql``}`),
  );
  return big(row?.total ?? '0');
}

export async function latestRun(tx: Tx, cardId: string) {
  const [row] = await tx.select().from(autoRechargeRuns).where(eq(autoRechargeRuns.cardId, cardId)).orderBy(desc(autoRechargeRuns.createdAt)).limit(1);
  return row;
}

/** The runs of a card since `since`, newest first. */
export async function runsSince(tx: Tx, cardId: string, since: Date) {
  return tx
    .select()
    .from(autoRechargeRuns)
    .where(and(eq(autoRechargeRuns.cardId, cardId), gte(autoRechargeRuns.createdAt, since)))
    .orderBy(desc(autoRechargeRuns.createdAt));
}

/** The rules that are on of these cards. */
export async function rulesOn(tx: Tx, cardIds: string[]) {
  if (cardIds.length === 0) return [];
  return tx
    .select({
      cardId: cardAutoRecharge.cardId,
      threshold: cardAutoRecharge.threshold,
      target: cardAutoRecharge.target,
      status: cardAutoRecharge.status,
      source: cardAutoRecharge.source,
      sourceTag: cardAutoRecharge.sourceTag,
    })
    .from(cardAutoRecharge)
    .where(and(inArray(cardAutoRecharge.cardId, cardIds), eq(cardAutoRecharge.enabled, true)));
}

export async function findAlertSettings(tx: Tx, accountId: string) {
  const [row] = await tx.select().from(balanceAlertSettings).where(eq(balanceAlertSettings.accountId, accountId));
  return row;
}

export async function saveAlertSettings(tx: Tx, row: typeof balanceAlertSettings.$inferInsert) {
  const { accountId: _account, ...changes } = row;
  const [saved] = await tx.insert(balanceAlertSettings).values(row).onConflictDoUpdate({ target: balanceAlertSettings.accountId, set: changes }).returning();
  if (!saved) throw new Error(`alerts of ${row.accountId} not saved`);
  return saved;
}

export async function addMarks(tx: Tx, accountId: string, subjects: string[]) {
  if (subjects.length > 0) await tx.insert(balanceAlertMarks).values(subjects.map((subject) => ({ accountId, subject }))).onConflictDoNothing();
}

/** Replaces the account's marks of one kind (`prefix` WALLET: or CARD:) with `subjects`. */
export async function replaceMarks(tx: Tx, accountId: string, prefix: string, subjects: string[]) {
  await tx.delete(balanceAlertMarks).where(and(eq(balanceAlertMarks.accountId, accountId), sql`${balanceAlertMarks.subject} like ${`${prefix}%`}`));
  await addMarks(tx, accountId, subjects);
}

export async function dropMark(tx: Tx, accountId: string, subject: string) {
  await tx.delete(balanceAlertMarks).where(and(eq(balanceAlertMarks.accountId, accountId), eq(balanceAlertMarks.subject, subject)));
}

export async function insertAlert(tx: Tx, alert: typeof balanceAlerts.$inferInsert) {
  await tx.insert(balanceAlerts).values(alert);
}

export async function findAlert(tx: Tx, id: string, { lock = false } = {}) {
  const query = tx.select().from(balanceAlerts).where(eq(balanceAlerts.id, id));
  const [row] = await (lock ? query.for('update') : query);
  return row;
}

export async function updateAlert(tx: Tx, id: string, changes: Partial<AlertRow>) {
  await tx.update(balanceAlerts).set(changes).where(eq(balanceAlerts.id, id));
}
