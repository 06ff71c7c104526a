import { and, asc, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Tx } from '../../db/engine.ts';
import { depositAccounts, depositReceipts, depositReferences, deposits, merchants, statementLines } from '../../db/schema.ts';

/** The SQL of money in: receiving accounts, references, receipts, deposits and statement lines. */

export type DepositRow = typeof deposits.$inferSelect;
export type DepositAccountRow = typeof depositAccounts.$inferSelect;
export type ReceiptRow = typeof depositReceipts.$inferSelect;
export type StatementLineRow = typeof statementLines.$inferSelect;

export async function findDepositAccount(tx: Tx, merchantId: string, currency: string) {
  const [row] = await tx
    .select()
    .from(depositAccounts)
    .where(and(eq(depositAccounts.merchantId, merchantId), eq(depositAccounts.currency, currency)));
  return row;
}

export async function saveDepositAccount(tx: Tx, values: typeof depositAccounts.$inferInsert) {
  const { merchantId: _m, currency: _c, ...changes } = values;
  const [row] = await tx
    .insert(depositAccounts)
    .values(values)
    .onConflictDoUpdate({ target: [depositAccounts.merchantId, depositAccounts.currency], set: { ...changes, updatedAt: sql`now()` } })
    .returning();
  if (!row) throw new Error('deposit account upsert returned nothing');
  return row;
}

export async function referenceOf(tx: Tx, accountId: string) {
  const [row] = await tx.select().from(depositReferences).where(eq(depositReferences.accountId, accountId));
  return row?.reference;
}

/** Gives the account `reference` unless it has one; false when the code is another account's (or it has one). */
export async function claimReference(tx: Tx, values: { merchantId: string; accountId: string; reference: string }) {
  const rows = await tx.insert(depositReferences).values(values).onConflictDoNothing().returning({ reference: depositReferences.reference });
  return rows.length === 1;
}

/** The accounts of the merchant whose reference is one of `references`. */
export async function accountsByReference(tx: Tx, merchantId: string, references: string[]) {
  if (references.length === 0) return [];
  return tx
    .select({ accountId: depositReferences.accountId, reference: depositReferences.reference })
    .from(depositReferences)
    .where(and(eq(depositReferences.merchantId, merchantId), inArray(depositReferences.reference, references)));
}

export async function insertReceipt(tx: Tx, values: typeof depositReceipts.$inferInsert) {
  const [row] = await tx.insert(depositReceipts).values(values).returning();
  if (!row) throw new Error('receipt insert returned nothing');
  return row;
}

export async function findReceipt(tx: Tx, merchantId: string, accountId: string, id: string) {
  const [row] = await tx
    .select()
    .from(depositReceipts)
    .where(and(eq(depositReceipts.id, id), eq(depositReceipts.merchantId, merchantId), eq(depositReceipts.accountId, accountId)));
  return row;
}

export async function receiptInUse(tx: Tx, receiptId: string) {
  const [row] = await tx.select({ id: deposits.id }).from(deposits).where(eq(deposits.receiptId, receiptId));
  return row !== undefined;
}

export async function insertDeposit(tx: Tx, values: typeof deposits.$inferInsert) {
  const [row] = await tx.insert(deposits).values(values).returning();
  if (!row) throw new Error('deposit insert returned nothing');
  return row;
}

/** A deposit of the merchant, locked until the caller's transaction ends. */
export async function depositForUpdate(tx: Tx, merchantId: string, id: string) {
  const [row] = await tx
    .select()
    .from(deposits)
    .where(and(eq(deposits.id, id), eq(deposits.merchantId, merchantId)))
    .for('update');
  return row;
}

/**
 * The oldest bank notice of the account for exactly this amount (never a USDT deposit), locked; none is
 * skipped for a lock another holds. PENDING: one a statement line credits. CREDITED: one the operator
 * credited by hand that no statement line has claimed yet, which a line of the same transfer then claims
 * rather than crediting the money a second time.
 */
export async function bankNoticeFor(tx: Tx, request: { merchantId: string; accountId: string; currency: string; amount: bigint }, status: 'PENDING' | 'CREDITED') {
  const [row] = await tx
    .select()
    .from(deposits)
    .where(
      and(
        eq(deposits.merchantId, request.merchantId),
        eq(deposits.accountId, request.accountId),
        eq(deposits.currency, request.currency),
        eq(deposits.amount, request.amount),
        eq(deposits.status, status),
        eq(deposits.kind, 'BANK'),
        status === 'CREDITED' ? isNull(deposits.bankTxnId) : undefined,
      ),
    )
    .orderBy(asc(deposits.createdAt), asc(deposits.id))
    .limit(1)
    .for('update', { skipLocked: true });
  return row;
}

