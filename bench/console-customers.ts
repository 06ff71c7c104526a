// `npm run bench:console-customers`: the console's customer search over 100,000 customers of one merchant
// (BENCH_CUSTOMERS), each with an owner (phone, e-mail), a verified real name, a deposit reference, a
// wallet and, one in four, a card, written straight into the tables; GET /api/console/v1/customers is then
// measured over HTTP against the real server on PostgreSQL, for each kind of keyword and for the list with
// none. Goal: p99 ≤ 100 ms for every kind.
import { spawn } from 'node:child_process';
import http from 'node:http';
import os from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { generate } from 'otplib';
import { createServices } from '../apps/server/src/composition.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { type Database, openDatabase } from '../apps/server/src/db/engine.ts';
import { systemClock } from '../apps/server/src/lib/clock.ts';
import { freePort, ms, percentile, sorted } from './lib/measure.ts';
import { freshBenchDatabase } from './lib/pg.ts';
import { type Answer, benchServerEnv, dataOf, serveBenchApp } from './lib/server.ts';

const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 100_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
/** BENCH_KEEP_DATABASE=1 leaves the filled database in place (its URL printed) for reading plans with EXPLAIN */
const KEEP_DATABASE = process.env.BENCH_KEEP_DATABASE === '1';
const GOAL_P99_MS = 100;
const HOST = 'localhost';
/** no issuer is asked here; the server only has to be given one */
const ISSUER_URL = 'http://127.0.0.1:9';

