// `npm run bench:auth`: authorisation decisions on PostgreSQL, the card issuer's side of spending.
//
// The server (this file run with --serve) is the real app on a fresh database with the demo data,
// listening on 127.0.0.1 in a process of its own. Preparing: BENCH_CARDS (1,000) 订阅支付卡 opened
// through POST /api/v1/card by verified, funded accounts (10 cards each, BENCH_LOAD on each), issued by
// the simulated issuer running in this process. Then this process plays the card network's issuer:
// BENCH_CONNECTIONS (50) kept-open connections send signed `authorization.request` events straight to
// POST /api/v1/issuer/webhook, on cards picked at random, for BENCH_SECONDS (15), each waiting for its
// answer before sending the next. Measured: decisions a second, the time from sending to the answer
// (p50, p99), and the CPU a decision costs the server and PostgreSQL. Goal: ≥ 500 decisions/s, p99 ≤ 100 ms.
import { randomUUID } from 'node:crypto';
import { spawn } from 'node:child_process';
import http from 'node:http';
import os from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { CardItem, OpenedAvailableAnswer } from '@portal/contract/cards';
import { sql } from 'drizzle-orm';
import { createServices } from '../apps/server/src/composition.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { type Database, openDatabase } from '../apps/server/src/db/engine.ts';
import { systemClock } from '../apps/server/src/lib/clock.ts';
import { hashPassword } from '../apps/server/src/lib/crypto.ts';
import { ISSUER_SIGNATURE_HEADER, signIssuerPayload } from '../apps/server/src/lib/issuer-signature.ts';
import { portalWebhookUrl } from '../apps/server/src/providers/issuer/built-in.ts';
import { ISSUER_SPENDING_EVENTS } from '../apps/server/src/providers/issuer/port.ts';
import { startIssuerSimulator } from '../apps/server/src/providers/issuer/simulator-server.ts';
// production's settings; nothing is sent by SMS or mail here, they only have to be there
import { productionEnv } from '../apps/server/test/helpers/production-env.ts';
import { decisionOf, post } from './lib/issuer-side.ts';
import { freePort, inParallel, ms, percentile, processCpu, sorted } from './lib/measure.ts';
import { freshBenchDatabase } from './lib/pg.ts';
import { apiCaller, BENCH_POOL, benchServerEnv, dataOf, serveBenchApp } from './lib/server.ts';

const CARDS = Number(process.env.BENCH_CARDS ?? 1_000);
const CARDS_EACH = 10;
const LOAD = process.env.BENCH_LOAD ?? '100.00';
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
const PRODUCT = '订阅支付卡';
const HOST = 'localhost';
const GOAL_RATE = 500;
const GOAL_P99_MS = 100;
const SECRET = productionEnv.ISSUER_WEBHOOK_SECRET as string;
const WEBHOOK_PATH = '/api/v1/issuer/webhook';

