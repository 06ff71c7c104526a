import { and, asc, count, desc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Tx } from '../../db/engine.ts';
import { rowsOf } from '../../db/raw-rows.ts';
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

/** A receipt of the merchant, of the account when one is named (a customer's own; an operator reads any of the merchant's). */
export async function findReceipt(tx: Tx, merchantId: string, accountId: string | null, id: string) {
  const [row] = await tx
    .select()
    .from(depositReceipts)
    .where(and(eq(depositReceipts.id, id), eq(depositReceipts.merchantId, merchantId), accountId === null ? undefined : eq(depositReceipts.accountId, accountId)));
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

/** A column of values as one array parameter: the statement's text stays the same whatever the count. */
const column = (values: Array<string | null>) => sql.param(values);

/** Records many statement lines at once; answers those that were new (a bank id seen before is left alone). */
export async function insertStatementLines(tx: Tx, merchantId: string, lines: Array<Pick<StatementLineRow, 'bankTxnId' | 'bookedOn' | 'currency' | 'amount' | 'payer' | 'memo' | 'status'>>) {
  if (lines.length === 0) return [];
  const rows = await rowsOf(
    tx.execute(sql`insert into deposit_statement_lines (merchant_id, bank_txn_id, booked_on, currency, amount, payer, memo, status)
      select ${merchantId}::uuid, v.bank, v.booked, v.currency, v.amount, v.payer, v.memo, v.status
      from unnest(${column(lines.map((l) => l.bankTxnId))}::text[], ${column(lines.map((l) => l.bookedOn))}::text[], ${column(lines.map((l) => l.currency))}::text[],
        ${column(lines.map((l) => l.amount.toString()))}::bigint[], ${column(lines.map((l) => l.payer))}::text[], ${column(lines.map((l) => l.memo))}::text[],
        ${column(lines.map((l) => l.status))}::text[]) with ordinality as v(bank, booked, currency, amount, payer, memo, status, n)
      order by v.n
      on conflict do nothing returning id, bank_txn_id`),
  );
  return rows.map((row) => ({ id: String(row.id), bankTxnId: String(row.bank_txn_id) }));
}

/** The lines of these bank ids as imported before. */
export async function statementLinesOf(tx: Tx, merchantId: string, bankTxnIds: string[]) {
  if (bankTxnIds.length === 0) return [];
  return tx
    .select()
    .from(statementLines)
    .where(and(eq(statementLines.merchantId, merchantId), sql`${statementLines.bankTxnId} = any(${column(bankTxnIds)}::text[])`));
}

export async function unmatchedLines(tx: Tx, merchantId: string) {
  return tx
    .select()
    .from(statementLines)
    .where(and(eq(statementLines.merchantId, merchantId), eq(statementLines.status, 'UNMATCHED')))
    .orderBy(asc(statementLines.importedAt));
}

/** Credited deposits whose e-mail has not gone out and that no sender holds (or whose sender's lease ended before `staleBefore`), oldest first. */
export async function unmailed(tx: Tx, limit: number, staleBefore: Date) {
  return tx
    .select()
    .from(deposits)
    .where(and(eq(deposits.status, 'CREDITED'), isNull(deposits.mailedAt), or(isNull(deposits.mailClaimedAt), lt(deposits.mailClaimedAt, staleBefore))))
    .orderBy(asc(deposits.decidedAt))
    .limit(limit);
}

/**
 * Takes a deposit's e-mail for this sender until it is sent: a lease, which another sender may take
 * over once it began before `staleBefore` (its sender stopped); false when another holds it or it went out.
 */
export async function claimMail(tx: Tx, id: string, at: Date, staleBefore: Date) {
  const rows = await tx
    .update(deposits)
    .set({ mailClaimedAt: at })
    .where(and(eq(deposits.id, id), isNull(deposits.mailedAt), or(isNull(deposits.mailClaimedAt), lt(deposits.mailClaimedAt, staleBefore))))
    .returning({ id: deposits.id });
  return rows.length === 1;
}

/** The e-mail went out: recorded once it is sent, never before. */
export async function markMailed(tx: Tx, id: string, at: Date) {
  await tx
    .update(deposits)
    .set({ mailedAt: at })
    .where(and(eq(deposits.id, id), isNull(deposits.mailedAt)));
}

/** Gives a lease back (the send failed), for the next round. */
export async function releaseMail(tx: Tx, id: string, claimedAt: Date) {
  await tx
    .update(deposits)
    .set({ mailClaimedAt: null })
    .where(and(eq(deposits.id, id), eq(deposits.mailClaimedAt, claimedAt)));
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

/**
 * The bank notices of these accounts for exactly these amounts, oldest first, locked (none is skipped
 * for a lock another holds): PENDING ones a statement line credits, and CREDITED ones the operator
 * credited by hand that no line has claimed yet, which a line of the same transfer then claims.
 */
export async function bankNoticesFor(tx: Tx, merchantId: string, currency: string, wanted: Array<{ accountId: string; amount: bigint }>) {
  if (wanted.length === 0) return [];
  const pairs = sql`select * from unnest(${column(wanted.map((w) => w.accountId))}::uuid[], ${column(wanted.map((w) => w.amount.toString()))}::bigint[])`;
  return tx
    .select()
    .from(deposits)
    .where(
      and(
        eq(deposits.merchantId, merchantId),
        eq(deposits.currency, currency),
        eq(deposits.kind, 'BANK'),
        sql`(${deposits.accountId}, ${deposits.amount}) in (${pairs})`,
        or(eq(deposits.status, 'PENDING'), and(eq(deposits.status, 'CREDITED'), isNull(deposits.bankTxnId))),
      ),
    )
    .orderBy(asc(deposits.createdAt), asc(deposits.id))
    .for('update', { skipLocked: true });
}

/** Credited top-ups of statement lines, written in one statement. */
export async function insertCreditedDeposits(
  tx: Tx,
  rows: Array<{ id: string; merchantId: string; accountId: string; currency: string; amount: bigint; payerName: string; transferredAt: Date; ledgerTransactionId: string | null; bankTxnId: string; decidedAt: Date }>,
) {
  if (rows.length === 0) return;
  await tx.execute(sql`insert into deposits (id, merchant_id, account_id, source, currency, amount, credited_amount, payer_name, transferred_at, status, ledger_transaction_id, bank_txn_id, decided_at)
    select v.id, v.merchant_id, v.account_id, 'STATEMENT', v.currency, v.amount, v.amount, v.payer, v.transferred_at, 'CREDITED', v.ltx, v.bank, v.decided_at
    from unnest(${column(rows.map((r) => r.id))}::uuid[], ${column(rows.map((r) => r.merchantId))}::uuid[], ${column(rows.map((r) => r.accountId))}::uuid[],
      ${column(rows.map((r) => r.currency))}::text[], ${column(rows.map((r) => r.amount.toString()))}::bigint[], ${column(rows.map((r) => r.payerName))}::text[],
      ${column(rows.map((r) => r.transferredAt.toISOString()))}::timestamptz[], ${column(rows.map((r) => r.ledgerTransactionId))}::uuid[],
      ${column(rows.map((r) => r.bankTxnId))}::text[], ${column(rows.map((r) => r.decidedAt.toISOString()))}::timestamptz[])
      as v(id, merchant_id, account_id, currency, amount, payer, transferred_at, ltx, bank, decided_at)`);
}

/** Notices a statement's lines answer, in one statement: each gets its line's bank id and, when the line credited it, its credit. */
export async function settleNotices(tx: Tx, items: Array<{ id: string; bankTxnId: string; credit: { amount: bigint; ledgerTransactionId: string | null; at: Date } | null }>) {
  if (items.length === 0) return;
  const values = sql`select * from unnest(${column(items.map((i) => i.id))}::uuid[], ${column(items.map((i) => i.bankTxnId))}::text[],
    ${column(items.map((i) => (i.credit ? i.credit.amount.toString() : null)))}::bigint[], ${column(items.map((i) => i.credit?.ledgerTransactionId ?? null))}::uuid[],
    ${column(items.map((i) => (i.credit ? i.credit.at.toISOString() : null)))}::timestamptz[])`;
  await tx.execute(sql`update deposits d set bank_txn_id = v.bank,
      status = case when v.amount is null then d.status else 'CREDITED' end,
      credited_amount = coalesce(v.amount, d.credited_amount),
      ledger_transaction_id = case when v.amount is null then d.ledger_transaction_id else v.ltx end,
      decided_at = coalesce(v.at, d.decided_at)
    from (${values}) as v(id, bank, amount, ltx, at) where d.id = v.id`);
}

/** What became of statement lines, in one statement: the deposit each credited (or claimed), or UNMATCHED for a person. */
export async function settleLines(tx: Tx, items: Array<{ id: string; depositId: string | null; status: 'MATCHED' | 'UNMATCHED'; creditedBy?: string; creditedAt?: Date }>) {
  if (items.length === 0) return;
  const values = sql`select * from unnest(${column(items.map((i) => i.id))}::uuid[], ${column(items.map((i) => i.depositId))}::uuid[], ${column(items.map((i) => i.status))}::text[],
    ${column(items.map((i) => i.creditedBy ?? null))}::text[], ${column(items.map((i) => (i.creditedAt ? i.creditedAt.toISOString() : null)))}::timestamptz[])`;
  await tx.execute(sql`update deposit_statement_lines l set deposit_id = coalesce(v.deposit, l.deposit_id), status = v.status,
      credited_by = coalesce(v.who, l.credited_by), credited_at = coalesce(v.at, l.credited_at)
    from (${values}) as v(id, deposit, status, who, at) where l.id = v.id`);
}

/** A statement line of the merchant, locked until the caller's transaction ends. */
export async function lineForUpdate(tx: Tx, merchantId: string, bankTxnId: string) {
  const [row] = await tx
    .select()
    .from(statementLines)
    .where(and(eq(statementLines.merchantId, merchantId), eq(statementLines.bankTxnId, bankTxnId)))
    .for('update');
  return row;
}
