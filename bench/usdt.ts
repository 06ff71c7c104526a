// bench:usdt — USDT (TRC20) deposits the whole way: the simulated crypto gateway is a process of its own
// (`npm run crypto-sim`) on a loopback port, the portal a server process of its own on a fresh PostgreSQL
// database with production's settings (CRYPTO_GATEWAY_URL names the gateway). Each deposit is made on the
// gateway at 19 confirmations (the portal keeps it pending), then raised to 20 (the portal credits it);
// each call is timed from the request to the gateway to its answer, which comes once the portal took the
// signed event. The books are audited at the end and every deposit must be credited exactly once.
// Settings: BENCH_DEPOSITS (400), BENCH_CLIENTS (8).
import { spawn } from 'node:child_process';
import net from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { createServices } from '../apps/server/src/composition.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/db/engine.ts';
import { systemClock } from '../apps/server/src/lib/clock.ts';
import { hashPassword } from '../apps/server/src/lib/crypto.ts';
import { portalCryptoWebhookUrl } from '../apps/server/src/providers/crypto/built-in.ts';
import { createHttpGateway } from '../apps/server/src/providers/crypto/http.ts';
import { percentile, sorted } from './lib/measure.ts';
import { freshBenchDatabase } from './lib/pg.ts';
import { benchServerEnv, serveBenchApp } from './lib/server.ts';

const DEPOSITS = Number(process.env.BENCH_DEPOSITS ?? 400);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 8);
const SECRET = 'bench-usdt-crypto-webhook-secret-0123456789';
const HOST = 'localhost';

async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Runs `work` over 0..count-1 with `clients` at once; answers each one's milliseconds. */
async function timed(count: number, clients: number, work: (index: number) => Promise<void>) {
  const times: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      for (let index = next++; index < count; index = next++) {
        const at = performance.now();
        await work(index);
        times.push(performance.now() - at);
      }
    }),
  );
  return sorted(times);
}

const figures = (what: string, times: number[], ms: number) =>
  `${what}: ${times.length} in ${(ms / 1000).toFixed(1)} s (${((times.length * 1000) / ms).toFixed(0)}/s), p50 ${percentile(times, 50).toFixed(0)} ms, p99 ${percentile(times, 99).toFixed(0)} ms`;

async function bench() {
  const target = await freshBenchDatabase('usdt');
  const [serverPort, gatewayPort] = [await freePort(), await freePort()];
  const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
  const gateway = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('../apps/server/src/providers/crypto/standalone.ts', import.meta.url))], {
    env: { ...process.env, CRYPTO_SIM_PORT: String(gatewayPort), PORTAL_CRYPTO_WEBHOOK_URL: portalCryptoWebhookUrl('127.0.0.1', serverPort), CRYPTO_WEBHOOK_SECRET: SECRET, LOG_LEVEL: 'warn', DATA_DIR: `/tmp/bench-usdt-${Date.now()}` },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const server = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--serve'], {
    env: { ...process.env, DATABASE_URL: target.url, NODE_ENV: 'production', ISSUER_URL: 'https://issuer.example', CRYPTO_GATEWAY_URL: gatewayUrl, CRYPTO_WEBHOOK_SECRET: SECRET, BENCH_PORT: String(serverPort) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const database = await (async () => {
    await new Promise<void>((resolve, reject) => {
      server.once('exit', (code) => reject(new Error(`the bench server exited with ${code}`)));
      createInterface({ input: server.stdout as NonNullable<typeof server.stdout> }).once('line', () => resolve());
    });
    return openDatabase({ databaseUrl: target.url, poolSize: 4 });
  })();
  try {
    const config = { ...loadConfig(benchServerEnv('https://issuer.example', { CRYPTO_GATEWAY_URL: gatewayUrl, CRYPTO_WEBHOOK_SECRET: SECRET })), databaseUrl: target.url };
    const services = createServices({ config, database, clock: systemClock, log: { info() {}, warn() {}, error() {} } });
    const merchant = await services.merchants.findByHost(HOST);
    if (!merchant) throw new Error('no demo merchant');
    const account = await services.directory.create({ merchantId: merchant.id, phonePrefix: '86', phone: '13900000001', email: 'usdt@bench.example', passwordHash: await hashPassword('Bench1234') });
    if (!account) throw new Error('no account');
    const address = await services.funding.usdtAddress(merchant.id, account.id);
    const client = createHttpGateway({ url: gatewayUrl, secret: SECRET, timeoutMs: 30_000 });
    console.log(`server: one process (PostgreSQL ${new URL(target.url).pathname.slice(1)}); the simulated crypto gateway a process of its own at ${gatewayUrl}; ${DEPOSITS} deposits, ${CLIENTS} at once`);

    const ids: string[] = [];
    const seenAt = performance.now();
    const seen = await timed(DEPOSITS, CLIENTS, async (index) => {
      const answer = await client.simulateDeposit({ address, amount: `${(index % 100) + 1}.00`, confirmations: 19 });
      if (!answer.delivery.delivered) throw new Error(`deposit ${index}: the portal did not take its event (${answer.delivery.error ?? answer.delivery.status})`);
      ids[index] = answer.deposit_id;
    });
    console.log(figures('seen, 19 confirmations (pending)', seen, performance.now() - seenAt));
    const creditAt = performance.now();
    const credited = await timed(DEPOSITS, CLIENTS, async (index) => {
      const answer = await client.raiseConfirmations(ids[index] as string, 20);
      if (!answer.delivery.delivered) throw new Error(`deposit ${index}: the portal did not take its 20th confirmation`);
    });
    console.log(figures('20th confirmation (credited)', credited, performance.now() - creditAt));

    const rows = async (query: ReturnType<typeof sql>) => ((await database.db.execute(query)) as unknown as { rows: Array<Record<string, unknown>> }).rows;
    const [count] = await rows(sql`select count(*) filter (where status = 'CREDITED')::int as credited, count(*)::int as total from deposits where account_id = ${account.id}`);
    const [recharges] = await rows(sql`select count(*)::int as n from ledger_transactions where type = 'ADMIN_RECHARGE_IN' and reference in (select 'deposit:' || id from deposits where account_id = ${account.id})`);
    const expected = Array.from({ length: DEPOSITS }, (_, index) => BigInt((index % 100) + 1) * 99n).reduce((sum, n) => sum + n, 0n);
    const [wallet] = await rows(sql`select balance::text as balance from ledger_accounts where kind = 'WALLET' and owner_id = ${account.id} and currency = 'USD'`);
    const problems = (await services.books.audit()).violations.map((violation) => JSON.stringify(violation));
    const sound = count?.credited === DEPOSITS && count?.total === DEPOSITS && recharges?.n === DEPOSITS && wallet?.balance === expected.toString() && problems.length === 0;
    console.log(`checked: ${count?.credited}/${count?.total} deposits credited, ${recharges?.n} recharges, wallet ${wallet?.balance} cents (expected ${expected}), ledger audit ${problems.length === 0 ? 'sound' : problems.join('; ')}`);
    if (!sound) process.exitCode = 1;
  } finally {
    await database.close();
    // the server lets go of the database before it is dropped
    const stopped = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    gateway.kill('SIGTERM');
    await stopped;
    await target.drop().catch(() => {});
  }
}

if (process.argv.includes('--serve')) await serveBenchApp();
else await bench();
