// `npm run bench:batch`: batch card opening and bulk export, end to end over real HTTP on PostgreSQL.
//
// Two processes, as production has them: the server (this file run with --serve) is the real app on a
// fresh database with the demo data, listening on 127.0.0.1; the simulated card issuer a process of
// its own (`npm run issuer-sim`, no delay, no failures) at ISSUER_URL.
//
// Phase A: one verified, funded account opens BENCH_BATCH (500) 订阅支付卡 with one POST
// /api/v1/batch-create-card; the wall time from the request to the batch's end (every card issued and
// posted), and what each card costs on top of the issuer's answer. Phase B: an account holding
// BENCH_EXPORT_CARDS (100,000) cards exports them all (POST /api/v1/card/batch-export, polled until
// DONE, then downloaded); the wall time and the growth of the server's resident memory at its peak.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { BatchExportStatus, BatchStatusAnswer } from '@portal/contract/card-batches';
import type { OpenedAvailableAnswer } from '@portal/contract/cards';
import { sql } from 'drizzle-orm';
import { createServices } from '../apps/server/src/composition.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { type Database, openDatabase } from '../apps/server/src/db/engine.ts';
import { systemClock } from '../apps/server/src/lib/clock.ts';
import { hashPassword } from '../apps/server/src/lib/crypto.ts';
import { portalWebhookUrl } from '../apps/server/src/providers/issuer/built-in.ts';
import { productionEnv } from '../apps/server/test/helpers/production-env.ts';
import { acceptsOn, freePort, processCpu } from './lib/measure.ts';
import { freshBenchDatabase } from './lib/pg.ts';
import { apiCaller, BENCH_POOL, benchServerEnv, dataOf, serveBenchApp } from './lib/server.ts';

const BATCH = Number(process.env.BENCH_BATCH ?? 500);
const EXPORT_CARDS = Number(process.env.BENCH_EXPORT_CARDS ?? 100_000);
const PRODUCT = '订阅支付卡';
const HOST = 'localhost';
const GOAL_BATCH_S = 10;
const GOAL_EXPORT_S = 30;
const GOAL_EXPORT_MB = 150;

/** The process's resident memory now, in MB (Linux /proc). */
function rssMb(pid: number) {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(line?.replace(/\D+/g, '') ?? 0) / 1024;
}

async function postgresCpu(database: Database, name: string) {
  const { rows } = (await database.db.execute(sql`select pid from pg_stat_activity where datname = ${name}`)) as unknown as { rows: Array<{ pid: number }> };
  return rows.reduce((sum, row) => sum + processCpu(row.pid), 0);
}

const seconds = (ms: number) => (ms / 1000).toFixed(1);
const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');

