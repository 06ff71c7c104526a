// `npm run bench:cards`: opening cards and listing them, end to end over real HTTP on PostgreSQL.
//
// Two processes, as production has them: the server (this file run with --serve) is the real app on a
// fresh database with the demo data, listening on 127.0.0.1; the simulated card issuer is a process
// of its own (`npm run issuer-sim`, no delay, no failures) on a loopback port, configured as production
// configures a real issuer (ISSUER_URL): the portal asks it with a signed POST, it answers with a
// signed POST to the portal's webhook. Its CPU is counted apart: it is not the portal's.
//
// Phase A: 100 verified and funded accounts open 10 订阅支付卡 each through POST /api/v1/card, from
// BENCH_CLIENTS concurrent HTTP clients; each card's time from sending the request to its
// CARD_STATUS NORMAL on its holder's event stream. Phase B: one account holding 10,000 cards; the
// latency of GET /api/v1/card on its first and its last page, as filled and after VACUUM (ANALYZE)
// (the state autovacuum keeps tables in, where the server runs it). Phase C: the same account's cards with
// authorisations and tags; the latency of GET /api/v1/card by every sort (first and last page) and some
// filters (several statuses, a tag, a BIN, a nickname, last four), and of GET /card/tags. Also the CPU one
// card costs, so a run on a busy machine still says what the path costs.
import { spawn } from 'node:child_process';
import http from 'node:http';
import os from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { CardItem, CardPage, OpenedAvailableAnswer } from '@portal/contract/cards';
import { CARD_SORTS } from '@portal/contract/card-list';
import { sql } from 'drizzle-orm';
import { createServices } from '../apps/server/src/composition.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { type Database, openDatabase } from '../apps/server/src/db/engine.ts';
import { systemClock } from '../apps/server/src/lib/clock.ts';
import { hashPassword } from '../apps/server/src/lib/crypto.ts';
import { portalWebhookUrl } from '../apps/server/src/providers/issuer/built-in.ts';
// production's settings; nothing is sent by SMS or mail here, they only have to be there
import { productionEnv } from '../apps/server/test/helpers/production-env.ts';
import { acceptsOn, freePort, inParallel, ms, percentile, processCpu, sorted } from './lib/measure.ts';
import { bulkTopUp, openStream } from './lib/cards-client.ts';
import { freshBenchDatabase } from './lib/pg.ts';
import { apiCaller, BENCH_POOL, benchServerEnv, dataOf, serveBenchApp } from './lib/server.ts';

const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 100);
const CARDS_EACH = Number(process.env.BENCH_CARDS_EACH ?? 10);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 32);
const BIG_CARDS = Number(process.env.BENCH_BIG_CARDS ?? 10_000);
const FILL_CLIENTS = Number(process.env.BENCH_FILL_CLIENTS ?? 8);
const PAGE_REQUESTS = Number(process.env.BENCH_PAGE_REQUESTS ?? 200);
const PAGE_SIZE = 20;
/** phase C: authorisations written per card of the big account, over the last 40 days */
const TX_EACH = Number(process.env.BENCH_TX_EACH ?? 12);
/** phase C: requests per sort or filter; with 200 the p99 is the third slowest, not the slowest but one */
const SORT_REQUESTS = Number(process.env.BENCH_SORT_REQUESTS ?? 200);
const TAG_GROUPS = 20;
/** phase D: cards of the big account topped up by one bulk action (at most 1,000 a call) */
const BULK_CARDS = Math.min(1_000, Number(process.env.BENCH_BULK ?? 1_000));

/** BENCH_LIST_ONLY=1: phases C and D alone, their cards written straight into the tables */
const LIST_ONLY = process.env.BENCH_LIST_ONLY === '1';
const PRODUCT = '订阅支付卡';
const FIRST_LOAD = '5.00';
const HOST = 'localhost';
const GOAL_RATE = 100;
const GOAL_PAGE_P99_MS = 50;

// ── the client side ──

const seconds = (from: number, to: number) => ((to - from) / 1000).toFixed(1);

