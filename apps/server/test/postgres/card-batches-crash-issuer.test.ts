import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices, type Services } from '../../src/composition.ts';
import { loadConfig } from '../../src/config.ts';
import { seedDemoData } from '../../src/demo-data.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { hashPassword } from '../../src/lib/crypto.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { expectSoundBooks } from '../helpers/ledger.ts';
import { until as untilWithin } from '../helpers/until.ts';

/**
 * The server as `npm start` runs it, the simulated issuer built in (ISSUER_URL unset), killed with
 * kill -9 in the middle of a batch: the issuer dies with it, holding requests it accepted and events it
 * had not delivered. Its journal and the reconciliation at the next start must settle every card.
 */

const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));
let database: TestDatabase;
let services: Services;
let dataDir: string;
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

/** `src/main.ts` as a process of its own, with its built-in issuer on `simPort`; resolves once it answers. */
async function startServer(port: number, simPort: number) {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'development',
    DATABASE_URL: database.location,
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    ISSUER_SIM_PORT: String(simPort),
    // long enough that a kill finds events accepted and not yet sent
    ISSUER_SIM_DELAY_MS: '1500',
    ISSUER_SIM_FAIL_RATE: '0',
    SEED_DEMO: 'false',
    LOG_LEVEL: 'warn',
    LOG_FORMAT: 'json',
    DB_POOL_SIZE: '5',
    BATCH_CONCURRENCY: '2',
    JOBS_SUPERVISE_SECONDS: '2',
  };
  delete env.ISSUER_URL;
  delete env.ISSUER_WEBHOOK_SECRET;
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], { env, stdio: ['ignore', 'ignore', 'inherit'] });
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

async function customer() {
  const merchant = await services.merchants.findByHost('localhost');
  if (!merchant) throw new Error('no demo merchant');
  const account = await services.directory.create({
    merchantId: merchant.id,
    phonePrefix: '86',
    phone: `136${String(Date.now()).slice(-4)}${String(Math.floor(Math.random() * 1e4)).padStart(4, '0')}`,
    email: `issuer-crash.${Date.now()}@crash.example`,
    passwordHash: await hashPassword('Crash1234'),
  });
  if (!account) throw new Error('no account');
  const { token } = await services.sessions.open(database.db, { merchantId: merchant.id, accountId: account.id, memberId: account.memberId, stage: 'FULL', userAgent: 'crash-test', ip: '127.0.0.1' });
  await services.products.saveVerification(merchant.id, account.id, { real_name: '张三', id_number: '11010519491231002X' });
  await services.ledger.recharge({ merchantId: merchant.id, accountId: account.id, currency: 'USD', amount: 1_000_00n, key: `issuer-crash-fund-${account.id}` });
  const [product] = await rows(sql`select id from card_products where merchant_id = ${merchant.id} and name = '订阅支付卡'`);
  return { accountId: account.id, token, productId: String(product?.id) };
}

const batchRow = async (batchId: string) => (await rows(sql`select status, success_count, fail_count from card_batches where id = ${batchId}`))[0] as Record<string, number | string>;

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-issuer-crash-'));
  const config = { ...loadConfig({ NODE_ENV: 'development', DATA_DIR: dataDir }), databaseUrl: database.location };
  services = createServices({ config, database, clock: systemClock, log: { info() {}, warn() {}, error() {} } });
  await seedDemoData(database, { sealer: services.sealer });
}, 120_000);

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await database?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('a batch through the built-in issuer, the server killed mid-batch (PostgreSQL)', () => {
  it('ends after the restart: every card issued once, charged once, nothing left held, and a new batch is accepted', async () => {
    const who = await customer();
    const [port, simPort] = [await freePort(), await freePort()];
    let server = await startServer(port, simPort);
    const quantity = 30;
    const accepted = await post<{ batch_id: string }>(
      port,
      '/batch-create-card',
      who.token,
      { product_id: who.productId, quantity, amount: '10.00', nickname_prefix: 'SIM' },
      { 'idempotency-key': `issuer-crash-${Date.now()}` },
    );
    expect(accepted.code, accepted.message).toBe(0);
    const batchId = accepted.data.batch_id;

    // killed once the issuer has taken cards whose answers it has not sent yet
    const asked = async () =>
      Number((await rows(sql`select count(*)::int as n from pgboss.job where name = 'card-batch-open' and state = 'completed'
        and data->>'card_id' in (select id::text from cards where batch_id = ${batchId})`))[0]?.n);
    await until('cards taken by the issuer while others wait', async () => {
      const done = await asked();
      const batch = await batchRow(batchId);
      return done > Number(batch.success_count) + Number(batch.fail_count) && done >= 4 && done < quantity - 4;
    });
    server.kill('SIGKILL');
    await new Promise((resolve) => server.once('exit', resolve));
    const atKill = await batchRow(batchId);
    expect(atKill.status).toBe('RUNNING');
    expect(await asked()).toBeGreaterThan(Number(atKill.success_count) + Number(atKill.fail_count));

    server = await startServer(port, simPort);
    await until('the batch to end', async () => (await batchRow(batchId)).status !== 'RUNNING', 120_000);
    expect(await batchRow(batchId)).toEqual({ status: 'SUCCESS', success_count: quantity, fail_count: 0 });

    const cards = await rows(sql`select id, status, last4 from cards where batch_id = ${batchId}`);
    expect(cards.filter((card) => card.status === 'NORMAL')).toHaveLength(quantity);
    const postings = await rows(sql`select reference, type, count(*)::int as n from ledger_transactions
      where reference in (select 'card:' || id from cards where batch_id = ${batchId}) group by reference, type`);
    for (const card of cards) {
      expect(postings.filter((p) => p.reference === `card:${card.id}`).map((p) => [p.type, p.n]).sort()).toEqual([
        ['OPEN_CARD', 1],
        ['TRANSFER_OUT_TO_CARD', 1],
      ]);
    }
    const [held] = await rows(sql`select count(*)::int as n from ledger_holds where reference = ${`batch:${batchId}`} and status = 'ACTIVE'`);
    expect(held?.n).toBe(0);
    // 订阅支付卡 with 10.00 loaded: 2.00 + 10.00 + 0.40 each
    const wallet = await rows(sql`select (balance - held)::text as available, held::text as held from ledger_accounts where kind = 'WALLET' and owner_id = ${who.accountId}`);
    expect(wallet[0]).toEqual({ available: String(1_000_00 - quantity * 12_40), held: '0' });
    await expectSoundBooks(database.db);

    const next = await post<{ batch_id: string }>(
      port,
      '/batch-create-card',
      who.token,
      { product_id: who.productId, quantity: 2, amount: '10.00', nickname_prefix: 'NEXT' },
      { 'idempotency-key': `issuer-crash-next-${Date.now()}` },
    );
    expect(next.code, next.message).toBe(0);
    await until('the next batch to end', async () => (await batchRow(next.data.batch_id)).status !== 'RUNNING');
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
  }, 300_000);
});
