// Webhook deliveries on PostgreSQL: 10,000 events (BENCH_EVENTS) of 500 cards, written through the
// webhooks module's emit in a transaction each, at BENCH_RATE events a second, to 10 endpoints (local
// HTTP receivers) each subscribed to them. Prints how many of the 100,000 deliveries arrived and the
// time from each event's commit to its arrival at each endpoint (p50, p99).
//
//   npm run bench:webhooks            (BENCH_DATABASE_URL or postgres://postgres@127.0.0.1:5432/test)
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { createServices } from '../apps/server/src/composition.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/db/engine.ts';
import { seedDemoData } from '../apps/server/src/demo-data.ts';
import { systemClock } from '../apps/server/src/lib/clock.ts';
import type { WebhookManager } from '../apps/server/src/modules/webhooks/service.ts';
import { ms, percentile, sorted } from './lib/measure.ts';
import { freshBenchDatabase } from './lib/pg.ts';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000);
const ENDPOINTS = 10;
const CARDS = 500;
const RATE = Number(process.env.BENCH_RATE ?? 250);
const TIMEOUT_MS = Number(process.env.BENCH_TIMEOUT_MS ?? 600_000);

const target = await freshBenchDatabase('webhooks');
const committedAt = new Map<number, number>();
const arrivals: number[] = [];
let delivered = 0;
const seen = new Set<string>();

const receivers = await Promise.all(
  Array.from({ length: ENDPOINTS }, async (_, n) => {
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const at = performance.now();
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string; data: { seq: number } };
        const key = `${n}:${body.id}`;
        if (!seen.has(key)) {
          seen.add(key);
          delivered += 1;
          const committed = committedAt.get(body.data.seq);
          if (committed !== undefined) arrivals.push(at - committed);
        }
        response.writeHead(204);
        response.end();
      });
    });
    server.keepAliveTimeout = 30_000;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks` };
  }),
);

const database = await openDatabase({ databaseUrl: target.url, poolSize: 20 });
try {
  await database.migrate();
  const config = { ...loadConfig({ NODE_ENV: 'development', LOG_LEVEL: 'silent', DATA_DIR: '/tmp/portal-bench-webhooks', ISSUER_URL: 'http://127.0.0.1:1' }), databaseUrl: target.url };
  const log = { info: () => {}, warn: () => {}, error: () => {} } as never;
  const services = createServices({ config, database, clock: systemClock, log });
  await seedDemoData(database, { sealer: services.sealer });
  await services.jobs.start();
  const rows = (await database.db.execute(
    sql`select a.id as account_id, a.merchant_id, m.id as member_id from accounts a join members m on m.account_id = a.id and m.role = 'OWNER' join merchant_hosts h on h.merchant_id = a.merchant_id and h.host = 'localhost' limit 1`,
  )) as unknown as { rows: Array<{ account_id: string; merchant_id: string; member_id: string }> };
  const owner = rows.rows[0];
  if (!owner) throw new Error('no demo account');
  const manager = { account: { id: owner.account_id }, member: { id: owner.member_id } } as unknown as WebhookManager;
  for (const receiver of receivers) await services.webhooks.create(owner.merchant_id, manager, { url: receiver.url, events: ['card.status_changed'] });

  const started = performance.now();
  // events at RATE a second, several writers at once, each event in a transaction of its own
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (;;) {
        const seq = next++;
        if (seq >= EVENTS) return;
        const due = started + (seq * 1000) / RATE;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        const card = `bench-card-${seq % CARDS}`;
        await database.db.transaction((tx) =>
          services.webhooks.emit(tx, { merchantId: owner.merchant_id, accountId: owner.account_id, type: 'card.status_changed', cardId: card, data: { card_id: card, seq } }),
        );
        committedAt.set(seq, performance.now());
      }
    }),
  );
  const written = performance.now();
  const deadline = Date.now() + TIMEOUT_MS;
  while (delivered < EVENTS * ENDPOINTS && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
  const ordered = sorted(arrivals);
  console.log(
    JSON.stringify({
      events: EVENTS,
      endpoints: ENDPOINTS,
      rate_per_s: RATE,
      written_in_s: ms((written - started) / 1000),
      delivered,
      expected: EVENTS * ENDPOINTS,
      all_in_s: ms((performance.now() - started) / 1000),
      change_to_delivery_ms: { p50: ms(percentile(ordered, 50)), p99: ms(percentile(ordered, 99)), max: ms(ordered.at(-1) ?? Number.NaN) },
    }),
  );
  services.webhooks.stop();
  await services.jobs.stop();
} finally {
  for (const receiver of receivers) {
    receiver.server.closeAllConnections();
    receiver.server.close();
  }
  await database.close();
  await target.drop();
}
