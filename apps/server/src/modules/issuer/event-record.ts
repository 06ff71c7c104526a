import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/engine.ts';
import { issuerEvents } from '../../db/schema.ts';
/** The names of the placeholders `eventRecording` writes the event's id, type, outcome and time into. */
export const EVENT_RECORD_PLACEHOLDERS = { id: 'eventId', type: 'eventType', outcome: 'eventOutcome', receivedAt: 'eventReceivedAt' } as const;

/**
 * The recording of an event id as a CTE (`recorded`, one row when the id is new, none when it was
 * recorded before), for a handler's first statement to carry; its values are placeholders.
 */
export function eventRecording(tx: Tx) {
  const names = EVENT_RECORD_PLACEHOLDERS;
  return tx.$with('recorded').as(
    tx
      .insert(issuerEvents)
      .values({
        id: sql`${sql.placeholder(names.id)}`,
        type: sql`${sql.placeholder(names.type)}`,
        outcome: sql`${sql.placeholder(names.outcome)}`,
        receivedAt: sql`${sql.placeholder(names.receivedAt)}::timestamptz`,
      })
      .onConflictDoNothing()
      .returning({ id: issuerEvents.id }),
  );
}

/**
 * How a decision records its event's id: `values` fill the placeholders of `eventRecording(tx)`, the
 * CTE its first statement carries (so recording costs no round trip of its own); `alone` records it in
 * a statement of its own (when there is no first statement to carry it) and answers whether it was new.
 */
export interface EventRecord {
  values: Record<string, unknown>;
  alone(tx: Tx): Promise<boolean>;
}
