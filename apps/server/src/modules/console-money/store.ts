import { and, count, desc, eq, gt, lte, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Tx } from '../../db/engine.ts';
import { accounts, approvalThresholds, depositReferences, deposits, moneyRequests, operators, statementLines } from '../../db/schema.ts';

/**
 * The SQL of the console's money: its own requests and thresholds, and the merchant-wide reads of the
 * funding tables the console lists (deposits with whose they are, unmatched statement lines) that no
 * customer's call makes.
 */

export type MoneyRequestRow = typeof moneyRequests.$inferSelect;
export type NewMoneyRequestRow = typeof moneyRequests.$inferInsert;

export async function thresholdOf(tx: Tx, merchantId: string) {
  const [row] = await tx.select({ amount: approvalThresholds.amount }).from(approvalThresholds).where(eq(approvalThresholds.merchantId, merchantId));
  return row?.amount;
}

export async function saveThreshold(tx: Tx, merchantId: string, amount: bigint, at: Date) {
  await tx
    .insert(approvalThresholds)
    .values({ merchantId, amount, updatedAt: at })
    .onConflictDoUpdate({ target: approvalThresholds.merchantId, set: { amount, updatedAt: at } });
}

export async function accountOfMerchant(tx: Tx, merchantId: string, accountId: string) {
  const [row] = await tx.select({ id: accounts.id }).from(accounts).where(and(eq(accounts.id, accountId), eq(accounts.merchantId, merchantId)));
  return row;
}

export async function insertRequest(tx: Tx, row: NewMoneyRequestRow) {
  const [inserted] = await tx.insert(moneyRequests).values(row).returning();
  return inserted as MoneyRequestRow;
}

export async function requestByKey(tx: Tx, merchantId: string, operatorId: string, key: string) {
  const [row] = await tx
    .select()
    .from(moneyRequests)
    .where(and(eq(moneyRequests.merchantId, merchantId), eq(moneyRequests.proposedBy, operatorId), eq(moneyRequests.idempotencyKey, key)));
  return row;
}

export async function findRequest(tx: Tx, merchantId: string, id: string, options: { lock?: boolean } = {}) {
  const query = tx
    .select()
    .from(moneyRequests)
    .where(and(eq(moneyRequests.id, id), eq(moneyRequests.merchantId, merchantId)));
  const [row] = await (options.lock ? query.for('update') : query);
  return row;
}

export async function updateRequest(tx: Tx, id: string, changes: Partial<NewMoneyRequestRow>) {
  const [row] = await tx.update(moneyRequests).set(changes).where(eq(moneyRequests.id, id)).returning();
  return row as MoneyRequestRow;
}

const proposer = alias(operators, 'proposer');
const approver = alias(operators, 'approver');
const rejecter = alias(operators, 'rejecter');

/** A page of the merchant's requests, newest first, with the operators' e-mails and the customer's reference; EXPIRED is a pending one past its time. */
export async function requestPage(tx: Tx, merchantId: string, filter: { status?: string | undefined; now: Date }, page: { limit: number; offset: number }) {
  const byStatus: SQL | undefined =
    filter.status === 'EXPIRED'
      ? and(eq(moneyRequests.status, 'PENDING_APPROVAL'), lte(moneyRequests.expiresAt, filter.now))
      : filter.status === 'PENDING_APPROVAL'
        ? and(eq(moneyRequests.status, 'PENDING_APPROVAL'), gt(moneyRequests.expiresAt, filter.now))
        : filter.status
          ? eq(moneyRequests.status, filter.status)
          : undefined;
  const where = and(eq(moneyRequests.merchantId, merchantId), byStatus);
  const [rows, [total]] = await Promise.all([
    tx
      .select({
        request: moneyRequests,
        reference: depositReferences.reference,
        proposerEmail: proposer.email,
        approverEmail: approver.email,
        rejecterEmail: rejecter.email,
      })
      .from(moneyRequests)
      .leftJoin(depositReferences, eq(depositReferences.accountId, moneyRequests.accountId))
      .leftJoin(proposer, eq(proposer.id, moneyRequests.proposedBy))
      .leftJoin(approver, eq(approver.id, moneyRequests.approvedBy))
      .leftJoin(rejecter, eq(rejecter.id, moneyRequests.rejectedBy))
      .where(where)
      .orderBy(desc(moneyRequests.createdAt), desc(moneyRequests.id))
      .limit(page.limit)
      .offset(page.offset),
    tx.select({ n: count() }).from(moneyRequests).where(where),
  ]);
  return { rows, total: Number(total?.n ?? 0) };
}

/** A page of the merchant's bank deposits (notices and statement credits), newest first, with the customer's reference. */
export async function depositPage(tx: Tx, merchantId: string, status: string | undefined, page: { limit: number; offset: number }) {
  const where = and(eq(deposits.merchantId, merchantId), eq(deposits.kind, 'BANK'), status ? eq(deposits.status, status) : undefined);
  const [rows, [total]] = await Promise.all([
    tx
      .select({ deposit: deposits, reference: depositReferences.reference })
      .from(deposits)
      .leftJoin(depositReferences, eq(depositReferences.accountId, deposits.accountId))
      .where(where)
      .orderBy(desc(deposits.createdAt), desc(deposits.id))
      .limit(page.limit)
      .offset(page.offset),
    tx.select({ n: count() }).from(deposits).where(where),
  ]);
  return { rows, total: Number(total?.n ?? 0) };
}

export async function depositWithReference(tx: Tx, merchantId: string, id: string) {
  const [row] = await tx
    .select({ deposit: deposits, reference: depositReferences.reference })
    .from(deposits)
    .leftJoin(depositReferences, eq(depositReferences.accountId, deposits.accountId))
    .where(and(eq(deposits.id, id), eq(deposits.merchantId, merchantId)));
  return row;
}

/** The merchant's unmatched statement lines, oldest first, with a credit by hand waiting on each (if any). */
export async function unmatchedLines(tx: Tx, merchantId: string) {
  return tx
    .select({ line: statementLines, pendingId: moneyRequests.id })
    .from(statementLines)
    .leftJoin(
      moneyRequests,
      and(eq(moneyRequests.merchantId, statementLines.merchantId), eq(moneyRequests.bankTxnId, statementLines.bankTxnId), eq(moneyRequests.status, 'PENDING_APPROVAL')),
    )
    .where(and(eq(statementLines.merchantId, merchantId), eq(statementLines.status, 'UNMATCHED')))
    .orderBy(statementLines.importedAt, statementLines.bankTxnId);
}

export async function statementLine(tx: Tx, merchantId: string, bankTxnId: string) {
  const [row] = await tx
    .select()
    .from(statementLines)
    .where(and(eq(statementLines.merchantId, merchantId), eq(statementLines.bankTxnId, bankTxnId)));
  return row;
}


export async function referenceOfAccount(tx: Tx, merchantId: string, accountId: string) {
  const [row] = await tx
    .select({ reference: depositReferences.reference })
    .from(depositReferences)
    .where(and(eq(depositReferences.accountId, accountId), eq(depositReferences.merchantId, merchantId)));
  return row?.reference;
}
