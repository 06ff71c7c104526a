import { readFileSync } from 'node:fs';
import path from 'node:path';
import { count } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/engine.ts';
import { agreements, merchantHosts, merchants } from '../../src/db/schema.ts';
import { demoMerchants, seedDemoData } from '../../src/demo-data.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';

const journal = JSON.parse(
  readFileSync(path.resolve(import.meta.dirname, '../../src/db/migrations/meta/_journal.json'), 'utf8'),
) as { entries: unknown[] };

async function counts(database: Database) {
  const [m] = await database.db.select({ n: count() }).from(merchants);
  const [h] = await database.db.select({ n: count() }).from(merchantHosts);
  const [a] = await database.db.select({ n: count() }).from(agreements);
  return { merchants: m?.n, hosts: h?.n, agreements: a?.n };
}

const demoCounts = {
  merchants: demoMerchants.length,
  hosts: demoMerchants.flatMap((m) => m.hosts).length,
  agreements: demoMerchants.length,
};

let opened: TestDatabase | undefined;
afterEach(async () => {
  await opened?.close();
  opened = undefined;
});

describe('migrations', () => {
  it('can run again and again without changing anything', async () => {
    const database = await createTestDatabase();
    opened = database;
    expect(await seedDemoData(database)).toBe(true);
    const before = await counts(database);
    expect(before).toEqual(demoCounts);

    await database.migrate();
    await database.migrate();

    expect(await counts(database)).toEqual(before);
    const applied = (await database.db.execute('select count(*)::int as n from drizzle.__drizzle_migrations')) as unknown as {
      rows: { n: number }[];
    };
    expect(applied.rows[0]?.n).toBe(journal.entries.length);
  });

  it('seeds the demo merchants only once', async () => {
    const database = await createTestDatabase();
    opened = database;
    expect(await seedDemoData(database)).toBe(true);
    expect(await seedDemoData(database)).toBe(false);
    expect(await counts(database)).toEqual(demoCounts);
  });
});

describe(`a ${process.env.TEST_ENGINE === 'postgres' ? 'PostgreSQL database' : 'PGlite folder'}`, () => {
  it('keeps its data across a close and a reopen', async () => {
    const database = await createTestDatabase({ persistent: true });
    opened = database;
    await seedDemoData(database);
    const before = await database.db.select().from(merchants).orderBy(merchants.slug);
    expect(before).toHaveLength(demoMerchants.length);

    const reopened = await database.restart();
    await reopened.migrate();
    expect(await counts(reopened)).toEqual(demoCounts);
    expect(await seedDemoData(reopened)).toBe(false);
    expect(await reopened.db.select().from(merchants).orderBy(merchants.slug)).toEqual(before);
  });
});
