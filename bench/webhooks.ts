// Webhook deliveries on PostgreSQL: 10,000 events (BENCH_EVENTS) of 500 cards, written through the
// webhooks module's emit in a transaction each, at BENCH_RATE events a second, to 10 endpoints (local
// HTTP receivers in a child process, bench/lib/webhook-receivers.ts) each subscribed to them. Prints how
// many of the 100,000 deliveries arrived, the time from each event's commit to its arrival at each
// endpoint (p50, p99), whether any card's events arrived out of order, and the CPU each delivery cost:
// this process (the sender and the event writers), PostgreSQL (the bench database's connections) and
// the receivers apart.
//
//   npm run bench:webhooks            (BENCH_DATABASE_URL or postgres://postgres@127.0.0.1:5432/test)
import { fork } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { createServices } from '../apps/server/src/composition.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/db/engine.ts';
import { seedDemoData } from '../apps/server/src/demo-data.ts';
import { systemClock } from '../apps/server/src/lib/clock.ts';
import type { WebhookManager } from '../apps/server/src/modules/webhooks/service.ts';
import { ms, percentile, processCpu, sorted } from './lib/measure.ts';
import { freshBenchDatabase } from './lib/pg.ts';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000);
const ENDPOINTS = 10;
const CARDS = 500;
const RATE = Number(process.env.BENCH_RATE ?? 250);
const TIMEOUT_MS = Number(process.env.BENCH_TIMEOUT_MS ?? 600_000);
/** the goal: p99 from an event's commit to its arrival */
const GOAL_P99_MS = 2000;

const now = () => performance.timeOrigin + performance.now();
const target = await freshBenchDatabase('webhooks');
const committedAt = new Map<number, number>();

const receiversProcess = fork(path.join(path.dirname(fileURLToPath(import.meta.url)), 'lib', 'webhook-receivers.ts'), [String(ENDPOINTS)], {
  execArgv: ['--import', 'tsx'],
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
let delivered = 0;
let receiversGone: string | undefined;
let reported = false;
receiversProcess.on('exit', (code, signal) => {
  if (reported) return;
  receiversGone = `the receivers' process ended (${signal ?? code})`;
  console.error(receiversGone);
});
type Report = { arrivals: Array<[number, number]>; outOfOrder: number; cpuSeconds: number };
let report: ((value: Report) => void) | undefined;
const urls = await new Promise<string[]>((resolve, reject) => {
  receiversProcess.once('exit', (code) => reject(new Error(`the receivers exited (${code})`)));
  receiversProcess.on('message', (message: { urls?: string[]; delivered?: number } & Partial<Report>) => {
    if (message.urls) resolve(message.urls);
    if (message.delivered !== undefined) delivered = message.delivered;
    if (message.arrivals) {
      reported = true;
      report?.(message as Report);
    }
  });
});

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
  for (const url of urls) await services.webhooks.create(owner.merchant_id, manager, { url, events: ['card.status_changed'] });
  const stopFollowing = await services.webhooks.followEvents(database);
  const [{ name: databaseName } = { name: '' }] = ((await database.db.execute(sql`select current_database() as name`)) as unknown as { rows: Array<{ name: string }> }).rows;
  const cpuNow = async () => {
    const { rows } = (await database.db.execute(sql`select pid from pg_stat_activity where datname = ${databaseName}`)) as unknown as { rows: Array<{ pid: number }> };
    const own = process.cpuUsage();
    return { sender: (own.user + own.system) / 1e6, postgres: rows.reduce((sum, row) => sum + processCpu(row.pid), 0) };
  };
  const cpuBefore = await cpuNow();

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
        committedAt.set(seq, now());
      }
    }),
  );
  const written = performance.now();
  const deadline = Date.now() + TIMEOUT_MS;
  while (delivered < EVENTS * ENDPOINTS && Date.now() < deadline && !receiversGone) await new Promise((resolve) => setTimeout(resolve, 200));
  const elapsed = (performance.now() - started) / 1000;
  const cpuAfter = await cpuNow();
  if (receiversGone) throw new Error(receiversGone);
  const got = await new Promise<Report>((resolve, reject) => {
    report = resolve;
    receiversProcess.once('exit', () => reject(new Error('the receivers ended without their report')));
    receiversProcess.send({ report: true });
  });
  const ordered = sorted(got.arrivals.flatMap(([seq, at]) => {
    const committed = committedAt.get(seq);
    return committed === undefined ? [] : [at - committed];
  }));
  const p99 = percentile(ordered, 99);
  const per = (seconds: number) => Number(((seconds * 1000) / Math.max(1, got.arrivals.length)).toFixed(3));
  const sender = cpuAfter.sender - cpuBefore.sender;
  const postgres = cpuAfter.postgres - cpuBefore.postgres;
  console.log(
    JSON.stringify({
      machine: `${os.cpus().length} CPUs, load average ${os.loadavg().map((n) => n.toFixed(1)).join(' ')} at the end`,
      events: EVENTS,
      endpoints: ENDPOINTS,
      rate_per_s: RATE,
      written_in_s: ms((written - started) / 1000),
      // the rate the writers reached: below rate_per_s, the machine could not write events as fast as asked
      events_per_s_written: Math.round(EVENTS / ((written - started) / 1000)),
      delivered: got.arrivals.length,
      expected: EVENTS * ENDPOINTS,
      all_in_s: ms(elapsed),
      deliveries_per_s: Math.round(got.arrivals.length / elapsed),
      out_of_order: got.outOfOrder,
      change_to_delivery_ms: { p50: ms(percentile(ordered, 50)), p99: ms(p99), max: ms(ordered.at(-1) ?? Number.NaN) },
      cpu_ms_per_delivery: { sender_and_writers: per(sender), postgres: per(postgres), receivers: per(got.cpuSeconds) },
      goal: got.arrivals.length === EVENTS * ENDPOINTS && p99 <= GOAL_P99_MS ? 'met' : `FAIL (all delivered, p99 ≤ ${GOAL_P99_MS} ms)`,
    }),
  );
  await stopFollowing();
  services.webhooks.stop();
  await services.jobs.stop();
} finally {
  receiversProcess.kill();
  await database.close();
  await target.drop();
}
