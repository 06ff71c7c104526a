import type { Tx } from '../../db/engine.ts';
import { auditRules, auditViolations, ledgerSize } from './audit-store.ts';

/** The rules the audit checks, as `ledger:check` lists them. */
export const ledgerAuditRules: readonly string[] = auditRules;

/** Checks every invariant of the books; sound books answer no violations. */
export async function auditLedger(tx: Tx) {
  const violations = await auditViolations(tx);
  return { violations, size: await ledgerSize(tx) };
}
