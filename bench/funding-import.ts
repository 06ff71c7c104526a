// `npm run bench:funding`: a bank statement of 10,000 lines, each naming one of 1,000 accounts'
// reference in its memo, imported on PostgreSQL through the funding service as `deposit:import` runs
// it. Prints the import's time against the 10 s goal, checks that every line credited its wallet once
// (deposits, wallet balances, the ledger's audit), then imports the same file again and shows that it
// credits nothing (every line 已导入) and leaves the books as they were.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { createServices } from '../apps/server/src/composition.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/db/engine.ts';
import { seedDemoData } from '../apps/server/src/demo-data.ts';
import { systemClock } from '../apps/server/src/lib/clock.ts';
import { freshBenchDatabase } from './lib/pg.ts';

const LINES = Number(process.env.BENCH_LINES ?? 10_000);
const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 1_000);
const POOL = Number(process.env.DB_POOL_SIZE ?? 10);
const GOAL_SECONDS = 10;

const rows = async <T>(database: { db: { execute(query: unknown): Promise<unknown> } }, query: unknown) =>
  ((await database.db.execute(query)) as { rows: T[] }).rows;

const target = await freshBenchDatabase('funding');
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bench-funding-'));
const database = await openDatabase({ databaseUrl: target.url, poolSize: POOL });
const quiet = { info() {}, warn() {}, error() {} };
try {
  await database.migrate();
  await seedDemoData(database);
  const config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: target.url, NODE_ENV: 'test' });
  const services = createServices({ config, database, clock: systemClock, log: quiet });
  const merchant = await services.merchants.byHost('localhost');
  if (!merchant) throw new Error('no demo merchant');
  // the customers, written in one statement: how they signed up does not matter here
  const accounts = await rows<{ id: string }>(
    database,
    sql`insert into accounts (merchant_id, name) select ${merchant.id}, 'bench ' || n from generate_series(1, ${ACCOUNTS}) as n returning id`,
  );
  const references: string[] = [];
  for (const { id } of accounts) references.push(await services.funding.referenceFor(merchant.id, id));

  const lines = ['bank_txn_id,date,amount,currency,payer,memo'];
  let expected = 0n;
  for (let n = 0; n < LINES; n += 1) {
    const cents = 100 + (n % 997);
    expected += BigInt(cents);
    const reference = references[n % references.length] as string;
    lines.push(`BENCH${String(n).padStart(8, '0')},2026-03-01,${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')},USD,付款人${n},"充值 ${n % 2 ? reference.toLowerCase() : reference} 谢谢"`);
  }
  const csv = lines.join('\n');

  const started = performance.now();
  const first = await services.funding.importStatement(merchant.id, 'USD', csv);
  const seconds = (performance.now() - started) / 1000;
  const credited = first.outcomes.filter((o) => o.outcome === 'credited').length;
  console.error(`first import: ${LINES} lines in ${seconds.toFixed(2)} s, ${credited} credited`);

  const [deposits] = await rows<{ n: string; total: string }>(database, sql`select count(*)::text as n, coalesce(sum(credited_amount), 0)::text as total from deposits where status = 'CREDITED'`);
  const [wallets] = await rows<{ total: string }>(database, sql`select coalesce(sum(balance), 0)::text as total from ledger_accounts where kind = 'WALLET' and currency = 'USD' and holder_id in (select id from accounts where name like 'bench %')`);
  const [transactions] = await rows<{ n: string }>(database, sql`select count(distinct transaction_id)::text as n from ledger_postings p join ledger_accounts a on a.id = p.ledger_account_id where a.kind = 'WALLET' and a.holder_id in (select id from accounts where name like 'bench %')`);
  const audit = await services.books.audit();

  const books = async () => (await rows<{ digest: string }>(database, sql`select md5(string_agg(id::text || balance::text, ',' order by id)) as digest from ledger_accounts`))[0]?.digest;
  const before = await books();
  const againStarted = performance.now();
  const second = await services.funding.importStatement(merchant.id, 'USD', csv);
  const againSeconds = (performance.now() - againStarted) / 1000;
  const after = await books();

  const mailStarted = performance.now();
  const mailed = await services.funding.deliverMails(500);
  const mailSeconds = (performance.now() - mailStarted) / 1000;

  const ok = credited === LINES && deposits?.n === String(LINES) && BigInt(deposits?.total ?? '0') === expected && BigInt(wallets?.total ?? '0') === expected && transactions?.n === String(LINES);
  const report = {
    engine: 'postgresql',
    lines: LINES,
    accounts: ACCOUNTS,
    first_import: {
      seconds: Number(seconds.toFixed(2)),
      lines_per_second: Math.round(LINES / seconds),
      goal_seconds: GOAL_SECONDS,
      within_goal: seconds <= GOAL_SECONDS,
      credited,
      unmatched: first.outcomes.filter((o) => o.outcome === 'unmatched').length,
      bad: first.bad.length,
    },
    every_line_credited_once: ok,
    credited_total: (Number(expected) / 100).toFixed(2),
    deposits_credited: Number(deposits?.n),
    wallet_transactions: Number(transactions?.n),
    ledger_audit: audit,
    second_import: {
      seconds: Number(againSeconds.toFixed(2)),
      credited: second.outcomes.filter((o) => o.outcome === 'credited').length,
      already_imported: second.outcomes.filter((o) => o.outcome === 'already').length,
      books_unchanged: before === after,
    },
    credit_emails: { sent: mailed, seconds: Number(mailSeconds.toFixed(2)) },
  };
  console.log(JSON.stringify(report, null, 2));
  if (!ok || before !== after) process.exitCode = 1;
} finally {
  await database.close();
  await target.drop();
  await rm(dataDir, { recursive: true, force: true });
}
