import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices, type Services } from '../../src/composition.ts';
import { loadConfig } from '../../src/config.ts';
import { seedDemoData } from '../../src/demo-data.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { hashPassword } from '../../src/lib/crypto.ts';
import { signIssuerPayload } from '../../src/lib/issuer-signature.ts';
import { createHttpGateway } from '../../src/providers/crypto/http.ts';
import { type RunningGatewaySimulator, startGatewaySimulator } from '../../src/providers/crypto/simulator-server.ts';
import { toUsdtMicros, usdtCredit } from '@portal/contract/usdt';
import { freePort } from '../helpers/crypto-gateway.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { expectSoundBooks } from '../helpers/ledger.ts';
import { productionEnv } from '../helpers/production-env.ts';
import { serverProcesses } from '../helpers/server-process.ts';
import { until } from '../helpers/until.ts';

/**
 * USDT credits across a kill -9 on PostgreSQL: a real server process (`main.ts`, production settings,
 * the gateway at CRYPTO_GATEWAY_URL) is killed while it takes a stream of deposit events; a new one
 * takes them all again, replayed and duplicated, and each deposit is credited exactly once.
 */
const SECRET = 'usdt-crash-crypto-webhook-secret-0123456789';
let database: TestDatabase;
let services: Services;
let dataDir: string;
let gateway: RunningGatewaySimulator;

const rows = async (query: ReturnType<typeof sql>) => ((await database.db.execute(query)) as unknown as { rows: Array<Record<string, unknown>> }).rows;

const servers = serverProcesses();

const startServer = (port: number) =>
  servers.start(port, {
    ...process.env,
    ...productionEnv,
    CRYPTO_GATEWAY_URL: gateway.url,
    CRYPTO_WEBHOOK_SECRET: SECRET,
    DATABASE_URL: database.location,
    DATA_DIR: dataDir,
    SEED_DEMO: 'false',
    LOG_LEVEL: 'error',
    LOG_FORMAT: 'json',
    DB_POOL_SIZE: '5',
  });

/** One signed event to the server's crypto webhook: its HTTP status, or 0 when the connection broke (the server died). */
function deliver(port: number, event: { id: string; data: Record<string, unknown> }) {
  const body = JSON.stringify({ id: event.id, type: 'deposit.confirmations', data: event.data });
  return new Promise<number>((resolve) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/v1/crypto/webhook',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'gateway-signature': signIssuerPayload(SECRET, body, new Date()) },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    request.on('error', () => resolve(0));
    request.end(body);
  });
}

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-usdt-crash-'));
  gateway = await startGatewaySimulator({ port: 0, secret: SECRET, retryDelaysMs: [100] });
  const config = { ...loadConfig({ ...productionEnv, DATA_DIR: dataDir, CRYPTO_GATEWAY_URL: gateway.url, CRYPTO_WEBHOOK_SECRET: SECRET }), databaseUrl: database.location };
  services = createServices({ config, database, clock: systemClock, log: { info() {}, warn() {}, error() {} } });
  await seedDemoData(database, { sealer: services.sealer });
});

