// `npm run bench:funding-auto`: what auto top-up rules add to an authorisation decision's CPU, on PostgreSQL.
//
// The server (this file run with --serve) is the real app on a fresh database with the demo data, in a
// process of its own, as bench:auth runs it. Preparing: BENCH_CARDS (200) 订阅支付卡 holding BENCH_LOAD
// (100.00) each, opened through POST /api/v1/card by verified, funded accounts (10 cards each). Then three
// runs of BENCH_SECONDS (15) each, BENCH_CONNECTIONS (32) kept-open connections sending signed
// `authorization.request` events of 0.01–2.00 on cards picked in turn: with no rule on any card; with a
// rule on every card that no authorisation crosses (below 10.00 top up to 100.00), what a rule costs every
// decision; and with every rule's threshold raised to 1.00 below what its card holds, so that cards cross
// and are topped up by the job meanwhile, whose work counts in that run's CPU (shown, not held to the goal:
// each top-up is the work a manual one would be). Printed: decisions a second and the CPU a decision costs
// the server and PostgreSQL in each run, and the ratios. Goal: a rule adds at most 10 % to a decision.
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
import { productionEnv } from '../apps/server/test/helpers/production-env.ts';
import { decisionOf, post } from './lib/issuer-side.ts';
import { freePort, inParallel, ms, processCpu } from './lib/measure.ts';
import { freshBenchDatabase } from './lib/pg.ts';
import { apiCaller, benchServerEnv, dataOf, serveBenchApp } from './lib/server.ts';

const CARDS = Number(process.env.BENCH_CARDS ?? 200);
const CARDS_EACH = 10;
const LOAD = process.env.BENCH_LOAD ?? '100.00';
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const RULE = { enabled: true, threshold: '10.00', target: '100.00', daily_max: '1000.00' };
const PRODUCT = '订阅支付卡';
const HOST = 'localhost';
const GOAL_RATIO = 1.1;
const SECRET = productionEnv.ISSUER_WEBHOOK_SECRET as string;
const WEBHOOK_PATH = '/api/v1/issuer/webhook';

