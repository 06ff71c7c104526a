import { count } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { agreements, announcements, merchantHosts, merchants } from '../../src/db/schema.ts';
import { seedDemoData } from '../../src/demo-data.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';

let opened: TestDatabase | undefined;
afterEach(async () => {
  await opened?.close();
  opened = undefined;
});

describe('server processes starting together on one fresh PostgreSQL database', () => {
  // PGlite has one connection and would hide the race: this file runs on PostgreSQL only
  for (const instances of [2, 3]) {
    it(`migrate and seed once with ${instances} at the same moment (advisory locks)`, async () => {
      const fresh = await createTestDatabase({ migrate: false });
      opened = fresh;
      const handles = [fresh, ...(await Promise.all(Array.from({ length: instances - 1 }, () => fresh.connectAgain())))];

      const seeded = await Promise.all(
        handles.map(async (database) => {
          await database.migrate();
          return seedDemoData(database);
        }),
      );

      expect(seeded.filter(Boolean)).toHaveLength(1);
      const [m] = await fresh.db.select({ n: count() }).from(merchants);
      const [h] = await fresh.db.select({ n: count() }).from(merchantHosts);
      const [a] = await fresh.db.select({ n: count() }).from(agreements);
      const [n] = await fresh.db.select({ n: count() }).from(announcements);
      expect({ merchants: m?.n, hosts: h?.n, agreements: a?.n, announcements: n?.n }).toEqual({ merchants: 5, hosts: 7, agreements: 5, announcements: 5 });
    });
  }
});
