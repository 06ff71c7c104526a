// `npm run bench:api`: authenticated GET /api/v1/account/info against a bare route doing one
// primary-key read through the same pool, both at 100 connections on PostgreSQL, in one run. The two
// loads take turns in short rounds (BENCH_ROUNDS), so that a machine whose load changes while the
// bench runs weighs on both alike and the ratio stays comparable between runs.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { freshBenchDatabase } from './lib/pg.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 100);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const WARMUP = 3;
const GOAL = 0.9;

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
  return { seconds: result.duration, p99: result.latency.p99, p50: result.latency.p50, total: result.requests.total };
}

type Round = Awaited<ReturnType<typeof load>>;

/** Requests/s over all rounds; the latencies are the rounds' medians. */
function summary(rounds: Round[]) {
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
  const total = rounds.reduce((sum, round) => sum + round.total, 0);
  const seconds = rounds.reduce((sum, round) => sum + round.seconds, 0);
  return { rps: total / seconds, p50: median(rounds.map((r) => r.p50)), p99: median(rounds.map((r) => r.p99)), total };
}

try {
  await load('/bench/bare', WARMUP);
  await load('/api/v1/account/info', WARMUP, ready.token);
  const bareRounds: Round[] = [];
  const infoRounds: Round[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    bareRounds.push(await load('/bench/bare', SECONDS / ROUNDS));
    infoRounds.push(await load('/api/v1/account/info', SECONDS / ROUNDS, ready.token));
  }
  const bare = summary(bareRounds);
  const info = summary(infoRounds);
  const ratio = info.rps / bare.rps;
  console.log(`\nPostgreSQL, one server process, ${CONNECTIONS} connections, ${SECONDS} s each in ${ROUNDS} alternating rounds`);
  console.table({
    'bare primary-key read': { 'requests/s': Math.round(bare.rps), 'p50 ms': bare.p50, 'p99 ms': bare.p99, requests: bare.total },
    'GET /api/v1/account/info': { 'requests/s': Math.round(info.rps), 'p50 ms': info.p50, 'p99 ms': info.p99, requests: info.total },
  });
  const perRound = infoRounds.map((round, i) => (round.total / round.seconds / ((bareRounds[i] as Round).total / (bareRounds[i] as Round).seconds)).toFixed(2));
  console.log(`ratio account/info : bare = ${ratio.toFixed(2)} (goal ≥ ${GOAL.toFixed(2)}) ${ratio >= GOAL ? 'met' : 'NOT met'}; per round ${perRound.join(', ')}`);
} finally {
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  await database.drop();
}
