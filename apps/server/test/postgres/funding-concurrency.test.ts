import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices, type Services } from '../../src/composition.ts';
import { loadConfig } from '../../src/config.ts';
import type { Database } from '../../src/db/engine.ts';
import { seedDemoData } from '../../src/demo-data.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { expectSoundBooks, merchantOf } from '../helpers/ledger.ts';
import { queryRows } from '../helpers/sql.ts';
import { until } from '../helpers/until.ts';

// PGlite has one connection and would hide these races: this file runs on PostgreSQL only.
// Three handles stand for three processes (a server and two operators' command lines).
let database: TestDatabase;
let handles: Database[];
let services: Services[];
let blue: string;
let dataDir: string;
const quiet = { info() {}, warn() {}, error() {} };

beforeAll(async () => {
  database = await createTestDatabase();
  await seedDemoData(database);
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'funding-race-'));
  handles = [database, ...(await Promise.all([1, 2].map(() => database.connectAgain())))];
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir });
  services = handles.map((handle) => createServices({ config, database: handle, clock: systemClock, log: quiet }));
  blue = (await merchantOf(database.db, 'localhost')).id;
});
afterAll(async () => {
  for (const handle of handles.slice(1)) await handle.close();
  await database?.close();
  await rm(dataDir, { recursive: true, force: true });
});

const via = (n: number) => services[n % services.length] as Services;

async function newAccount() {
  const [row] = await queryRows<{ id: string }>(database.db, sql`insert into accounts (merchant_id, name) values (${blue}, 'race') returning id`);
  return String(row?.id);
}

const walletBalance = async (accountId: string) =>
  BigInt(
    (await queryRows<{ balance: string }>(database.db, sql`select coalesce(sum(balance), 0)::text as balance from ledger_accounts where kind = 'WALLET' and holder_id = ${accountId}`))[0]?.balance ?? '0',
  );

describe('money in under races (PostgreSQL)', () => {
  it('credits a notice once when it is confirmed twenty times at once from three processes', async () => {
    const accountId = await newAccount();
    const notice = await via(0).funding.fileNotice(blue, { accountId, memberId: accountId }, {
      currency: 'USD',
      amount: '42.00',
      payer_name: '并发',
      transferred_at: new Date(Date.now() - 60_000).toISOString(),
    });
    const results = await Promise.all(Array.from({ length: 20 }, (_, n) => via(n).funding.confirm({ merchantId: blue, depositId: notice.id })));
    expect(results.filter((result) => !result.replayed)).toHaveLength(1);
    expect(await walletBalance(accountId)).toBe(4200n);
    const [messages] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from station_messages where account_id = ${accountId} and title = '充值已到账'`);
    expect(messages?.n).toBe(1);
    await expectSoundBooks(database.db);
  });

  it('credits each line once when the same statement is imported by three processes at once, and owed fees are collected once', async () => {
    const accounts = await Promise.all(Array.from({ length: 12 }, () => newAccount()));
    const references = await Promise.all(accounts.map((accountId) => via(0).funding.referenceFor(blue, accountId)));
    const first = accounts[0] as string;
    await database.db.execute(
      sql`insert into charges_owed (merchant_id, account_id, kind, currency, amount, authorization_id) values (${blue}, ${first}, 'DECLINED_FEE', 'USD', 150, ${`race-${first}`})`,
    );
    const id = Date.now().toString(36);
    const lines = ['bank_txn_id,date,amount,currency,payer,memo'];
    for (let n = 0; n < 240; n += 1) lines.push(`${id}-${n},2026-03-01,1.00,USD,付款人,附言 ${references[n % references.length]}`);
    const csv = lines.join('\n');
    const runs = await Promise.all([0, 1, 2].map((n) => via(n).funding.importStatement(blue, 'USD', csv)));
    const credited = runs.flatMap((run) => run.outcomes.filter((o) => o.outcome === 'credited'));
    expect(credited).toHaveLength(240);
    expect(new Set(credited.map((o) => o.line.bankTxnId)).size).toBe(240);
    for (const run of runs) expect(run.outcomes).toHaveLength(240);
    expect(await walletBalance(first)).toBe(20_00n - 150n);
    expect(await walletBalance(accounts[1] as string)).toBe(20_00n);
    const [owed] = await queryRows<{ collected: string }>(database.db, sql`select collected::text from charges_owed where account_id = ${first}`);
    expect(owed?.collected).toBe('150');
    await expectSoundBooks(database.db);
  });

  it('credits each line once when deposit:import is killed with SIGKILL mid-file and run again', async () => {
    const accounts = await Promise.all(Array.from({ length: 8 }, () => newAccount()));
    const references = await Promise.all(accounts.map((accountId) => via(0).funding.referenceFor(blue, accountId)));
    const id = `kill-${Date.now().toString(36)}`;
    // chunks are 500 lines, taken by up to four workers: the file holds several chunks per worker, so the kill lands mid-file
    const total = 8_000;
    const lines = ['bank_txn_id,date,amount,currency,payer,memo'];
    for (let n = 0; n < total; n += 1) lines.push(`${id}-${n},2026-03-01,0.50,USD,付款人,${references[n % references.length]}`);
    const file = path.join(dataDir, `${id}.csv`);
    await writeFile(file, lines.join('\n'));
    const repo = path.resolve(import.meta.dirname, '../../../..');
    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: database.location, DATA_DIR: dataDir, NODE_ENV: 'test' };
    delete env.VITEST;
    const argv = ['--import', 'tsx', 'apps/server/src/ops/main.ts', 'deposit:import', file, '--host', 'localhost', '--currency', 'USD'];
    const child = spawn(process.execPath, argv, { cwd: repo, env, stdio: 'ignore' });
    const credited = async () =>
      Number((await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from deposit_statement_lines where bank_txn_id like ${`${id}-%`}`))[0]?.n ?? 0);
    await until('the first chunks to commit', async () => (await credited()) >= 100, 150_000);
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const before = await credited();
    expect(before).toBeLessThan(total);
    const again = await via(1).funding.importStatement(blue, 'USD', lines.join('\n'));
    expect(again.outcomes.filter((o) => o.outcome === 'already')).toHaveLength(before);
    expect(again.outcomes.filter((o) => o.outcome === 'credited')).toHaveLength(total - before);
    for (const accountId of accounts) expect(await walletBalance(accountId)).toBe(BigInt(total / accounts.length) * 50n);
    await expectSoundBooks(database.db);
  }, 240_000);
});
