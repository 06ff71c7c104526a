import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtOnce } from '../../src/db/built-once.ts';
import { type Database, openDatabase } from '../../src/db/engine.ts';
import { issuerEvents } from '../../src/db/schema.ts';
import { createTestDatabase, type TestDatabase, testEngine } from '../helpers/database.ts';

let database: TestDatabase;
const opened: Database[] = [];
const EVENT = 'evt_built_once';
beforeAll(async () => {
  database = await createTestDatabase();
  await database.db.insert(issuerEvents).values({ id: EVENT, type: 'test', outcome: 'ignored', receivedAt: new Date() });
});
afterAll(async () => {
  for (const handle of opened) await handle.close();
  await database?.close();
});

/** A statement that counts its builds and echoes its placeholders' values, one through a column's conversion. */
function echo() {
  const built = { count: 0 };
  const run = builtOnce((tx) => {
    built.count += 1;
    return tx
      .select({ id: issuerEvents.id, given: sql<string>`${sql.placeholder('text')}::text`, at: sql<string>`${sql.placeholder('at')}::timestamptz::text` })
      .from(issuerEvents)
      .where(eq(issuerEvents.id, sql.placeholder('id')))
      .prepare('');
  });
  return { built, run };
}

describe('statements built once per connection', () => {
  it('answers each call with its own values, in and out of transactions', async () => {
    const event = { id: EVENT };
    const { run } = echo();
    const at = new Date('2026-11-25T08:00:00Z');
    for (const text of ['一', 'two', '']) {
      const inside = await database.db.transaction((tx) => run(tx, { id: event.id, text, at }));
      expect(inside).toEqual([{ id: event.id, given: text, at: expect.stringContaining('2026-11-25') }]);
    }
    expect(await run(database.db, { id: 'evt_none', text: 'x', at })).toEqual([]);
    // a null where sql`` holds the placeholder is passed as null
    const [none] = await run(database.db, { id: event.id, text: null, at: null });
    expect(none).toEqual({ id: event.id, given: null, at: null });
  });

  it.runIf(testEngine() === 'postgres')(
    'on PostgreSQL builds at most once per pool connection however many transactions run',
    async () => {
      const handle = await openDatabase({ databaseUrl: database.location, poolSize: 2 });
      opened.push(handle);
      const event = { id: EVENT };
      const { built, run } = echo();
      const at = new Date();
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) => handle.db.transaction((tx) => run(tx, { id: event.id, text: `call ${i}`, at }))),
      );
      expect(answers.map((rows) => rows[0]?.given)).toEqual(Array.from({ length: 40 }, (_, i) => `call ${i}`));
      expect(built.count).toBeGreaterThanOrEqual(1);
      expect(built.count).toBeLessThanOrEqual(2);
    },
  );
});