async function bench() {
  const target = await freshBenchDatabase('funding_auto');
  const serverPort = await freePort();
  const issuer = await startIssuerSimulator({ port: 0, webhookUrl: portalWebhookUrl('127.0.0.1', serverPort), secret: SECRET, delayMs: 0, failRate: 0 });
  const server = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--serve'], {
    env: { ...process.env, DATABASE_URL: target.url, NODE_ENV: 'production', ISSUER_URL: issuer.url, BENCH_PORT: String(serverPort) },
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
    const cpus = os.cpus();
    console.log(`machine: ${cpus.length} CPUs (${cpus[0]?.model.trim()}), Node ${process.version}, load average ${os.loadavg().map((n) => n.toFixed(1)).join(' ')} at the start`);

    // ── preparing: verified accounts, each funded for its cards' loads and many top-ups, opening its cards ──
    const started = performance.now();
    const accounts = Math.ceil(CARDS / CARDS_EACH);
    const passwordHash = await hashPassword('Bench1234');
    const stamp = Date.now().toString().slice(-4);
    const customers: Array<{ id: string; token: string }> = [];
    for (let i = 0; i < accounts; i++) {
      const account = await services.directory.create({ merchantId, phonePrefix: '86', phone: `136${stamp}${String(i).padStart(4, '0')}`, email: `fa${i}.${stamp}@bench.example`, passwordHash });
      if (!account) throw new Error('account insert failed');
      const { token } = await services.sessions.open(database.db, { merchantId, accountId: account.id, memberId: account.memberId, stage: 'FULL', userAgent: 'bench:funding-auto', ip: '127.0.0.1' });
      customers.push({ id: account.id, token });
    }
    await inParallel(customers, 8, async (who, i) => {
      dataOf(await call('PUT', '/card/verification', who.token, { real_name: '张三', id_number: '11010519491231002X' }), 'verification');
      await services.ledger.recharge({ merchantId, accountId: who.id, currency: 'USD', amount: 100_000_00n, memo: 'bench:funding-auto', key: `bench-fa-fund-${i}` });
    });
    const { products } = dataOf(await call<OpenedAvailableAnswer>('GET', '/card/opened-available', (customers[0] as { token: string }).token), 'opened-available');
    const product = products.find((p) => p.name === PRODUCT);
    if (!product) throw new Error(`no product ${PRODUCT}`);
    const openings = Array.from({ length: CARDS }, (_, i) => ({ who: customers[i % accounts] as { token: string }, i }));
    const holders = new Map<string, string>();
    await inParallel(openings, 8, async ({ who, i }) => {
      const card = dataOf(await call<CardItem>('POST', '/card', who.token, { product_id: product.id, amount: LOAD, nickname: `自动充值压测${i + 1}` }, { 'idempotency-key': `bench-fa-open-${i}-${stamp}` }), 'POST /card');
      holders.set(card.id, who.token);
    });
    await issuer.simulator.settled();
    const { rows } = (await database.db.execute(sql`select id from cards where merchant_id = ${merchantId} and status = 'NORMAL' and nickname like '自动充值压测%'`)) as unknown as { rows: Array<{ id: string }> };
    const cardIds = rows.map((row) => row.id);
    console.log(`prepared ${accounts} accounts and ${cardIds.length} NORMAL cards holding ${LOAD} USD each in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    if (cardIds.length < CARDS) throw new Error(`only ${cardIds.length} of ${CARDS} cards became NORMAL`);

    let serial = 0;
    const authorise = async () => {
      const id = randomUUID();
      const cents = 1 + Math.floor(Math.random() * 200);
      const body = JSON.stringify({
        id,
        type: ISSUER_SPENDING_EVENTS.authorizationRequest,
        created_at: new Date().toISOString(),
        data: { id, card_id: cardIds[serial++ % cardIds.length] as string, amount: (cents / 100).toFixed(2), currency: 'USD', merchant_name: 'Meta Ads', mcc: '7311', country: 'US' },
      });
      return decisionOf(await post(ready.port, issuerAgent, WEBHOOK_PATH, body, { [ISSUER_SIGNATURE_HEADER]: signIssuerPayload(SECRET, body, new Date()) }, HOST));
    };
    const db = database.db;
    const cpuNow = async () => {
      const { rows: pids } = (await db.execute(sql`select pid from pg_stat_activity where datname = ${databaseName}`)) as unknown as { rows: Array<{ pid: number }> };
      return { server: processCpu(ready.pid), postgres: pids.reduce((sum, row) => sum + processCpu(row.pid), 0) };
    };
    /** One run: decisions, and the CPU the server and PostgreSQL spent on each. */
    async function run(label: string) {
      let decisions = 0;
      let errors = 0;
      const before = await cpuNow();
      const from = performance.now();
      const until = from + SECONDS * 1000;
      await Promise.all(
        Array.from({ length: CONNECTIONS }, async () => {
          while (performance.now() < until) {
            if ('none' in (await authorise())) errors++;
            else decisions++;
          }
        }),
      );
      const elapsed = (performance.now() - from) / 1000;
      const after = await cpuNow();
      const server = after.server - before.server;
      const postgres = after.postgres - before.postgres;
      return { label, decisions, errors, rate: decisions / elapsed, perDecision: ((server + postgres) / Math.max(1, decisions)) * 1000, server, postgres };
    }

    // a short warm-up, then the run without rules
    const warm = performance.now() + 2000;
    while (performance.now() < warm) await authorise();
    const without = await run('without rules');
    await inParallel(cardIds, 8, async (id) => {
      dataOf(await call('PUT', `/card/${id}/auto-recharge`, holders.get(id) as string, RULE), 'PUT auto-recharge');
    });
    const withRules = await run('with a rule on every card, none crossed');
    const held = await services.books.cardBalances(merchantId, cardIds);
    await inParallel(cardIds, 8, async (id) => {
      const money = held.get(id);
      const near = money ? money.balance - money.held - 1_00n : 0n;
      const threshold = `${near / 100n}.${String(near % 100n).padStart(2, '0')}`;
      dataOf(await call('PUT', `/card/${id}/auto-recharge`, holders.get(id) as string, { ...RULE, threshold }), 'PUT auto-recharge');
    });
    const crossing = await run('with rules that cards cross');
    // the top-ups the last run started, ended before the books are checked
    const countRuns = async () =>
      ((await db.execute(sql`select status, count(*)::int as n from auto_recharge_runs group by status`)) as unknown as { rows: Array<{ status: string; n: number }> }).rows;
    for (let i = 0; i < 300 && (await countRuns()).some((row) => row.status === 'PENDING'); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    const runs = Object.fromEntries((await countRuns()).map((row) => [row.status, row.n]));
    const audit = await services.books.audit();

    console.table(
      Object.fromEntries(
        [without, withRules, crossing].map((one) => [
          one.label,
          { 'decisions/s': Math.round(one.rate), decisions: one.decisions, errors: one.errors, 'CPU ms per decision (server + PostgreSQL)': ms(one.perDecision), 'server s': ms(one.server), 'PostgreSQL s': ms(one.postgres) },
        ]),
      ),
    );
    const ratio = withRules.perDecision / without.perDecision;
    console.log(`auto top-up runs during the last run: ${JSON.stringify(runs)}; ledger audit violations: ${audit.violations.length}`);
    console.log(`CPU per decision with cards crossing (their top-ups included) ÷ without rules: ${(crossing.perDecision / without.perDecision).toFixed(3)}`);
    const pass = ratio <= GOAL_RATIO && without.errors + withRules.errors + crossing.errors === 0 && audit.violations.length === 0;
    console.log(`CPU per decision with rules ÷ without: ${ratio.toFixed(3)} (goal ≤ ${GOAL_RATIO}) — ${pass ? 'PASS' : 'FAIL'}`);
    console.log(`load average at the end ${os.loadavg().map((n) => n.toFixed(1)).join(' ')}`);
    process.exitCode = pass ? 0 : 1;
  } finally {
    agent.destroy();
    issuerAgent.destroy();
    await database?.close();
    server.kill('SIGTERM');
    await exited;
    await issuer.close();
    await target.drop();
  }
}

if (process.argv.includes('--serve')) await serveBenchApp();
else await bench();
