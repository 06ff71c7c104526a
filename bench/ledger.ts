// `npm run bench:ledger`: 50 concurrent clients run ledger operations (recharge, deduct, hold,
// release) on 1,000 wallets of one merchant for 20 s on PostgreSQL, through the ledger service and
// a connection pool as a server process has them. Prints operations/s, latency percentiles, the
// outcome of each kind of operation, the CPU one operation costs, a yardstick (a bare locked update
// and append by the same clients), and the audit of every invariant at the end.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { sql } from 'drizzle-orm';
import { type Database, openDatabase } from '../apps/server/src/db/engine.ts';
import { seedDemoData } from '../apps/server/src/demo-data.ts';
import { systemClock } from '../apps/server/src/lib/clock.ts';
import { createEventPublisher } from '../apps/server/src/modules/events/publisher.ts';
import { createBooksService } from '../apps/server/src/modules/books/service.ts';
import { createLedgerService } from '../apps/server/src/modules/ledger/service.ts';
import { createMerchantService } from '../apps/server/src/modules/merchants/service.ts';
import { freshBenchDatabase } from './lib/pg.ts';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 50);
const WALLETS = Number(process.env.BENCH_WALLETS ?? 1_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const POOL = Number(process.env.DB_POOL_SIZE ?? 20);
const GOAL = 1_000;

type Kind = 'recharge' | 'deduct' | 'hold' | 'release';
const ALL_KINDS: Kind[] = ['recharge', 'deduct', 'hold', 'release'];
/** BENCH_KINDS=hold,release runs only those (to see what one kind of operation costs) */
const KINDS: Kind[] = process.env.BENCH_KINDS ? (process.env.BENCH_KINDS.split(',') as Kind[]).filter((kind) => ALL_KINDS.includes(kind)) : ALL_KINDS;

/** Clock ticks per second in /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const TICKS = 100;

/**
 * CPU seconds used so far by this process and by the PostgreSQL backends serving the database (Linux
 * /proc): the machine may be busy with other work, so the figures also say what one operation costs.
 */
async function cpuSeconds(database: Database, name: string) {
  const { rows } = (await database.db.execute(sql`select pid from pg_stat_activity where datname = ${name}`)) as unknown as {
    rows: Array<{ pid: number }>;
  };
  let ticks = 0;
  for (const { pid } of rows) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // a backend that ended meanwhile, or a system without /proc
    }
  }
  const own = process.cpuUsage();
  return { postgres: ticks / TICKS, node: (own.user + own.system) / 1e6 };
}

interface Phase {
  operations: number;
  seconds: number;
  latencies: number[];
  cpu: { postgres: number; node: number };
}

