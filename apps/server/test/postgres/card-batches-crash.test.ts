import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices, type Services } from '../../src/composition.ts';
import { loadConfig } from '../../src/config.ts';
import { seedDemoData } from '../../src/demo-data.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { hashPassword } from '../../src/lib/crypto.ts';
import { portalWebhookUrl } from '../../src/providers/issuer/built-in.ts';
import { type RunningIssuerSimulator, startIssuerSimulator } from '../../src/providers/issuer/simulator-server.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { expectSoundBooks } from '../helpers/ledger.ts';
import { productionEnv } from '../helpers/production-env.ts';
import { until as untilWithin } from '../helpers/until.ts';

/**
 * Batches across real server processes on one PostgreSQL: `main.ts` run as a child process (production
 * settings, the issuer at ISSUER_URL), the simulated issuer in this process over real HTTP.
 */

const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));
const CONCURRENCY = 2;
let database: TestDatabase;
let services: Services;
let dataDir: string;
let simulator: RunningIssuerSimulator;
/** how often the issuer was asked to open each card */
const asked = new Map<string, number>();
const children = new Set<ChildProcess>();

const rows = async (query: ReturnType<typeof sql>) => ((await database.db.execute(query)) as unknown as { rows: Array<Record<string, unknown>> }).rows;

async function freePort() {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** a process start and a whole batch take their time on a busy machine */
const until = <T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 90_000) => untilWithin(what, probe, timeoutMs);

/** The server (`src/main.ts`) as a process of its own on `port`; resolves once it answers. */
async function startServer(port: number, env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: {
      ...process.env,
      ...productionEnv,
      DATABASE_URL: database.location,
      ISSUER_URL: simulator.url,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json',
      DB_POOL_SIZE: '5',
      BATCH_CONCURRENCY: String(CONCURRENCY),
      JOBS_SUPERVISE_SECONDS: '2',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  await until(
    `the server on ${port}`,
    async () => {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
      return new Promise<boolean>((resolve) => {
        const request = http.get({ host: '127.0.0.1', port, path: '/healthz', headers: { host: 'localhost' } }, (response) => {
          response.resume();
          resolve(true);
        });
        request.on('error', () => resolve(false));
      });
    },
    60_000,
  );
  return child;
}

function get(port: number, urlPath: string, token: string) {
  return new Promise<{ status: number; body: Buffer }>((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path: `/api/v1${urlPath}`, headers: { host: 'localhost', authorization: `Bearer ${token}` } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks) }));
    });
    request.on('error', reject);
  });
}

