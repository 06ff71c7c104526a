import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/db/engine.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';

// What a PostgreSQL connection keeps prepared; PGlite is not a server connection: PostgreSQL only.
let database: TestDatabase;
const opened: Database[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  for (const handle of opened) await handle.close();
  await database?.close();
});

/** Runs a statement with a parameter twice and answers what the connection has prepared, in one transaction (one connection). */
async function preparedAfterTwoRuns(handle: Database, marker: string) {
  return handle.db.transaction(async (tx) => {
    for (let i = 0; i < 2; i++) await tx.execute(sql`select ${i}::int as ${sql.raw(marker)}`);
    const { rows } = (await tx.execute(sql`select name, statement from pg_prepared_statements where statement like ${`%${marker}%`}`)) as unknown as {
      rows: Array<{ name: string; statement: string }>;
    };
    // the answer reads itself too: only statements other than this one count
    return rows.filter((row) => !row.statement.includes('pg_prepared_statements'));
  });
}

describe('statements kept prepared on PostgreSQL', () => {
  it('a statement with parameters is prepared once per connection, under a name made from its text', async () => {
    const handle = await openDatabase({ databaseUrl: database.location, poolSize: 1 });
    opened.push(handle);
    const rows = await preparedAfterTwoRuns(handle, 'marker_kept');
    expect(rows).toHaveLength(1);
    expect(rows[0]?.name).toMatch(/^s[\w-]{27}$/);
    // the same text answers the same rows again, through the statement already prepared
    const again = await handle.db.execute(sql`select ${5}::int as marker_kept`);
    expect((again as unknown as { rows: unknown[] }).rows).toEqual([{ marker_kept: 5 }]);
  });

  it('off (the embedded database socket), nothing is kept', async () => {
    const handle = await openDatabase({ databaseUrl: database.location, poolSize: 1, preparedStatements: false });
    opened.push(handle);
    expect(await preparedAfterTwoRuns(handle, 'marker_unkept')).toEqual([]);
  });
});
