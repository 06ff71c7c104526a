import { eq } from 'drizzle-orm';
import type { Tx } from '../../db/engine.ts';
import { issuerEvents } from '../../db/schema.ts';

/** Records an event id; false when it was recorded before (then it is not processed again). */
export async function recordEvent(tx: Tx, values: { id: string; type: string; outcome: string; receivedAt: Date }) {
  const rows = await tx.insert(issuerEvents).values(values).onConflictDoNothing().returning({ id: issuerEvents.id });
  return rows.length === 1;
}

/** Keeps what the issuer was answered for an event (its decision), to answer a repeat the same. */
export async function saveEventAnswer(tx: Tx, id: string, answer: Record<string, unknown>) {
  await tx.update(issuerEvents).set({ answer }).where(eq(issuerEvents.id, id));
}

/** What an event was answered, if it waited for an answer. */
export async function eventAnswer(tx: Tx, id: string) {
  const [row] = await tx.select({ answer: issuerEvents.answer }).from(issuerEvents).where(eq(issuerEvents.id, id)).limit(1);
  return (row?.answer ?? null) as Record<string, unknown> | null;
}