async function bench() {
  const target = await freshBenchDatabase('customers');
  const serverPort = await freePort();
  const server = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--serve'], {
    env: { ...process.env, DATABASE_URL: target.url, NODE_ENV: 'production', ISSUER_URL, BENCH_PORT: String(serverPort) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((resolve) => server.once('exit', resolve));
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  let database: Database | undefined;
  try {
    const ready = await new Promise<{ port: number; pid: number }>((resolve, reject) => {
      server.once('exit', (code) => reject(new Error(`the bench server exited with ${code}`)));
      createInterface({ input: server.stdout }).once('line', (line) => resolve(JSON.parse(line)));
    });
    /** A JSON call below /api/console/v1 over the kept-open connections. */
    const call = <T>(method: string, path: string, token: string, body?: unknown): Promise<Answer<T>> =>
      new Promise((resolve, reject) => {
        const payload = body === undefined ? undefined : JSON.stringify(body);
        const headers: Record<string, string | number> = { host: HOST, ...(token ? { authorization: `Bearer ${token}` } : {}) };
        if (payload !== undefined) Object.assign(headers, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) });
        const request = http.request({ host: '127.0.0.1', port: ready.port, method, path: `/api/console/v1${path}`, agent, headers }, (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            const answer = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { code: number; message: string; data: T };
            resolve({ status: response.statusCode ?? 0, bytes: Buffer.concat(chunks).length, ...answer });
          });
        });
        request.on('error', reject);
        request.end(payload);
      });
    database = await openDatabase({ databaseUrl: target.url, poolSize: 4 });
    const quiet = { info: () => {}, warn: () => {}, error: () => {} };
    const services = createServices({ config: { ...loadConfig(benchServerEnv(ISSUER_URL)), databaseUrl: target.url }, database, clock: systemClock, log: quiet });
    const merchant = await services.merchants.findByHost(HOST);
    if (!merchant) throw new Error(`no demo merchant at ${HOST}`);
    const [pgVersion] = ((await database.db.execute(sql`show server_version`)) as unknown as { rows: Array<{ server_version: string }> }).rows;
    const cpus = os.cpus();
    console.log(
      `machine: ${cpus.length} CPUs (${cpus[0]?.model.trim()}), Node ${process.version}, PostgreSQL ${pgVersion?.server_version}, ` +
        `load average ${os.loadavg().map((n) => n.toFixed(1)).join(' ')} at the start`,
    );

    // ── the customers, written straight into the tables (as sign-up, verification and a deposit would leave them) ──
    let started = performance.now();
    const m = merchant.id;
    const product = (await database.db.execute(sql`select id from card_products where merchant_id = ${m} limit 1`)) as unknown as { rows: Array<{ id: string }> };
    const productId = product.rows[0]?.id;
    await database.db.execute(sql`
      create temporary table bench_people as
      select n, gen_random_uuid() as id, now() - (${CUSTOMERS} - n) * interval '1 minute' as at,
        '137' || lpad(n::text, 8, '0') as phone, 'user' || n || '@bench' || (n % 97) || '.example' as email,
        (array['张','王','李','赵','刘','陈','杨','黄','周','吴','欧阳','司马'])[1 + n % 12] ||
          (array['伟','芳','娜','敏','静','丽','强','磊','军','洋','勇','艳'])[1 + (n / 12) % 12] ||
          (array['华','明','兰','平','刚','红','玲','飞','宇','峰','霞','鹏'])[1 + (n / 144) % 12] as real_name,
        upper(substr(md5('ref' || n), 1, 8)) as reference
      from generate_series(1, ${CUSTOMERS}) n`);
    await database.db.execute(sql`insert into accounts (id, merchant_id, created_at) select id, ${m}, at from bench_people`);
    await database.db.execute(sql`
      insert into members (id, merchant_id, account_id, role, phone, email, password_hash, created_at)
      select id, ${m}, id, 'OWNER', phone, email, 'bench-no-sign-in', at from bench_people`);
    await database.db.execute(sql`
      insert into card_verifications (account_id, merchant_id, real_name, id_number_masked, basic_at)
      select id, ${m}, real_name, '110***********002X', at from bench_people`);
    await database.db.execute(sql`insert into deposit_references (account_id, merchant_id, reference, created_at) select id, ${m}, reference, at from bench_people`);
    await database.db.execute(sql`
      insert into ledger_accounts (merchant_id, currency, kind, owner_id, holder_id, balance)
      select ${m}, 'USD', 'WALLET', id, id, (n * 7919) % 1000000 from bench_people`);
    if (productId) {
      await database.db.execute(sql`
        insert into cards (merchant_id, account_id, product_id, holder_member_id, nickname, brand, bin, currency, status, last4,
          open_key, open_fingerprint, first_load, open_fee, topup_fee, topup_fee_rate, topup_fee_fixed, decline_fee, created_at, updated_at, issued_at)
        select ${m}, id, ${productId}, id, '客户卡' || n, 'MASTERCARD', '55555555', 'USD', 'NORMAL', lpad((n % 10000)::text, 4, '0'),
          'bench-customer-' || n, 'bench', 500, 200, 5, '0.010', 30, 30, at, at, at
        from bench_people where n % 4 = 0`);
    }
    await database.db.execute(sql`vacuum (analyze)`);
    await database.db.execute(sql`checkpoint`);
    console.log(`wrote ${CUSTOMERS} customers (owner, verified name, reference, USD wallet; a card for one in four) in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    // ── an operator, signed in with the code otplib computes ──
    const created = await services.operators.create(m, { email: 'bench@ops.example', role: 'SUPPORT' }, { channel: 'CLI', user: 'bench' });
    const login = dataOf(await call<{ token: string; totp_enrolment: { secret: string } }>('POST', '/auth/login', '', { email: 'bench@ops.example', password: created.password }), 'login');
    const given = dataOf(await call<{ token: string }>('POST', '/auth/totp', login.token, { code: await generate({ secret: login.totp_enrolment.secret }) }), 'totp');
    const token = given.token;

    // ── the search, each kind of keyword ──
    const some = 54_321 % CUSTOMERS || 1;
    const [person] = ((await database.db.execute(sql`select phone, email, real_name, reference from bench_people where n = ${some}`)) as unknown as {
      rows: Array<{ phone: string; email: string; real_name: string; reference: string }>;
    }).rows;
    if (!person) throw new Error('no customer to search for');
    const phone7 = person.phone.slice(0, 7);
    const surname = person.real_name.slice(0, 1);
    const kinds: Array<[string, string, number?]> = [
      ['every customer, first page', ''],
      ['every customer, page 50 (the last within the count)', '', 50],
      ['every customer, page 5,000 (past the count)', '', 5000],
      ['a whole phone number', person.phone],
      ['the start of a phone number (7 digits)', phone7],
      ['the start of a phone number (7 digits), page 50', phone7, 50],
      ['the start of a phone number (7 digits), page 500 (past the count)', phone7, 500],
      ['the first 3 digits of every phone', person.phone.slice(0, 3)],
      ['the first 3 digits of every phone, page 50', person.phone.slice(0, 3), 50],
      ['a whole e-mail', person.email],
      ['the start of an e-mail', person.email.slice(0, 7)],
      ['the start of an e-mail (5: thousands)', person.email.slice(0, 5)],
      ['a whole real name', person.real_name],
      ['a surname (1 character)', surname],
      ['a surname (1 character), page 50', surname, 50],
      ['a deposit reference', person.reference],
      ['the start of a reference (3)', person.reference.slice(0, 3).toLowerCase()],
      ['the start of a reference (1)', person.reference.slice(0, 1).toLowerCase()],
      ['nothing matches', 'zz-nobody'],
    ];
    const table: Record<string, Record<string, number | string>> = {};
    let worst = 0;
    started = performance.now();
    for (const [label, keyword, page = 1] of kinds) {
      const path = `/customers?page=${page}&page_size=20${keyword ? `&keyword=${encodeURIComponent(keyword)}` : ''}`;
      for (let i = 0; i < 20; i++) dataOf(await call('GET', path, token), path);
      const times: number[] = [];
      let answer = { total: 0, total_capped: false, items: [] as unknown[] };
      for (let i = 0; i < REQUESTS; i++) {
        const at = performance.now();
        answer = dataOf(await call<typeof answer>('GET', path, token), path);
        times.push(performance.now() - at);
      }
      const t = sorted(times);
      worst = Math.max(worst, percentile(t, 99));
      table[label] = {
        keyword: keyword || '—',
        page,
        total: `${answer.total}${answer.total_capped ? '+' : ''}`,
        rows: answer.items.length,
        'p50 ms': ms(percentile(t, 50)),
        'p99 ms': ms(percentile(t, 99)),
      };
    }
    console.log(`\nGET /api/console/v1/customers (page_size 20) over ${CUSTOMERS} customers, ${REQUESTS} sequential requests per keyword after 20 to warm up:`);
    console.table(table);
    console.log(
      'indexes (migrations console_customers, customer_search): members_phone_prefix and members_email_prefix (merchant_id, phone|email text_pattern_ops, account_id; not removed), ' +
        'card_verifications_name_prefix (merchant_id, real_name text_pattern_ops, account_id), deposit_references_prefix (merchant_id, reference text_pattern_ops, account_id), ' +
        'accounts_merchant_created (merchant_id, created_at desc, id desc); the count stops at 1,000 (total_capped)',
    );
    console.log(`load average ${os.loadavg().map((n) => n.toFixed(1)).join(' ')} at the end; measured in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    console.log(`goal p99 ≤ ${GOAL_P99_MS} ms for every kind of keyword: worst p99 ${ms(worst)} ms — ${worst <= GOAL_P99_MS ? 'PASS' : 'FAIL'}`);
    process.exitCode = worst <= GOAL_P99_MS ? 0 : 1;
  } finally {
    agent.destroy();
    await database?.close();
    server.kill('SIGTERM');
    await exited;
    if (KEEP_DATABASE) console.log(`the database is kept: ${target.url}`);
    else await target.drop();
  }
}

if (process.argv.includes('--serve')) await serveBenchApp();
else await bench();
