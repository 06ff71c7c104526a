import type { Tx } from '../../db/engine.ts';
import { issuerEvents } from '../../db/schema.ts';

/** Records an event id; false when it was recorded before (then it is not processed again). */
export async function recordEvent(tx: Tx, values: { id: string; type: string; outcome: string; receivedAt: Date }) {
  const rows = await tx.insert(issuerEvents).values(values).onConflictDoNothing().returning({ id: issuerEvents.id });
  return rows.length === 1;
}

