import type { SQL } from 'drizzle-orm';
import type { Tx } from '../../src/db/engine.ts';

/** The rows of a raw query, typed by the caller (both engines answer `{ rows }`). */
export async function queryRows<T = Record<string, unknown>>(db: Tx, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