/** Runs `clients` loops of `step` for `seconds`, measuring each step and the CPU they cost. */
async function phase(database: Database, name: string, seconds: number, step: (client: number) => Promise<void>): Promise<Phase> {
  let running = true;
  const latencies: number[] = [];
  const before = await cpuSeconds(database, name);
  const started = performance.now();
  const loops = Array.from({ length: CLIENTS }, async (_, client) => {
    while (running) {
      const at = performance.now();
      await step(client);
      if (running) latencies.push(performance.now() - at);
    }
  });
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  running = false;
  await Promise.all(loops);
  const elapsed = (performance.now() - started) / 1000;
  const after = await cpuSeconds(database, name);
  latencies.sort((a, b) => a - b);
  return {
    operations: latencies.length,
    seconds: elapsed,
    latencies,
    cpu: { postgres: after.postgres - before.postgres, node: after.node - before.node },
  };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const ms = (value: number) => Number(value.toFixed(2));

const target = await freshBenchDatabase('ledger');
const databaseName = new URL(target.url).pathname.slice(1);
const database = await openDatabase({ databaseUrl: target.url, poolSize: POOL });
try {
  await database.migrate();
  await seedDemoData(database);
  const merchant = await createMerchantService({ database }).findByHost('localhost');
  if (!merchant) throw new Error('no demo merchant');
  const merchantId = merchant.id;
  // the customers, written in one statement: how they signed up does not matter here
  const created = (await database.db.execute(sql`
    insert into accounts (merchant_id, phone_prefix, phone, password_hash)
    select ${merchantId}, '86', '137' || lpad(n::text, 8, '0'), 'bench' from generate_series(1, ${WALLETS}) as n
    returning id`)) as unknown as { rows: Array<{ id: string }> };
  const wallets = created.rows.map((row) => row.id);
  const books = createLedgerService({ db: database.db, clock: systemClock, events: createEventPublisher() });
  for (let i = 0; i < wallets.length; i += CLIENTS) {
    await Promise.all(
      wallets.slice(i, i + CLIENTS).map((accountId) => books.recharge({ merchantId, accountId, currency: 'USD', amount: 500_00n, memo: 'bench', key: `fund-${accountId}` })),
    );
  }

  // the yardstick: the least a durable money operation is, one locked balance row updated and one
  // row appended in a transaction, by the same clients through the same pool
  await database.db.execute(sql`create table bench_balance (id int primary key, balance bigint not null)`);
  await database.db.execute(sql`create table bench_line (id bigint generated always as identity primary key, balance_id int not null, amount bigint not null)`);
  await database.db.execute(sql`insert into bench_balance select n, 0 from generate_series(1, ${WALLETS}) as n`);

  const random = (n: number) => Math.floor(Math.random() * n);
  const pick = () => wallets[random(wallets.length)] as string;
  const outcome = new Map<string, number>();
  const count = (key: string) => outcome.set(key, (outcome.get(key) ?? 0) + 1);
  // each client releases only the holds it took itself
  const holdsOf: string[][] = Array.from({ length: CLIENTS }, () => []);
  // every operation carries its own idempotency key, as every caller of the ledger gives one
  let keySerial = 0;
  const key = () => `bench-${++keySerial}`;

  async function ledgerStep(client: number) {
    const holds = holdsOf[client] as string[];
    let kind = KINDS[random(KINDS.length)] as Kind;
    if (kind === 'release' && holds.length === 0) kind = 'hold';
    const accountId = pick();
    const amount = BigInt(1 + random(5_000));
    try {
      if (kind === 'recharge') await books.recharge({ merchantId, accountId, currency: 'USD', amount, key: key() });
      else if (kind === 'deduct') await books.deduct({ merchantId, accountId, currency: 'USD', amount, key: key() });
      else if (kind === 'hold') holds.push((await books.holdFunds({ merchantId, accountId, currency: 'USD', amount, key: key() })).answer.holdId as string);
      else await books.releaseHold({ merchantId, holdId: holds.splice(random(holds.length), 1)[0] as string, key: key() });
      count(`${kind} ok`);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (typeof code !== 'number') throw error;
      count(`${kind} refused (${code})`);
    }
  }

  async function bareStep() {
    const id = 1 + random(WALLETS);
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`select balance from bench_balance where id = ${id} for update`);
      await tx.execute(sql`update bench_balance set balance = balance + 1 where id = ${id}`);
      await tx.execute(sql`insert into bench_line (balance_id, amount) values (${id}, 1)`);
    });
  }

  await phase(database, databaseName, 2, ledgerStep); // warm-up: connections, caches, JIT
  outcome.clear();
  const bareSeconds = Math.max(3, Math.round(SECONDS / 4));
  const bare = await phase(database, databaseName, bareSeconds, () => bareStep());
  const run = await phase(database, databaseName, SECONDS, ledgerStep);
  const audit = await createBooksService({ db: database.db, clock: systemClock }).audit();

  const rate = run.operations / run.seconds;
  const bareRate = bare.operations / bare.seconds;
  const cpuPerOperation = (p: Phase) => ((p.cpu.postgres + p.cpu.node) / p.operations) * 1000;
  const [load1] = os.loadavg();
  console.log(
    `\nPostgreSQL, the ledger service in one process (pool ${POOL}), ${CLIENTS} clients, ${WALLETS} wallets, ${SECONDS} s; ${os.cpus().length} CPUs, load average ${load1?.toFixed(1)} at the end`,
  );
  console.table({
    'ledger operations': {
      'per second': Math.round(rate),
      total: run.operations,
      'p50 ms': ms(percentile(run.latencies, 50)),
      'p99 ms': ms(percentile(run.latencies, 99)),
      'CPU ms per op (PostgreSQL + Node)': ms(cpuPerOperation(run)),
    },
    [`yardstick: locked update + append (${bareSeconds} s)`]: {
      'per second': Math.round(bareRate),
      total: bare.operations,
      'p50 ms': ms(percentile(bare.latencies, 50)),
      'p99 ms': ms(percentile(bare.latencies, 99)),
      'CPU ms per op (PostgreSQL + Node)': ms(cpuPerOperation(bare)),
    },
  });
  console.table(Object.fromEntries([...outcome.entries()].sort().map(([key, n]) => [key, { operations: n }])));
  console.log(
    `CPU of the ledger run: PostgreSQL ${run.cpu.postgres.toFixed(1)} s, Node ${run.cpu.node.toFixed(1)} s in ${run.seconds.toFixed(1)} s: ` +
      `on ${os.cpus().length} otherwise idle CPUs that is at most ~${Math.round((os.cpus().length * 1000) / cpuPerOperation(run))} operations/s`,
  );
  console.log(
    `audit: ${audit.size.accounts} ledger accounts, ${audit.size.transactions} transactions, ${audit.size.postings} postings, ${audit.size.holds} holds: ${audit.violations.length} violations`,
  );
  for (const violation of audit.violations.slice(0, 20)) console.log(`  ${violation.rule}: ${violation.detail}`);
  const met = rate >= GOAL && audit.violations.length === 0;
  console.log(`goal ≥ ${GOAL} operations/s with zero violations: ${met ? 'met' : 'NOT met'}`);
  process.exitCode = audit.violations.length === 0 ? 0 : 1;
} finally {
  await database.close();
  await target.drop();
}