function post<T>(port: number, urlPath: string, token: string, body: unknown, headers: Record<string, string> = {}) {
  const payload = JSON.stringify(body);
  return new Promise<{ code: number; message: string; data: T }>((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: `/api/v1${urlPath}`,
        headers: { host: 'localhost', authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), ...headers },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

/** A verified account with 1000.00 USD; with `budget` (minor units), the token is of a MEMBER of it with that monthly budget. */
async function customer(label: string, budget?: bigint) {
  const merchant = await services.merchants.findByHost('localhost');
  if (!merchant) throw new Error('no demo merchant');
  const account = await services.directory.create({
    merchantId: merchant.id,
    phonePrefix: '86',
    phone: `137${String(Date.now()).slice(-4)}${String(Math.floor(Math.random() * 1e4)).padStart(4, '0')}`,
    email: `${label}.${Date.now()}@crash.example`,
    passwordHash: await hashPassword('Crash1234'),
  });
  if (!account) throw new Error('no account');
  let memberId = account.memberId;
  if (budget !== undefined) {
    const [member] = await rows(sql`insert into members (merchant_id, account_id, role, phone, password_hash, monthly_budget)
      values (${merchant.id}, ${account.id}, 'MEMBER', ${`136${String(Date.now()).slice(-8)}`}, 'unusable', ${budget.toString()}::bigint) returning id`);
    memberId = String(member?.id);
  }
  const { token } = await services.sessions.open(database.db, { merchantId: merchant.id, accountId: account.id, memberId, stage: 'FULL', userAgent: 'crash-test', ip: '127.0.0.1' });
  await services.products.saveVerification(merchant.id, account.id, { real_name: '张三', id_number: '11010519491231002X' });
  await services.ledger.recharge({ merchantId: merchant.id, accountId: account.id, currency: 'USD', amount: 1_000_00n, key: `crash-fund-${account.id}` });
  const [product] = await rows(sql`select id from card_products where merchant_id = ${merchant.id} and name = '订阅支付卡'`);
  return { merchantId: merchant.id, accountId: account.id, memberId, token, productId: String(product?.id) };
}

const batchRow = async (batchId: string) => (await rows(sql`select status, success_count, fail_count, quantity from card_batches where id = ${batchId}`))[0] as Record<string, number | string>;

/** Every card of the batch charged once (issued) or not at all (failed), the batch's holds all settled, the books sound. */
async function expectSettledOnce(batchId: string, accountId: string) {
  const cards = await rows(sql`select id, status from cards where batch_id = ${batchId}`);
  const issued = cards.filter((card) => card.status === 'NORMAL');
  const failed = cards.filter((card) => card.status === 'FAIL');
  expect(issued.length + failed.length).toBe(cards.length);
  const postings = await rows(sql`select reference, type, count(*)::int as n from ledger_transactions
    where reference in (select 'card:' || id from cards where batch_id = ${batchId}) group by reference, type`);
  for (const card of issued) {
    const mine = postings.filter((p) => p.reference === `card:${card.id}`);
    expect(mine.map((p) => [p.type, p.n]).sort()).toEqual([
      ['OPEN_CARD', 1],
      ['TRANSFER_OUT_TO_CARD', 1],
    ]);
  }
  for (const card of failed) expect(postings.filter((p) => p.reference === `card:${card.id}`)).toEqual([]);
  const [held] = await rows(sql`select coalesce(sum(amount), 0)::text as amount, count(*)::int as n from ledger_holds where reference = ${`batch:${batchId}`} and status = 'ACTIVE'`);
  expect(held).toEqual({ amount: '0', n: 0 });
  // each card opened at the issuer at most once more than it was asked for by a job that was cut short
  for (const card of cards) expect(asked.get(String(card.id)) ?? 0).toBeGreaterThanOrEqual(1);
  const wallet = await rows(sql`select (balance - held)::text as available, held::text as held from ledger_accounts where kind = 'WALLET' and owner_id = ${accountId}`);
  // 订阅支付卡 with 10.00 loaded: 2.00 + 10.00 + 0.40 each
  expect(wallet[0]).toEqual({ available: String(1_000_00 - issued.length * 12_40), held: '0' });
  await expectSoundBooks(database.db);
  return { issued: issued.length, failed: failed.length, cards };
}

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-crash-'));
  const config = { ...loadConfig({ ...productionEnv, DATA_DIR: dataDir }), databaseUrl: database.location };
  services = createServices({ config, database, clock: systemClock, log: { info() {}, warn() {}, error() {} } });
  await seedDemoData(database, { sealer: services.sealer });
  let draws = 0;
  simulator = await startIssuerSimulator({
    port: 0,
    secret: productionEnv.ISSUER_WEBHOOK_SECRET,
    delayMs: 150,
    // one issuance in six fails
    failRate: 0.5,
    random: () => (++draws % 6 === 0 ? 0 : 0.99),
    // a portal that is down for a restart gets its events later
    retryDelaysMs: [200, 500, 1_000, 2_000, 3_000, 5_000, 5_000, 5_000, 5_000, 5_000, 5_000],
    log: {
      info: (details, message) => {
        const cardId = (details as { card_id?: string }).card_id;
        if (message === 'issuer simulator: issuance accepted' && cardId) asked.set(cardId, (asked.get(cardId) ?? 0) + 1);
      },
      warn() {},
      error() {},
    },
  });
}, 120_000);

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await simulator?.close();
  await database?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('batches across server processes (PostgreSQL)', () => {
  it('a server killed with kill -9 mid-batch finishes it after its restart: no card opened twice, none charged twice, nothing left held, the budget used as the money moved', async () => {
    const quantity = 60;
    // a MEMBER whose monthly budget is exactly the batch's cost (订阅支付卡 with 10.00 loaded: 12.40 a card)
    const who = await customer('crash', BigInt(quantity) * 12_40n);
    const port = await freePort();
    simulator.setWebhookUrl(portalWebhookUrl('127.0.0.1', port));
    let server = await startServer(port);
    const accepted = await post<{ batch_id: string }>(
      port,
      '/batch-create-card',
      who.token,
      { product_id: who.productId, quantity, amount: '10.00', nickname_prefix: 'KILL' },
      { 'idempotency-key': `crash-${Date.now()}` },
    );
    expect(accepted.code, accepted.message).toBe(0);
    const batchId = accepted.data.batch_id;

    // killed while cards have been answered and others still wait for their job
    const unfinishedJobs = async () =>
      Number(
        (
          await rows(sql`select count(*)::int as n from pgboss.job where name = 'card-batch-open' and state <> 'completed'
            and data->>'card_id' in (select id::text from cards where batch_id = ${batchId})`)
        )[0]?.n,
      );
    await until('a card answered while others wait', async () => {
      const batch = await batchRow(batchId);
      return Number(batch.success_count) + Number(batch.fail_count) >= 1 && (await unfinishedJobs()) >= 5;
    });
    server.kill('SIGKILL');
    await new Promise((resolve) => server.once('exit', resolve));
    expect(await unfinishedJobs()).toBeGreaterThan(0);
    const atKill = await batchRow(batchId);
    expect(atKill.status).toBe('RUNNING');
    expect(Number(atKill.success_count) + Number(atKill.fail_count)).toBeLessThan(quantity);

    server = await startServer(port);
    await until('the batch to end', async () => (await batchRow(batchId)).status !== 'RUNNING', 120_000);
    const ended = await batchRow(batchId);
    expect(Number(ended.success_count) + Number(ended.fail_count)).toBe(quantity);
    const { issued, failed, cards } = await expectSettledOnce(batchId, who.accountId);
    expect(failed).toBeGreaterThan(0);
    expect(ended.status).toBe('FAIL');
    expect([issued, failed]).toEqual([ended.success_count, ended.fail_count]);
    // the issuer was asked again only for cards whose job the kill cut short (at most one round of them)
    const askedTwice = cards.filter((card) => (asked.get(String(card.id)) ?? 0) > 1);
    expect(askedTwice.length).toBeLessThanOrEqual(CONCURRENCY);
    const messages = await rows(sql`select count(*)::int as n from station_messages where account_id = ${who.accountId} and type = 'BATCH_CARD_RESULT'`);
    expect(messages[0]?.n).toBe(1);
    // what the budget counts is what the wallet paid: the issued cards' cost, each failed card's share given back once
    const [usage] = await rows(sql`select coalesce(sum(used), 0)::text as used from budget_usage where member_id = ${who.memberId}`);
    expect(usage?.used).toBe(String(issued * 12_40));
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
  }, 240_000);

  it('two server processes share one batch and never run one card twice', async () => {
    const who = await customer('shared');
    const [portA, portB] = [await freePort(), await freePort()];
    // the issuer answers the first process; both take jobs from the one queue
    simulator.setWebhookUrl(portalWebhookUrl('127.0.0.1', portA));
    const [a, b] = await Promise.all([startServer(portA), startServer(portB)]);
    const quantity = 40;
    const accepted = await post<{ batch_id: string }>(
      portB,
      '/batch-create-card',
      who.token,
      { product_id: who.productId, quantity, amount: '10.00', nickname_prefix: 'TWO' },
      { 'idempotency-key': `shared-${Date.now()}` },
    );
    expect(accepted.code, accepted.message).toBe(0);
    const batchId = accepted.data.batch_id;
    await until('the batch to end', async () => (await batchRow(batchId)).status !== 'RUNNING', 120_000);
    const { cards } = await expectSettledOnce(batchId, who.accountId);
    for (const card of cards) expect(asked.get(String(card.id))).toBe(1);
    const jobs = await rows(sql`select data->>'card_id' as card_id, state, retry_count, output->>'by' as by from pgboss.job
      where name = 'card-batch-open' and data->>'card_id' in (select id::text from cards where batch_id = ${batchId})`);
    expect(jobs).toHaveLength(quantity);
    for (const job of jobs) expect([job.state, job.retry_count]).toEqual(['completed', 0]);
    const by = new Set(jobs.map((job) => job.by));
    expect(by.size).toBe(2);
    for (const child of [a, b]) child.kill('SIGTERM');
    await Promise.all([a, b].map((child) => new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(null)))));
  }, 240_000);
  it('an export cut short by kill -9 is written whole after the restart', async () => {
    const who = await customer('export');
    const count = 30_000;
    // held by the account's owner, whose member id is the account's
    await database.db.execute(sql`insert into cards (id, merchant_id, account_id, holder_member_id, product_id, nickname, brand, currency, status, last4, open_key, open_fingerprint, first_load, open_fee, topup_fee, topup_fee_rate, topup_fee_fixed, decline_fee, created_at, updated_at)
      select gen_random_uuid(), ${who.merchantId}::uuid, ${who.accountId}::uuid, ${who.accountId}::uuid, ${who.productId}::uuid, 'X-' || n, 'MASTERCARD', 'USD', 'NORMAL',
        lpad((n % 10000)::text, 4, '0'), 'crash-export-' || n, 'x', 1000, 200, 40, '0.010', 30, 30, now() - make_interval(secs => n), now()
      from generate_series(1, ${count}) as n`);
    const port = await freePort();
    let server = await startServer(port);
    const accepted = await post<{ export_id: string }>(port, '/card/batch-export', who.token, { filters: {} });
    expect(accepted.code, accepted.message).toBe(0);
    const id = accepted.data.export_id;
    const exportRow = async () => (await rows(sql`select status, done, total from card_exports where id = ${id}`))[0] as { status: string; done: number; total: number };
    await until('the export under way', async () => {
      const row = await exportRow();
      return row.status === 'RUNNING' && row.done > 0;
    });
    server.kill('SIGKILL');
    await new Promise((resolve) => server.once('exit', resolve));
    expect((await exportRow()).status).toBe('RUNNING');
    server = await startServer(port);
    await until('the export written', async () => (await exportRow()).status === 'DONE', 120_000);
    expect(await exportRow()).toEqual({ status: 'DONE', done: count, total: count });
    const file = await get(port, `/card/batch-export/${id}/file`, who.token);
    expect(file.status).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file.body as unknown as ArrayBuffer);
    expect(workbook.worksheets[0]?.actualRowCount).toBe(count + 1);
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
  }, 240_000);

  it('a bulk top-up cut short by kill -9 ends after the restart: every card topped up once, the rest of the hold back in the wallet', async () => {
    const who = await customer('bulk-kill');
    const count = 60;
    // cards written straight into the table (held by the owner, whose member id is the account's), none funded yet
    const made = await rows(sql`insert into cards (id, merchant_id, account_id, holder_member_id, product_id, nickname, brand, currency, status, last4, open_key, open_fingerprint, first_load, open_fee, topup_fee, topup_fee_rate, topup_fee_fixed, decline_fee, created_at, updated_at)
      select gen_random_uuid(), ${who.merchantId}::uuid, ${who.accountId}::uuid, ${who.accountId}::uuid, ${who.productId}::uuid, 'B-' || n, 'MASTERCARD', 'USD', 'NORMAL',
        lpad(n::text, 4, '0'), 'crash-bulk-' || n, 'x', 0, 200, 40, '0.010', 30, 30, now() - make_interval(secs => n), now()
      from generate_series(1, ${count}) as n returning id`);
    const ids = made.map((card) => String(card.id));
    const port = await freePort();
    // one worker, and lost cards taken over after 2 s
    const env = { BULK_WORKERS: '1', BULK_LEASE_SECONDS: '2' };
    let server = await startServer(port, env);
    const accepted = await post<{ id: string }>(port, '/card/bulk-actions', who.token, { action: 'RECHARGE', card_ids: ids, params: { amount: '5.00' } }, { 'idempotency-key': `bulk-kill-${Date.now()}` });
    expect(accepted.code, accepted.message).toBe(0);
    const id = accepted.data.id;
    const bulkRow = async () => (await rows(sql`select status, succeeded, failed, total from card_bulk_actions where id = ${id}`))[0] as { status: string; succeeded: number; failed: number; total: number };
    await until('some cards topped up', async () => (await bulkRow()).succeeded >= 3);
    server.kill('SIGKILL');
    await new Promise((resolve) => server.once('exit', resolve));
    const atKill = await bulkRow();
    expect(atKill.status).toBe('RUNNING');
    expect(atKill.succeeded + atKill.failed).toBeLessThan(count);

    server = await startServer(port, env);
    await until('the bulk action to end', async () => (await bulkRow()).status === 'DONE', 120_000);
    expect(await bulkRow()).toEqual({ status: 'DONE', succeeded: count, failed: 0, total: count });
    // each card holds its 5.00 once, moved by one ledger operation under the action's key
    const balances = await rows(sql`select balance::text as balance, count(*)::int as n from ledger_accounts where kind = 'CARD' and owner_id in (${sql.join(
      ids.map((card) => sql`${card}::uuid`),
      sql`, `,
    )}) group by balance`);
    expect(balances).toEqual([{ balance: String(5_00), n: count }]);
    const moves = await rows(sql`select count(*)::int as n from ledger_idempotency_keys where key like ${`card-recharge:${who.accountId}:bulk:${id}:%`}`);
    expect(moves[0]?.n).toBe(count);
    // the wallet paid 5.00 and the top-up fee (1 % + 0.30) for each card, and holds nothing more
    const wallet = await rows(sql`select (balance - held)::text as available, held::text as held from ledger_accounts where kind = 'WALLET' and owner_id = ${who.accountId}`);
    expect(wallet[0]).toEqual({ available: String(1_000_00 - count * 5_35), held: '0' });
    const messages = await rows(sql`select count(*)::int as n from station_messages where account_id = ${who.accountId} and type = 'BULK_ACTION_RESULT'`);
    expect(messages[0]?.n).toBe(1);
    await expectSoundBooks(database.db);
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
  }, 240_000);
});