/**
 * CPU seconds used so far by the server process, the PostgreSQL backends serving the bench database,
 * the simulated issuer's process and this process (the clients): the machine may be busy with other
 * work, so the figures also say what one card costs, and what of it is the portal's (server, PostgreSQL).
 */
async function cpuNow(database: Database, name: string, serverPid: number, issuerPid: number) {
  const { rows } = (await database.db.execute(sql`select pid from pg_stat_activity where datname = ${name}`)) as unknown as { rows: Array<{ pid: number }> };
  const own = process.cpuUsage();
  return {
    server: processCpu(serverPid),
    postgres: rows.reduce((sum, row) => sum + processCpu(row.pid), 0),
    issuer: processCpu(issuerPid),
    clients: (own.user + own.system) / 1e6,
  };
}
type Cpu = Awaited<ReturnType<typeof cpuNow>>;
const cpuSince = (before: Cpu, after: Cpu) => ({
  server: after.server - before.server,
  postgres: after.postgres - before.postgres,
  issuer: after.issuer - before.issuer,
  clients: after.clients - before.clients,
});

async function bench() {
  const target = await freshBenchDatabase('cards');
  // BENCH_PROFILE=<folder>: the server process writes a CPU profile there when it stops
  const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
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
  const server = spawn(process.execPath, [...profile, '--import', 'tsx', fileURLToPath(import.meta.url), '--serve'], {
    env: { ...process.env, DATABASE_URL: target.url, NODE_ENV: 'production', ISSUER_URL: issuerUrl, BENCH_PORT: String(serverPort) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((resolve) => server.once('exit', resolve));
  const streams: http.ClientRequest[] = [];
  const agent = new http.Agent({ keepAlive: true, maxSockets: Math.max(CLIENTS, FILL_CLIENTS) });
  const streamAgent = new http.Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
  let database: Database | undefined;
  try {
    await acceptsOn(issuerPort, issuer, 'the simulated issuer');
    const ready = await new Promise<{ port: number; pid: number }>((resolve, reject) => {
      server.once('exit', (code) => reject(new Error(`the bench server exited with ${code}`)));
      createInterface({ input: server.stdout }).once('line', (line) => resolve(JSON.parse(line)));
    });
    const call = apiCaller(ready.port, agent, HOST);
    const databaseName = new URL(target.url).pathname.slice(1);
    // this process's own services on the same database, as the operator command line has them: to
    // make the customers, fund their wallets, raise the product's limit and audit the books
    database = await openDatabase({ databaseUrl: target.url, poolSize: 10 });
    const quiet = { info: () => {}, warn: () => {}, error: () => {} };
    const services = createServices({ config: { ...loadConfig(benchServerEnv(issuerUrl)), databaseUrl: target.url }, database, clock: systemClock, log: quiet });
    const merchant = await services.merchants.findByHost(HOST);
    if (!merchant) throw new Error(`no demo merchant at ${HOST}`);
    const merchantId = merchant.id;
    await services.products.update(merchantId, { name: PRODUCT }, { perAccountLimit: Math.max(BIG_CARDS, CARDS_EACH) });

    const [pgVersion] = ((await database.db.execute(sql`show server_version`)) as unknown as { rows: Array<{ server_version: string }> }).rows;
    const cpus = os.cpus();
    console.log(
      `machine: ${cpus.length} CPUs (${cpus[0]?.model.trim()}), ${Math.round(os.totalmem() / 2 ** 30)} GB, Node ${process.version}, PostgreSQL ${pgVersion?.server_version}, ` +
        `load average ${os.loadavg().map((n) => n.toFixed(1)).join(' ')} at the start`,
    );
    console.log(`server: one process on 127.0.0.1:${ready.port} (pool ${BENCH_POOL}); the simulated issuer a process of its own at ${issuerUrl} (delay 0 ms, fail rate 0)`);

    // ── the customers: an account and a full session each, the card verification through the API, a funded wallet ──
    let started = performance.now();
    const passwordHash = await hashPassword('Bench1234');
    const stamp = Date.now().toString().slice(-4);
    const customers: Array<{ id: string; memberId: string; token: string }> = [];
    for (let i = 0; i <= ACCOUNTS; i++) {
      const account = await services.directory.create({ merchantId, phonePrefix: '86', phone: `136${stamp}${String(i).padStart(4, '0')}`, email: `cards${i}.${stamp}@bench.example`, passwordHash });
      if (!account) throw new Error('account insert failed');
      const { token } = await services.sessions.open(database.db, { merchantId, accountId: account.id, memberId: account.memberId, stage: 'FULL', userAgent: 'bench:cards', ip: '127.0.0.1' });
      customers.push({ id: account.id, memberId: account.memberId, token });
    }
    const holders = customers.slice(0, ACCOUNTS);
    const big = customers[ACCOUNTS] as { id: string; memberId: string; token: string };
    await inParallel(customers, 10, async (who, i) => {
      dataOf(await call('PUT', '/card/verification', who.token, { real_name: '张三', id_number: '11010519491231002X' }), 'verification');
      const amount = who === big ? BigInt(BIG_CARDS) * 10_00n : 1_000_00n;
      await services.ledger.recharge({ merchantId, accountId: who.id, currency: 'USD', amount, memo: 'bench:cards', key: `bench-fund-${i}` });
    });
    const { products } = dataOf(await call<OpenedAvailableAnswer>('GET', '/card/opened-available', big.token), 'opened-available');
    const product = products.find((p) => p.name === PRODUCT);
    if (!product) throw new Error(`no product ${PRODUCT}`);
    console.log(`prepared ${customers.length} verified, funded accounts in ${seconds(started, performance.now())} s; ${PRODUCT} may be opened ${product.remaining} times per account`);

    /**
     * Phase C: the big account's cards with authorisations and tags; the latency of GET /card by every
     * sort (first and last page) and some filters. Answers the worst p99.
     */
    async function sortsAndFilters() {
      if (!database) throw new Error('no database');
      const lastPage = Math.ceil(BIG_CARDS / PAGE_SIZE);
      const verdict = (p99: number) => (p99 <= GOAL_PAGE_P99_MS ? 'PASS' : 'FAIL');
      const started = performance.now();
      // authorisations written straight into the table (as the issuer's events would leave them): spread
      // over the last 40 days, about one in seven declined, the approved ones pending or settled
      await database.db.execute(sql`
        insert into card_transactions (merchant_id, card_id, account_id, type, status, amount, authorized_amount, currency, merchant_name, mcc, country,
          decline_code, decline_reason, authorization_id, created_at)
        select c.merchant_id, c.id, c.account_id, 'CONSUME',
          case when abs(hashtext(c.id::text || n)) % 7 = 0 then 'FAIL' when n % 3 = 0 then 'PENDING' else 'CLOSED' end,
          100 + abs(hashtext(c.id::text || 'a' || n)) % 50000, 100 + abs(hashtext(c.id::text || 'a' || n)) % 50000, c.currency, 'Meta Ads', '7311', 'US',
          case when abs(hashtext(c.id::text || n)) % 7 = 0 then 'INSUFFICIENT_FUNDS' end,
          case when abs(hashtext(c.id::text || n)) % 7 = 0 then '卡片余额不足' end,
          'bench_' || c.id || '_' || n, now() - (abs(hashtext(c.id::text || 't' || n)) % (40 * 24 * 60)) * interval '1 minute'
        from cards c cross join generate_series(1, ${TX_EACH}) n
        where c.account_id = ${big.id}`);
      // a tag of TAG_GROUPS on each card, a second on one in five; one card in ten frozen
      await database.db.execute(sql`
        update cards set tags = case when abs(hashtext(id::text)) % 5 = 0 then array['组' || abs(hashtext(id::text)) % ${TAG_GROUPS}, '重点'] else array['组' || abs(hashtext(id::text)) % ${TAG_GROUPS}] end,
          status = case when abs(hashtext(id::text || 's')) % 10 = 0 then 'FREEZE' else status end
        where account_id = ${big.id}`);
      await database.db.execute(sql`vacuum (analyze)`);
      // the writes above reach the disk now, not during the measure
      await database.db.execute(sql`checkpoint`);
      const [written] = ((await database.db.execute(sql`select count(*)::int as n from card_transactions where account_id = ${big.id}`)) as unknown as { rows: Array<{ n: number }> }).rows;
      console.log(`\nphase C: ${written?.n} authorisations over the last 40 days on the account's ${BIG_CARDS} cards, tags on every card, one in ten frozen, in ${seconds(started, performance.now())} s`);
      const someCard = dataOf(await call<CardPage>('GET', '/card?page=1&page_size=1', big.token), 'GET /card').items[0];
      const paths: string[] = [];
      for (const sort of CARD_SORTS) for (const page of [1, lastPage]) paths.push(`/card?sort=${sort}&page=${page}&page_size=${PAGE_SIZE}`);
      paths.push(
        `/card?status=NORMAL,FREEZE&sort=-spent_this_month&page=1&page_size=${PAGE_SIZE}`,
        `/card?status=FREEZE&sort=-balance&page=1&page_size=${PAGE_SIZE}`,
        `/card?tag=${encodeURIComponent('组7')}&sort=-decline_rate_30d&page=1&page_size=${PAGE_SIZE}`,
        `/card?tag=${encodeURIComponent('重点')}&status=NORMAL&sort=-last_used_at&page=5&page_size=${PAGE_SIZE}`,
        `/card?keyword=55555555&sort=-decline_rate_30d&page=${lastPage}&page_size=${PAGE_SIZE}`,
        `/card?keyword=${encodeURIComponent('大户卡123')}&sort=-spent_this_month&page=1&page_size=${PAGE_SIZE}`,
        `/card?keyword=${someCard?.last4 ?? '0000'}&page=1&page_size=${PAGE_SIZE}`,
        '/card/tags',
      );
      const lists: Record<string, Record<string, number | string>> = {};
      let worstList = 0;
      for (const path of paths) {
        for (let i = 0; i < 20; i++) dataOf(await call<CardPage>('GET', path, big.token), path);
        const times: number[] = [];
        let total = 0;
        for (let i = 0; i < SORT_REQUESTS; i++) {
          const at = performance.now();
          const answer = dataOf(await call<CardPage & { items: unknown[] }>('GET', path, big.token), path);
          times.push(performance.now() - at);
          total = answer.total ?? answer.items.length;
        }
        const t = sorted(times);
        worstList = Math.max(worstList, percentile(t, 99));
        lists[decodeURIComponent(path.replace('/card?', '').replace(`&page_size=${PAGE_SIZE}`, ''))] = { matching: total, 'p50 ms': ms(percentile(t, 50)), 'p99 ms': ms(percentile(t, 99)) };
      }
      console.log(`GET /api/v1/card by every sort and some filters, ${SORT_REQUESTS} sequential requests each after 20 to warm up:`);
      console.table(lists);
      console.log(
        'indexes: cards_account_created (newest/oldest first, and the scope of every other sort), card_figures_pkey (spent this month, ' +
          'the decline rate and last used: one row a card, kept by the trigger on card_transactions), ledger_accounts_owner_uq ' +
          '(balance), cards_tags (tag)',
      );
      console.log(`goal p99 ≤ ${GOAL_PAGE_P99_MS} ms for any sort or filter: worst p99 ${ms(worstList)} ms — ${verdict(worstList)}`);
      return worstList;
    }

    const bulkRecharge = () => bulkTopUp(call, database as Database, big, BULK_CARDS);

    if (LIST_ONLY) {
      // the big account's cards written straight into the tables (as opening them would leave them, with
      // balances from 0.00 to 499.99), not opened one by one: this run measures the list, not the opening
      await database.db.execute(sql`
        insert into cards (merchant_id, account_id, product_id, holder_member_id, nickname, brand, bin, currency, status, last4,
          open_key, open_fingerprint, first_load, open_fee, topup_fee, topup_fee_rate, topup_fee_fixed, decline_fee, created_at, updated_at, issued_at)
        select ${merchantId}, ${big.id}, ${product.id}, ${big.memberId}, '大户卡' || n, 'MASTERCARD', '55555555', 'USD', 'NORMAL', lpad((n % 10000)::text, 4, '0'),
          'bench-fill-' || n, 'bench', 500, 200, 5, '0.010', 30, 30, now() - (${BIG_CARDS} - n) * interval '1 minute', now(), now()
        from generate_series(1, ${BIG_CARDS}) n`);
      await database.db.execute(sql`
        insert into ledger_accounts (merchant_id, currency, kind, owner_id, holder_id, balance)
        select merchant_id, currency, 'CARD', id, account_id, abs(hashtext(id::text)) % 50000 from cards where account_id = ${big.id}`);
      console.log(`filled one account with ${BIG_CARDS} cards written straight into the tables (BENCH_LIST_ONLY)`);
      const listed = (await sortsAndFilters()) <= GOAL_PAGE_P99_MS;
      const bulked = await bulkRecharge();
      process.exitCode = listed && bulked ? 0 : 1;
      return;
    }

    // ── phase A: 1,000 cards across 100 accounts ──
    const normalAt = new Map<string, number>();
    const statusSeen = new Map<string, string>();
    const onStatus = (cardId: string, status: string, at: number) => {
      statusSeen.set(cardId, status);
      if (status === 'NORMAL' && !normalAt.has(cardId)) normalAt.set(cardId, at);
    };
    for (const who of holders) streams.push(await openStream(ready.port, HOST, who.token, streamAgent, onStatus));
    // card i belongs to account i % 100: the clients at work at once hold different accounts
    const jobs = Array.from({ length: ACCOUNTS * CARDS_EACH }, (_, i) => ({ who: holders[i % ACCOUNTS] as { id: string; token: string }, n: Math.floor(i / ACCOUNTS) }));
    const sentAt = new Map<string, number>();
    const postMs: number[] = [];
    let refused = 0;
    const cpuBefore = await cpuNow(database, databaseName, ready.pid, issuer.pid ?? 0);
    const phaseStart = performance.now();
    await inParallel(jobs, CLIENTS, async ({ who, n }, i) => {
      const at = performance.now();
      const answer = await call<CardItem>('POST', '/card', who.token, { product_id: product.id, amount: FIRST_LOAD, nickname: `压测卡${n + 1}` }, { 'idempotency-key': `bench-open-${i}-${stamp}` });
      postMs.push(performance.now() - at);
      if (answer.code !== 0) {
        refused++;
        if (refused <= 5) console.error(`POST /card refused: HTTP ${answer.status}, code ${answer.code}, ${answer.message}`);
        return;
      }
      sentAt.set(answer.data.id, at);
    });
    const postsDone = performance.now();
    const expected = jobs.length - refused;
    const deadline = performance.now() + 60_000;
    while ([...sentAt.keys()].some((id) => !normalAt.has(id)) && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    const openLatency: number[] = [];
    let lastNormal = phaseStart;
    for (const [id, at] of sentAt) {
      const normal = normalAt.get(id);
      if (normal === undefined) continue;
      openLatency.push(normal - at);
      lastNormal = Math.max(lastNormal, normal);
    }
    const cpu = cpuSince(cpuBefore, await cpuNow(database, databaseName, ready.pid, issuer.pid ?? 0));
    const per = (seconds: number) => ms((seconds / Math.max(1, openLatency.length)) * 1000);
    const cpuPerCard = per(cpu.server + cpu.postgres + cpu.issuer + cpu.clients);
    const missing = sentAt.size - openLatency.length;
    const rate = openLatency.length / ((lastNormal - phaseStart) / 1000);
    const open = sorted(openLatency);
    const posts = sorted(postMs);

    // every card NORMAL as GET /card counts them, and the books sound
    let normalTotal = 0;
    for (const who of holders) normalTotal += dataOf(await call<CardPage>('GET', '/card?status=NORMAL&page=1&page_size=1', who.token), 'GET /card').total;
    const auditA = await services.books.audit();
    for (const stream of streams.splice(0)) stream.destroy();

    console.log(`\nphase A: ${jobs.length} × POST /api/v1/card (${PRODUCT}, ${FIRST_LOAD}) over ${ACCOUNTS} accounts, ${CLIENTS} concurrent clients, one event stream per account`);
    console.table({
      'cards opened (NORMAL on the stream)': { value: openLatency.length },
      'refused / not NORMAL within 60 s': { value: `${refused} / ${missing}` },
      'time, first request → last NORMAL (s)': { value: ms((lastNormal - phaseStart) / 1000) },
      'time, first request → last POST answered (s)': { value: ms((postsDone - phaseStart) / 1000) },
      'cards/s': { value: Math.round(rate) },
      'request → 使用中 p50 (ms)': { value: ms(percentile(open, 50)) },
      'request → 使用中 p95 (ms)': { value: ms(percentile(open, 95)) },
      'request → 使用中 p99 (ms)': { value: ms(percentile(open, 99)) },
      'POST /card p50 (ms)': { value: ms(percentile(posts, 50)) },
      'POST /card p99 (ms)': { value: ms(percentile(posts, 99)) },
      'NORMAL per GET /card totals': { value: normalTotal },
      'ledger audit violations': { value: auditA.violations.length },
      'CPU ms per card: server, PostgreSQL, issuer, clients': { value: `${cpuPerCard} (${per(cpu.server)}, ${per(cpu.postgres)}, ${per(cpu.issuer)}, ${per(cpu.clients)})` },
    });
    console.log(
      `CPU of phase A: server ${cpu.server.toFixed(1)} s, PostgreSQL ${cpu.postgres.toFixed(1)} s, issuer ${cpu.issuer.toFixed(1)} s, clients ${cpu.clients.toFixed(1)} s ` +
        `in ${((lastNormal - phaseStart) / 1000).toFixed(1)} s: on ${os.cpus().length} otherwise idle CPUs that is at most ~${Math.round((os.cpus().length * 1000) / cpuPerCard)} cards/s; ` +
        `the server process, one thread, at most ~${Math.round(1000 / per(cpu.server))} cards/s`,
    );
    for (const violation of auditA.violations.slice(0, 10)) console.log(`  ${violation.rule}: ${violation.detail}`);
    const passA = rate >= GOAL_RATE && normalTotal === jobs.length && expected === jobs.length && missing === 0 && auditA.violations.length === 0;
    console.log(`goal ≥ ${GOAL_RATE} cards/s, all ${jobs.length} NORMAL, audit clean: ${Math.round(rate)} cards/s — ${passA ? 'PASS' : 'FAIL'}`);

    // ── phase B: one account holding 10,000 cards; its first and last page ──
    started = performance.now();
    const fill = Array.from({ length: BIG_CARDS }, (_, i) => i);
    await inParallel(fill, FILL_CLIENTS, async (i) => {
      dataOf(
        await call<CardItem>('POST', '/card', big.token, { product_id: product.id, amount: FIRST_LOAD, nickname: `大户卡${i + 1}` }, { 'idempotency-key': `bench-fill-${i}-${stamp}` }),
        'filling POST /card',
      );
    });
    const filledPosts = performance.now();
    let summary = { total: 0, by_status: { NORMAL: 0 } as Record<string, number> };
    for (;;) {
      summary = dataOf(await call<typeof summary>('GET', '/card/summary', big.token), 'GET /card/summary');
      if ((summary.by_status.NORMAL ?? 0) >= BIG_CARDS || performance.now() - filledPosts > 60_000) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const filled = performance.now();
    console.log(
      `\nphase B: filled one account with ${BIG_CARDS} cards through POST /api/v1/card (${FILL_CLIENTS} clients) in ${seconds(started, filled)} s ` +
        `(${Math.round(BIG_CARDS / ((filled - started) / 1000))} cards/s; the account's openings are taken one at a time), ${summary.by_status.NORMAL} NORMAL`,
    );
    const lastPage = Math.ceil(BIG_CARDS / PAGE_SIZE);
    const pages: Record<string, Record<string, number | string>> = {};
    const worstP99 = { filled: 0, analyzed: 0 };
    /** PAGE_REQUESTS sequential requests of the first and of the last page, after 20 to warm up */
    async function measurePages(state: string, which: keyof typeof worstP99) {
      for (const page of new Set([1, lastPage])) {
        const path = `/card?page=${page}&page_size=${PAGE_SIZE}`;
        for (let i = 0; i < 20; i++) dataOf(await call<CardPage>('GET', path, big.token), path);
        const times: number[] = [];
        let items = 0;
        for (let i = 0; i < PAGE_REQUESTS; i++) {
          const at = performance.now();
          const answer = dataOf(await call<CardPage>('GET', path, big.token), path);
          times.push(performance.now() - at);
          items = answer.items.length;
        }
        const t = sorted(times);
        worstP99[which] = Math.max(worstP99[which], percentile(t, 99));
        pages[`${state}: page ${page}`] = { requests: PAGE_REQUESTS, items, 'p50 ms': ms(percentile(t, 50)), 'p99 ms': ms(percentile(t, 99)), 'max ms': ms(t[t.length - 1] ?? 0) };
      }
    }
    // as filled: the statistics are what this server made of them meanwhile (none where autovacuum is off)
    const [autovacuum] = ((await database.db.execute(sql`show autovacuum`)) as unknown as { rows: Array<{ autovacuum: string }> }).rows;
    await measurePages(`as filled (autovacuum ${autovacuum?.autovacuum})`, 'filled');
    // then as autovacuum leaves the tables after such a burst: statistics, and the visibility map index-only scans read
    started = performance.now();
    await database.db.execute(sql`vacuum (analyze)`);
    console.log(`VACUUM (ANALYZE) of the database: ${seconds(started, performance.now())} s`);
    await measurePages('after VACUUM (ANALYZE)', 'analyzed');
    console.log(`GET /api/v1/card?page=N&page_size=${PAGE_SIZE} of the account holding ${BIG_CARDS} cards, ${PAGE_REQUESTS} sequential requests per page after 20 to warm up:`);
    console.table(pages);
    const auditB = await services.books.audit();
    console.log(`ledger audit after phase B: ${auditB.size.accounts} ledger accounts, ${auditB.size.holds} holds: ${auditB.violations.length} violations`);
    // where autovacuum is off (a test server), the tables as filled have no statistics and no visibility
    // map, which a production server's autovacuum gives them: the goal is judged as that server has them
    const judged = autovacuum?.autovacuum === 'off' ? worstP99.analyzed : Math.max(worstP99.filled, worstP99.analyzed);
    const verdict = (p99: number) => (p99 <= GOAL_PAGE_P99_MS ? 'PASS' : 'FAIL');
    console.log(
      `goal p99 ≤ ${GOAL_PAGE_P99_MS} ms on any page: worst p99 ${ms(judged)} ms — ${verdict(judged)}` +
        (autovacuum?.autovacuum === 'off' ? ` (with the statistics autovacuum keeps; as filled, without them: ${ms(worstP99.filled)} ms — ${verdict(worstP99.filled)})` : ''),
    );

    console.log(`load average at the end ${os.loadavg().map((n) => n.toFixed(1)).join(' ')}`);
    const worstList = await sortsAndFilters();
    const bulked = await bulkRecharge();
    const auditD = await services.books.audit();
    console.log(`ledger audit after phase D: ${auditD.size.accounts} ledger accounts, ${auditD.size.holds} holds: ${auditD.violations.length} violations`);
    process.exitCode =
      passA && auditB.violations.length === 0 && auditD.violations.length === 0 && judged <= GOAL_PAGE_P99_MS && worstList <= GOAL_PAGE_P99_MS && bulked ? 0 : 1;
  } finally {
    for (const stream of streams) stream.destroy();
    agent.destroy();
    streamAgent.destroy();
    await database?.close();
    server.kill('SIGTERM');
    issuer.kill('SIGTERM');
    await Promise.all([exited, issuerExited]);
    // BENCH_KEEP_DATABASE=1 keeps it to look into (EXPLAIN) afterwards
    if (process.env.BENCH_KEEP_DATABASE) console.log(`the database is kept: ${target.url}`);
    else await target.drop();
  }
}

if (process.argv.includes('--serve')) await serveBenchApp();
else await bench();
