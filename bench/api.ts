// `npm run bench:api`: authenticated GET /api/v1/account/info against a bare route doing one
// primary-key read through the same pool, both at 100 connections on PostgreSQL, in one run.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { freshBenchDatabase } from './lib/pg.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 100);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP = 3;

const database = await freshBenchDatabase('api');
const server = spawn(process.execPath, [...(process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir=/tmp/prof'] : []), '--import', 'tsx', path.join(here, 'api-server.ts')], {
  env: { ...process.env, DATABASE_URL: database.url, NODE_ENV: 'production' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const ready = await new Promise<{ port: number; token: string }>((resolve, reject) => {
  server.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  createInterface({ input: server.stdout }).once('line', (line) => resolve(JSON.parse(line)));
});

async function load(pathname: string, seconds: number, token?: string) {
  const result = await autocannon({
    url: `http://127.0.0.1:${ready.port}${pathname}`,
    connections: CONNECTIONS,
    duration: seconds,
    headers: { host: 'localhost', ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
  const failed = result.non2xx + result.errors + result.timeouts;
  if (failed > 0) throw new Error(`${pathname}: ${failed} failed requests`);
  return { rps: result.requests.average, p99: result.latency.p99, p50: result.latency.p50, total: result.requests.total };
}

try {
  await load('/bench/bare', WARMUP);
  await load('/api/v1/account/info', WARMUP, ready.token);
  const bare = await load('/bench/bare', SECONDS);
  const info = await load('/api/v1/account/info', SECONDS, ready.token);
  const ratio = info.rps / bare.rps;
  console.log(`\nPostgreSQL, one server process, ${CONNECTIONS} connections, ${SECONDS} s each`);
  console.table({
    'bare primary-key read': { 'requests/s': Math.round(bare.rps), 'p50 ms': bare.p50, 'p99 ms': bare.p99, requests: bare.total },
    'GET /api/v1/account/info': { 'requests/s': Math.round(info.rps), 'p50 ms': info.p50, 'p99 ms': info.p99, requests: info.total },
  });
  console.log(`ratio account/info : bare = ${ratio.toFixed(2)} (goal ≥ 0.70) ${ratio >= 0.7 ? 'met' : 'NOT met'}`);
} finally {
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  await database.drop();
}