async function bench() {
  const target = await freshBenchDatabase('batch');
  const dataDir = `${os.tmpdir()}/portal-bench-batch-${Date.now().toString(36)}`;
  const [serverPort, issuerPort] = [await freePort(), await freePort()];
  const issuerUrl = `http://127.0.0.1:${issuerPort}`;
  const issuer = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('../apps/server/src/providers/issuer/standalone.ts', import.meta.url))], {
    env: {
      ...process.env,
      ISSUER_SIM_PORT: String(issuerPort),
      PORTAL_WEBHOOK_URL: portalWebhookUrl('127.0.0.1', serverPort),
      ISSUER_WEBHOOK_SECRET: productionEnv.ISSUER_WEBHOOK_SECRET,
      ISSUER_SIM_DELAY_MS: '0',
      ISSUER_SIM_FAIL_RATE: '0',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const issuerExited = new Promise((resolve) => issuer.once('exit', resolve));
  const server = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--serve'], {
    env: { ...process.env, DATABASE_URL: target.url, NODE_ENV: 'production', ISSUER_URL: issuerUrl, BENCH_PORT: String(serverPort), BENCH_DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((resolve) => server.once('exit', resolve));
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  let database: Database | undefined;
  try {
    await acceptsOn(issuerPort, issuer, 'the simulated issuer');
    const ready = await new Promise<{ port: number; pid: number }>((resolve, reject) => {
      server.once('exit', (code) => reject(new Error(`the bench server exited with ${code}`)));
      createInterface({ input: server.stdout }).once('line', (line) => resolve(JSON.parse(line)));
    });
    const call = apiCaller(ready.port, agent, HOST);
    const databaseName = new URL(target.url).pathname.slice(1);
    database = await openDatabase({ databaseUrl: target.url, poolSize: 10 });
    const quiet = { info: () => {}, warn: () => {}, error: () => {} };
    const services = createServices({ config: { ...loadConfig(benchServerEnv(issuerUrl, { DATA_DIR: dataDir })), databaseUrl: target.url }, database, clock: systemClock, log: quiet });
    const merchant = await services.merchants.findByHost(HOST);
    if (!merchant) throw new Error(`no demo merchant at ${HOST}`);
    const merchantId = merchant.id;
    await services.products.update(merchantId, { name: PRODUCT }, { perAccountLimit: Math.max(BATCH, EXPORT_CARDS) + 1, maxPerBatch: 500 });

    const [pgVersion] = ((await database.db.execute(sql`show server_version`)) as unknown as { rows: Array<{ server_version: string }> }).rows;
    const cpus = os.cpus();
    console.log(
      `machine: ${cpus.length} CPUs (${cpus[0]?.model.trim()}), ${Math.round(os.totalmem() / 2 ** 30)} GB, Node ${process.version}, PostgreSQL ${pgVersion?.server_version}, ` +
        `load average ${os.loadavg().map((n) => n.toFixed(1)).join(' ')} at the start`,
    );
    console.log(`server: one process on 127.0.0.1:${ready.port} (pool ${BENCH_POOL}); the simulated issuer a process of its own at ${issuerUrl} (delay 0 ms, fail rate 0)`);

    const passwordHash = await hashPassword('Bench1234');
    const stamp = Date.now().toString().slice(-4);
    async function holder(n: number, usd: bigint) {
      const account = await services.directory.create({ merchantId, phonePrefix: '86', phone: `135${stamp}${String(n).padStart(4, '0')}`, email: `batch${n}.${stamp}@bench.example`, passwordHash });
      if (!account) throw new Error('account insert failed');
      const { token } = await services.sessions.open((database as Database).db, { merchantId, accountId: account.id, memberId: account.memberId, stage: 'FULL', userAgent: 'bench:batch', ip: '127.0.0.1' });
      dataOf(await call('PUT', '/card/verification', token, { real_name: '张三', id_number: '11010519491231002X' }), 'verification');
      if (usd > 0n) await services.ledger.recharge({ merchantId, accountId: account.id, currency: 'USD', amount: usd, memo: 'bench:batch', key: `bench-batch-fund-${n}` });
      return { id: account.id, memberId: account.memberId, token };
    }

    // ── phase A: one batch of 500 cards ──
    const opener = await holder(1, BigInt(BATCH) * 20_00n);
    const { products } = dataOf(await call<OpenedAvailableAnswer>('GET', '/card/opened-available', opener.token), 'opened-available');
    const product = products.find((p) => p.name === PRODUCT);
    if (!product) throw new Error(`no product ${PRODUCT}`);
    const cpuBefore = { server: processCpu(ready.pid), postgres: await postgresCpu(database, databaseName), issuer: processCpu(issuer.pid ?? 0) };
    const started = performance.now();
    const accepted = dataOf(
      await call<{ batch_id: string }>('POST', '/batch-create-card', opener.token, { product_id: product.id, quantity: BATCH, amount: '10.00', nickname_prefix: 'BENCH' }, { 'idempotency-key': `bench-batch-${stamp}` }),
      'batch-create-card',
    );
    const acceptedMs = performance.now() - started;
    let status: BatchStatusAnswer;
    for (;;) {
      status = dataOf(await call<BatchStatusAnswer>('GET', '/card/batch-create-card-status', opener.token), 'batch status');
      if (status.batch_id === accepted.batch_id && status.status !== 'RUNNING') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const batchMs = performance.now() - started;
    const cpuA = {
      server: processCpu(ready.pid) - cpuBefore.server,
      postgres: (await postgresCpu(database, databaseName)) - cpuBefore.postgres,
      issuer: processCpu(issuer.pid ?? 0) - cpuBefore.issuer,
    };
    const [held] = ((await database.db.execute(sql`select coalesce(sum(amount), 0)::text as held from ledger_holds where reference = ${`batch:${accepted.batch_id}`} and status = 'ACTIVE'`)) as unknown as {
      rows: Array<{ held: string }>;
    }).rows;
    const batchOk = batchMs <= GOAL_BATCH_S * 1000 && status.success_count === BATCH;
    console.log(
      `phase A: a batch of ${BATCH} cards accepted in ${acceptedMs.toFixed(0)} ms (the whole cost held, ${BATCH} cards and jobs written); ended ${status.status} ` +
        `(${status.success_count} issued, ${status.fail_count} failed) ${seconds(batchMs)} s after the request; ${(batchMs / BATCH).toFixed(1)} ms of wall time a card; ` +
        `CPU a card: server ${((cpuA.server * 1000) / BATCH).toFixed(1)} ms, PostgreSQL ${((cpuA.postgres * 1000) / BATCH).toFixed(1)} ms (the issuer ${((cpuA.issuer * 1000) / BATCH).toFixed(1)} ms apart); ` +
        `left held on the batch: ${held?.held}`,
    );
    console.log(`goal ${BATCH} cards ≤ ${GOAL_BATCH_S} s: ${seconds(batchMs)} s — ${verdict(batchOk)}`);

    // ── phase B: 100,000 cards exported ──
    const exporter = await holder(2, 0n);
    let fillStarted = performance.now();
    // the cards are written straight into the tables, as issued cards are (the export reads them, not how they came)
    await database.db.execute(sql`insert into cards (id, merchant_id, account_id, holder_member_id, product_id, nickname, brand, currency, status, last4, open_key, open_fingerprint, first_load, open_fee, topup_fee, topup_fee_rate, topup_fee_fixed, decline_fee, created_at, updated_at, issued_at)
      select gen_random_uuid(), ${merchantId}::uuid, ${exporter.id}::uuid, ${exporter.memberId}::uuid, ${product.id}::uuid, 'EXP-' || lpad(n::text, 6, '0'), 'MASTERCARD', 'USD', 'NORMAL',
        lpad((n % 10000)::text, 4, '0'), 'bench-export-' || n, 'bench', 1000, 200, 40, '0.010', 30, 30, now() - make_interval(secs => n), now(), now()
      from generate_series(1, ${EXPORT_CARDS}) as n`);
    await database.db.execute(sql`insert into ledger_accounts (merchant_id, currency, kind, owner_id, holder_id, shard, frozen)
      select merchant_id, currency, 'CARD', id, account_id, 0, false from cards where account_id = ${exporter.id}::uuid`);
    await database.db.execute(sql`vacuum (analyze) cards`);
    console.log(`phase B: ${EXPORT_CARDS} cards of one account written in ${seconds(performance.now() - fillStarted)} s`);

    const baseline = rssMb(ready.pid);
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMb(ready.pid));
    }, 25);
    fillStarted = performance.now();
    const { export_id } = dataOf(await call<{ export_id: string }>('POST', '/card/batch-export', exporter.token, { filters: {} }), 'batch-export');
    let exported: BatchExportStatus;
    for (;;) {
      exported = dataOf(await call<BatchExportStatus>('GET', `/card/batch-export-status?export_id=${export_id}`, exporter.token), 'export status');
      if (exported.status === 'DONE' || exported.status === 'FAILED') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const writtenMs = performance.now() - fillStarted;
    const file = await call<unknown>('GET', `/card/batch-export/${export_id}/file`, exporter.token);
    const exportMs = performance.now() - fillStarted;
    clearInterval(sampler);
    peak = Math.max(peak, rssMb(ready.pid));
    const growth = peak - baseline;
    const exportOk = exported.status === 'DONE' && exported.done === EXPORT_CARDS && exportMs <= GOAL_EXPORT_S * 1000 && growth < GOAL_EXPORT_MB;
    console.log(
      `phase B: export ${exported.status}, ${exported.done} rows, file ${(Number(exported.size) / 2 ** 20).toFixed(1)} MB written in ${seconds(writtenMs)} s, downloaded (${(file.bytes / 2 ** 20).toFixed(1)} MB) ${seconds(exportMs)} s after the request; ` +
        `server RSS ${baseline.toFixed(0)} MB before, ${peak.toFixed(0)} MB at its peak: +${growth.toFixed(0)} MB`,
    );
    console.log(
      `goal ${EXPORT_CARDS} rows ≤ ${GOAL_EXPORT_S} s and < ${GOAL_EXPORT_MB} MB growth: ${seconds(exportMs)} s, +${growth.toFixed(0)} MB — ${verdict(exportOk)}`,
    );
    const audit = await services.books.audit();
    console.log(`ledger audit: ${audit.size.accounts} ledger accounts, ${audit.size.holds} holds: ${audit.violations.length} violations`);
    console.log(`load average at the end ${os.loadavg().map((n) => n.toFixed(1)).join(' ')}`);
    process.exitCode = batchOk && exportOk && audit.violations.length === 0 ? 0 : 1;
  } finally {
    agent.destroy();
    await database?.close();
    server.kill('SIGTERM');
    issuer.kill('SIGTERM');
    await Promise.all([exited, issuerExited]);
    if (process.env.BENCH_KEEP_DATABASE) console.log(`the database is kept: ${target.url}`);
    else await target.drop();
    await import('node:fs/promises').then((fs) => fs.rm(dataDir, { recursive: true, force: true }));
  }
}

if (process.argv.includes('--serve')) await serveBenchApp();
else await bench();