afterAll(async () => {
  servers.killAll();
  await gateway?.close();
  await database?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('USDT deposits across a kill -9', () => {
  it('a server killed mid-stream, then every event again (replayed and duplicated) on a new one: each deposit credited once', async () => {
    const merchant = await services.merchants.findByHost('localhost');
    if (!merchant) throw new Error('no demo merchant');
    const account = await services.directory.create({
      merchantId: merchant.id,
      phonePrefix: '86',
      phone: `135${String(Date.now()).slice(-8)}`,
      email: `usdt.${Date.now()}@crash.example`,
      passwordHash: await hashPassword('Crash1234'),
    });
    if (!account) throw new Error('no account');
    const address = await services.funding.usdtAddress(merchant.id, account.id);
    // 40 deposits of 1.00 … 40.00 USDT, each seen with its 20 confirmations
    const events = Array.from({ length: 40 }, (_, index) => ({
      id: `evt_crash_${index}_${randomBytes(4).toString('hex')}`,
      data: { deposit_id: `dep_${index}`, tx_id: randomBytes(32).toString('hex'), address, amount: `${index + 1}.00`, confirmations: 20, network: 'TRC20' },
    }));
    const credited = async () => Number((await rows(sql`select count(*)::int as n from deposits where account_id = ${account.id} and status = 'CREDITED'`))[0]?.n);

    const firstPort = await freePort();
    const first = await startServer(firstPort);
    // the events go in four at a time; the server is killed once a few deposits are credited, others in flight
    const sending = (async () => {
      for (let at = 0; at < events.length; at += 4) {
        const answers = await Promise.all(events.slice(at, at + 4).map((event) => deliver(firstPort, event)));
        if (answers.includes(0)) return;
      }
    })();
    await until('a few deposits credited by the first server', async () => (await credited()) >= 5, 60_000);
    const exited = new Promise((resolve) => first.once('exit', resolve));
    first.kill('SIGKILL');
    await exited;
    await sending;
    const beforeRestart = await credited();
    expect(beforeRestart).toBeLessThan(events.length);

    const secondPort = await freePort();
    await startServer(secondPort);
    // every event again with its own id (a replay), and once more with a new id (a duplicate of the same transaction)
    for (let at = 0; at < events.length; at += 8) {
      const part = events.slice(at, at + 8);
      const replays = await Promise.all(part.map((event) => deliver(secondPort, event)));
      const duplicates = await Promise.all(part.map((event) => deliver(secondPort, { ...event, id: `${event.id}_again` })));
      expect([...replays, ...duplicates]).toEqual(Array(part.length * 2).fill(200));
    }

    expect(await credited()).toBe(events.length);
    const recharges = await rows(sql`select reference, count(*)::int as n from ledger_transactions
      where reference in (select 'deposit:' || id from deposits where account_id = ${account.id}) and type = 'ADMIN_RECHARGE_IN' group by reference`);
    expect(recharges).toHaveLength(events.length);
    expect(recharges.every((row) => row.n === 1)).toBe(true);
    // 1 % fee at the blue merchant: k USDT credits 0.99 k USD; 1 + … + 40 = 820
    const [wallet] = await rows(sql`select balance::text as balance from ledger_accounts where kind = 'WALLET' and owner_id = ${account.id} and currency = 'USD'`);
    expect(wallet?.balance).toBe(String(820 * 99));
    await expectSoundBooks(database.db);
  });

  it("events lost while no server listens (one killed, none started yet): the next server's start job finds every deposit at the gateway and credits each once", async () => {
    const merchant = await services.merchants.findByHost('localhost');
    if (!merchant) throw new Error('no demo merchant');
    const account = await services.directory.create({
      merchantId: merchant.id,
      phonePrefix: '86',
      phone: `136${String(Date.now()).slice(-8)}`,
      email: `usdt.lost.${Date.now()}@crash.example`,
      passwordHash: await hashPassword('Crash1234'),
    });
    if (!account) throw new Error('no account');
    const address = await services.funding.usdtAddress(merchant.id, account.id);
    const client = createHttpGateway({ url: gateway.url, secret: SECRET });
    const amounts = Array.from({ length: 8 }, (_, index) => `${index + 1}.${String(123_456 + index)}`);
    const credited = async () => Number((await rows(sql`select count(*)::int as n from deposits where account_id = ${account.id} and status = 'CREDITED'`))[0]?.n);

    const firstPort = await freePort();
    const first = await startServer(firstPort);
    gateway.setWebhookUrl(`http://127.0.0.1:${firstPort}/api/v1/crypto/webhook`);
    const delivered = await client.simulateDeposit({ address, amount: amounts[0] as string, confirmations: 20 });
    expect(delivered.delivery.delivered).toBe(true);
    const exited = new Promise((resolve) => first.once('exit', resolve));
    first.kill('SIGKILL');
    await exited;
    // the rest arrive while no server listens: every try of every event fails
    for (const amount of amounts.slice(1)) expect((await client.simulateDeposit({ address, amount, confirmations: 20 })).delivery.delivered).toBe(false);
    expect(await credited()).toBe(1);

    const secondPort = await freePort();
    await startServer(secondPort);
    await until('every deposit credited by the start job', async () => (await credited()) === amounts.length, 60_000);
    const recharges = await rows(sql`select reference, count(*)::int as n from ledger_transactions
      where reference in (select 'deposit:' || id from deposits where account_id = ${account.id}) and type = 'ADMIN_RECHARGE_IN' group by reference`);
    expect(recharges).toHaveLength(amounts.length);
    expect(recharges.every((row) => row.n === 1)).toBe(true);
    const [wallet] = await rows(sql`select balance::text as balance from ledger_accounts where kind = 'WALLET' and owner_id = ${account.id} and currency = 'USD'`);
    const expected = amounts.reduce((sum, amount) => sum + usdtCredit(toUsdtMicros(amount) as bigint, 1_000_000n, 100).credited, 0n);
    expect(wallet?.balance).toBe(String(expected));
    await expectSoundBooks(database.db);
  });
});