async function bench() {
  const target = await freshBenchDatabase('auth');
  const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
  const serverPort = await freePort();
  // the issuer that issues the cards while preparing, in this process: its CPU is not the portal's
  const issuer = await startIssuerSimulator({ port: 0, webhookUrl: portalWebhookUrl('127.0.0.1', serverPort), secret: SECRET, delayMs: 0, failRate: 0 });
  const server = spawn(process.execPath, [...profile, '--import', 'tsx', fileURLToPath(import.meta.url), '--serve'], {
    env: { ...process.env, DATABASE_URL: target.url, NODE_ENV: 'production', ISSUER_URL: issuer.url, BENCH_PORT: String(serverPort), BENCH_TIME_PATH: WEBHOOK_PATH },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((resolve) => server.once('exit', resolve));
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  const issuerAgent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  let database: Database | undefined;
  try {
    const lines = createInterface({ input: server.stdout });
    const ready = await new Promise<{ port: number; pid: number }>((resolve, reject) => {
      server.once('exit', (code) => reject(new Error(`the bench server exited with ${code}`)));
      lines.once('line', (line) => resolve(JSON.parse(line)));
    });
    const call = apiCaller(ready.port, agent, HOST);
    const databaseName = new URL(target.url).pathname.slice(1);
    database = await openDatabase({ databaseUrl: target.url, poolSize: 10 });
    const quiet = { info: () => {}, warn: () => {}, error: () => {} };
    const services = createServices({ config: { ...loadConfig(benchServerEnv(issuer.url)), databaseUrl: target.url }, database, clock: systemClock, log: quiet });
    const merchant = await services.merchants.findByHost(HOST);
    if (!merchant) throw new Error(`no demo merchant at ${HOST}`);
    const merchantId = merchant.id;
    await services.products.update(merchantId, { name: PRODUCT }, { perAccountLimit: CARDS_EACH });

    const [pgVersion] = ((await database.db.execute(sql`show server_version`)) as unknown as { rows: Array<{ server_version: string }> }).rows;
    const cpus = os.cpus();
    console.log(
      `machine: ${cpus.length} CPUs (${cpus[0]?.model.trim()}), ${Math.round(os.totalmem() / 2 ** 30)} GB, Node ${process.version}, PostgreSQL ${pgVersion?.server_version}, ` +
        `load average ${os.loadavg().map((n) => n.toFixed(1)).join(' ')} at the start`,
    );
    console.log(`server: one process on 127.0.0.1:${ready.port} (pool ${BENCH_POOL})`);

    // ── preparing: verified, funded accounts, each opening its cards through the API; all NORMAL ──
    let started = performance.now();
    const accounts = Math.ceil(CARDS / CARDS_EACH);
    const passwordHash = await hashPassword('Bench1234');
    const stamp = Date.now().toString().slice(-4);
    const customers: Array<{ id: string; token: string }> = [];
    for (let i = 0; i < accounts; i++) {
      const account = await services.directory.create({ merchantId, phonePrefix: '86', phone: `137${stamp}${String(i).padStart(4, '0')}`, email: `auth${i}.${stamp}@bench.example`, passwordHash });
      if (!account) throw new Error('account insert failed');
      const { token } = await services.sessions.open(database.db, { merchantId, accountId: account.id, memberId: account.memberId, stage: 'FULL', userAgent: 'bench:auth', ip: '127.0.0.1' });
      customers.push({ id: account.id, token });
    }
    const loadMinor = BigInt(Math.round(Number(LOAD) * 100));
    await inParallel(customers, 10, async (who, i) => {
      dataOf(await call('PUT', '/card/verification', who.token, { real_name: '张三', id_number: '11010519491231002X' }), 'verification');
      await services.ledger.recharge({ merchantId, accountId: who.id, currency: 'USD', amount: BigInt(CARDS_EACH) * (loadMinor + 10_00n), memo: 'bench:auth', key: `bench-auth-fund-${i}` });
    });
    const { products } = dataOf(await call<OpenedAvailableAnswer>('GET', '/card/opened-available', (customers[0] as { token: string }).token), 'opened-available');
    const product = products.find((p) => p.name === PRODUCT);
    if (!product) throw new Error(`no product ${PRODUCT}`);
    const openings = Array.from({ length: CARDS }, (_, i) => ({ who: customers[i % accounts] as { token: string }, i }));
    await inParallel(openings, 16, async ({ who, i }) => {
      dataOf(
        await call<CardItem>('POST', '/card', who.token, { product_id: product.id, amount: LOAD, nickname: `授权压测${i + 1}` }, { 'idempotency-key': `bench-auth-open-${i}-${stamp}` }),
        'POST /card',
      );
    });
    await issuer.simulator.settled();
    const { rows: cardRows } = (await database.db.execute(sql`select id from cards where merchant_id = ${merchantId} and status = 'NORMAL' and nickname like '授权压测%'`)) as unknown as { rows: Array<{ id: string }> };
    const cardIds = cardRows.map((row) => row.id);
    console.log(`prepared ${accounts} verified, funded accounts and ${cardIds.length} NORMAL cards holding ${LOAD} USD each in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    if (cardIds.length < CARDS) throw new Error(`only ${cardIds.length} of ${CARDS} cards became NORMAL`);

    // ── the issuer's side: signed authorisation requests on kept-open connections ──
    let serial = 0;
    async function authorise() {
      const id = randomUUID();
      const cents = 1 + Math.floor(Math.random() * 100);
      const event = {
        id,
        type: ISSUER_SPENDING_EVENTS.authorizationRequest,
        created_at: new Date().toISOString(),
        data: { id, card_id: cardIds[serial++ % cardIds.length] as string, amount: (cents / 100).toFixed(2), currency: 'USD', merchant_name: 'Meta Ads', mcc: '7311', country: 'US' },
      };
      const body = JSON.stringify(event);
      const at = performance.now();
      const answer = await post(ready.port, issuerAgent, WEBHOOK_PATH, body, { [ISSUER_SIGNATURE_HEADER]: signIssuerPayload(SECRET, body, new Date()) });
      return { answer, latency: performance.now() - at };
    }
    /** CONNECTIONS loops, each sending its next request once the last is answered, until `until` */
    async function drive(until: number, record: (result: Awaited<ReturnType<typeof authorise>>) => void) {
      await Promise.all(
        Array.from({ length: CONNECTIONS }, async () => {
          while (performance.now() < until) record(await authorise());
        }),
      );
    }

    // a first request: what the server answers, said before the run
    const probe = await authorise();
    const probed = decisionOf(probe.answer);
    if ('none' in probed) {
      console.log(`\nthe server answers an authorization.request without a decision (${probed.none}: ${probe.answer.text.slice(0, 200)});`);
      console.log('the authorisation handler is not in this server: the run below measures the webhook answering without deciding.');
    }
    await drive(performance.now() + WARMUP_SECONDS * 1000, () => {});

    const db = database.db;
    const cpuNow = async () => {
      const { rows } = (await db.execute(sql`select pid from pg_stat_activity where datname = ${databaseName}`)) as unknown as { rows: Array<{ pid: number }> };
      const own = process.cpuUsage();
      return { server: processCpu(ready.pid), postgres: rows.reduce((sum, row) => sum + processCpu(row.pid), 0), clients: (own.user + own.system) / 1e6 };
    };
    const latencies: number[] = [];
    const decisionLatencies: number[] = [];
    const outcomes = new Map<string, number>();
    const count = (key: string) => outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
    let errors = 0;
    const cpuBefore = await cpuNow();
    // the server times the webhook's requests from received to answered over the run (bench/lib/server.ts)
    const serverTimings = new Promise<{ count: number; p50: number; p99: number }>((resolve) => {
      const take = (line: string) => {
        const parsed = JSON.parse(line) as { timings?: { count: number; p50: number; p99: number } };
        if (!parsed.timings) return;
        lines.off('line', take);
        resolve(parsed.timings);
      };
      lines.on('line', take);
    });
    server.kill('SIGUSR2');
    started = performance.now();
    await drive(started + SECONDS * 1000, ({ answer, latency }) => {
      latencies.push(latency);
      const decision = decisionOf(answer);
      if ('none' in decision) {
        if (answer.status !== 200) errors++;
        count(`no decision: ${decision.none}`);
        return;
      }
      decisionLatencies.push(latency);
      count(decision.approved ? 'approved' : `declined ${decision.decline_code ?? '(no code)'}`);
    });
    const elapsed = (performance.now() - started) / 1000;
    server.kill('SIGUSR2');
    const received = await serverTimings;
    const cpuAfter = await cpuNow();
    const cpu = { server: cpuAfter.server - cpuBefore.server, postgres: cpuAfter.postgres - cpuBefore.postgres, clients: cpuAfter.clients - cpuBefore.clients };

    const decisions = decisionLatencies.length;
    const rate = decisions / elapsed;
    const all = sorted(latencies);
    const decided = sorted(decisionLatencies);
    const per = (seconds: number) => ms((seconds / Math.max(1, decisions || latencies.length)) * 1000);
    const audit = await services.books.audit();
    console.log(`\n${latencies.length} × signed authorization.request to POST ${WEBHOOK_PATH}, ${CONNECTIONS} concurrent issuer connections, over ${cardIds.length} cards, ${elapsed.toFixed(1)} s after ${WARMUP_SECONDS} s to warm up`);
    console.table(Object.fromEntries([...outcomes].sort((a, b) => b[1] - a[1]).map(([outcome, n]) => [outcome, { answers: n }])));
    console.table({
      'decisions/s': { value: Math.round(rate) },
      'answers/s (with or without a decision)': { value: Math.round(latencies.length / elapsed) },
      'send → decision p50 (ms)': { value: ms(percentile(decided, 50)) },
      'send → decision p99 (ms)': { value: ms(percentile(decided, 99)) },
      'send → any answer p99 (ms)': { value: ms(percentile(all, 99)) },
      'server: received → answered p50 (ms)': { value: ms(received.p50) },
      'server: received → answered p99 (ms)': { value: ms(received.p99) },
      'HTTP errors': { value: errors },
      'ledger audit violations': { value: audit.violations.length },
      [`CPU ms per ${decisions ? 'decision' : 'answer'}: server, PostgreSQL, clients`]: { value: `${per(cpu.server + cpu.postgres)} (${per(cpu.server)}, ${per(cpu.postgres)}, ${per(cpu.clients)})` },
    });
    console.log(
      `CPU: server ${cpu.server.toFixed(1)} s, PostgreSQL ${cpu.postgres.toFixed(1)} s, clients ${cpu.clients.toFixed(1)} s in ${elapsed.toFixed(1)} s; ` +
        `the server process, one thread, at most ~${Math.round(1000 / Math.max(0.001, per(cpu.server)))} ${decisions ? 'decisions' : 'answers'}/s`,
    );
    for (const violation of audit.violations.slice(0, 10)) console.log(`  ${violation.rule}: ${violation.detail}`);
    const p99 = percentile(decided, 99);
    const pass = decisions > 0 && rate >= GOAL_RATE && p99 <= GOAL_P99_MS && errors === 0 && audit.violations.length === 0;
    console.log(
      decisions === 0
        ? `goal ≥ ${GOAL_RATE} decisions/s, p99 ≤ ${GOAL_P99_MS} ms: no decision was answered (the server does not decide authorisations) — FAIL`
        : `goal ≥ ${GOAL_RATE} decisions/s, p99 ≤ ${GOAL_P99_MS} ms, no errors, audit clean: ${Math.round(rate)} decisions/s, p99 ${ms(p99)} ms — ${pass ? 'PASS' : 'FAIL'}`,
    );
    console.log(`load average at the end ${os.loadavg().map((n) => n.toFixed(1)).join(' ')}`);
    process.exitCode = pass ? 0 : 1;
  } finally {
    agent.destroy();
    issuerAgent.destroy();
    await database?.close();
    server.kill('SIGTERM');
    await exited;
    await issuer.close();
    if (process.env.BENCH_KEEP_DATABASE) console.log(`the database is kept: ${target.url}`);
    else await target.drop();
  }
}

if (process.argv.includes('--serve')) await serveBenchApp();
else await bench();