export async function updateDeposit(tx: Tx, id: string, changes: Partial<typeof deposits.$inferInsert>) {
  const [row] = await tx.update(deposits).set(changes).where(eq(deposits.id, id)).returning();
  if (!row) throw new Error('deposit update returned nothing');
  return row;
}

export async function depositPage(tx: Tx, merchantId: string, accountId: string, page: { limit: number; offset: number }) {
  const where = and(eq(deposits.merchantId, merchantId), eq(deposits.accountId, accountId));
  const [rows, [total]] = await Promise.all([
    tx.select().from(deposits).where(where).orderBy(desc(deposits.createdAt), desc(deposits.id)).limit(page.limit).offset(page.offset),
    tx.select({ n: count() }).from(deposits).where(where),
  ]);
  return { rows, total: Number(total?.n ?? 0) };
}

/** Records a statement line once per bank id; undefined when that id was imported before. */
export async function insertStatementLine(tx: Tx, values: typeof statementLines.$inferInsert) {
  const [row] = await tx.insert(statementLines).values(values).onConflictDoNothing().returning();
  return row;
}

/** Records many statement lines at once; answers those that were new (a bank id seen before is left alone). */
export async function insertStatementLines(tx: Tx, values: Array<typeof statementLines.$inferInsert>) {
  if (values.length === 0) return [];
  return tx.insert(statementLines).values(values).onConflictDoNothing().returning();
}

/** The lines of these bank ids as imported before. */
export async function statementLinesOf(tx: Tx, merchantId: string, bankTxnIds: string[]) {
  if (bankTxnIds.length === 0) return [];
  return tx
    .select()
    .from(statementLines)
    .where(and(eq(statementLines.merchantId, merchantId), inArray(statementLines.bankTxnId, bankTxnIds)));
}

export async function findStatementLine(tx: Tx, merchantId: string, bankTxnId: string) {
  const [row] = await tx
    .select()
    .from(statementLines)
    .where(and(eq(statementLines.merchantId, merchantId), eq(statementLines.bankTxnId, bankTxnId)));
  return row;
}

export async function unmatchedLines(tx: Tx, merchantId: string) {
  return tx
    .select()
    .from(statementLines)
    .where(and(eq(statementLines.merchantId, merchantId), eq(statementLines.status, 'UNMATCHED')))
    .orderBy(asc(statementLines.importedAt));
}

/** Credited deposits whose e-mail has not gone out, oldest first. */
export async function unmailed(tx: Tx, limit: number) {
  return tx
    .select()
    .from(deposits)
    .where(and(eq(deposits.status, 'CREDITED'), isNull(deposits.mailedAt)))
    .orderBy(asc(deposits.decidedAt))
    .limit(limit);
}

/** Claims a deposit's e-mail for this sender; false when another has it (or it went out). */
export async function claimMail(tx: Tx, id: string, at: Date) {
  const rows = await tx
    .update(deposits)
    .set({ mailedAt: at })
    .where(and(eq(deposits.id, id), isNull(deposits.mailedAt)))
    .returning({ id: deposits.id });
  return rows.length === 1;
}

export async function releaseMail(tx: Tx, id: string) {
  await tx.update(deposits).set({ mailedAt: null }).where(eq(deposits.id, id));
}

export async function markUnmatched(tx: Tx, lineId: string) {
  await tx.update(statementLines).set({ status: 'UNMATCHED' }).where(eq(statementLines.id, lineId));
}

export async function linkLine(tx: Tx, lineId: string, depositId: string) {
  await tx.update(statementLines).set({ depositId }).where(eq(statementLines.id, lineId));
}

/** The merchant's name, as its e-mails sign off. */
export async function merchantNameOf(tx: Tx, merchantId: string) {
  const [row] = await tx.select({ name: merchants.name }).from(merchants).where(eq(merchants.id, merchantId));
  return row?.name ?? '';
}

/** The merchant's pending notices, oldest first, for the operator. */
export async function pendingDeposits(tx: Tx, merchantId: string) {
  return tx
    .select()
    .from(deposits)
    .where(and(eq(deposits.merchantId, merchantId), eq(deposits.status, 'PENDING')))
    .orderBy(asc(deposits.createdAt));
}
