// `npm run bench:api`: authenticated GET /api/v1/account/info against a bare route doing one
// primary-key read through the same pool, both at 100 connections on PostgreSQL, in one run. The two
// loads take turns in short rounds (BENCH_ROUNDS), so that a machine whose load changes while the
// bench runs weighs on both alike and the ratio stays comparable between runs.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { processCpu } from './lib/measure.ts';
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

// CPU the server process and the database's backends spend, read around each round (the load's own
// client runs in this process and is not counted)
const watcher = new pg.Client({ connectionString: database.url });
await watcher.connect();
async function cpuNow() {
  const { rows } = await watcher.query<{ pid: number }>('select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()');
  return { server: processCpu(server.pid as number), postgres: rows.reduce((sum, row) => sum + processCpu(row.pid), 0) };
}

async function load(pathname: string, seconds: number, token?: string) {
  const cpuBefore = await cpuNow();
  const result = await autocannon({
    url: `http://127.0.0.1:${ready.port}${pathname}`,
    connections: CONNECTIONS,
    duration: seconds,
    headers: { host: 'localhost', ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
  const failed = result.non2xx + result.errors + result.timeouts;
  if (failed > 0) throw new Error(`${pathname}: ${failed} failed requests`);
  const cpuAfter = await cpuNow();
  const cpu = { server: cpuAfter.server - cpuBefore.server, postgres: cpuAfter.postgres - cpuBefore.postgres };
  return { seconds: result.duration, p99: result.latency.p99, p50: result.latency.p50, total: result.requests.total, cpu };
}

type Round = Awaited<ReturnType<typeof load>>;

/** Requests/s over all rounds; the latencies are the rounds' medians. */
function summary(rounds: Round[]) {
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
  const total = rounds.reduce((sum, round) => sum + round.total, 0);
  const seconds = rounds.reduce((sum, round) => sum + round.seconds, 0);
  // CPU per request in microseconds, the server process's and the database's
  const perCall = (cpu: number) => Math.round((cpu / total) * 1e6);
  const server = perCall(rounds.reduce((sum, round) => sum + round.cpu.server, 0));
  const postgres = perCall(rounds.reduce((sum, round) => sum + round.cpu.postgres, 0));
  return { rps: total / seconds, p50: median(rounds.map((r) => r.p50)), p99: median(rounds.map((r) => r.p99)), total, server, postgres };
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
    'bare primary-key read': { 'requests/s': Math.round(bare.rps), 'p50 ms': bare.p50, 'p99 ms': bare.p99, requests: bare.total, 'server CPU µs/call': bare.server, 'PostgreSQL CPU µs/call': bare.postgres },
    'GET /api/v1/account/info': { 'requests/s': Math.round(info.rps), 'p50 ms': info.p50, 'p99 ms': info.p99, requests: info.total, 'server CPU µs/call': info.server, 'PostgreSQL CPU µs/call': info.postgres },
  });
  const perRound = infoRounds.map((round, i) => (round.total / round.seconds / ((bareRounds[i] as Round).total / (bareRounds[i] as Round).seconds)).toFixed(2));
  console.log(`ratio account/info : bare = ${ratio.toFixed(2)} (goal ≥ ${GOAL.toFixed(2)}) ${ratio >= GOAL ? 'met' : 'NOT met'}; per round ${perRound.join(', ')}`);
} finally {
  await watcher.end();
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  await database.drop();
}
