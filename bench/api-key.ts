// `npm run bench:api-key`: the CPU an API key's check adds to a call, against a session's. The real
// app on PostgreSQL, in this process; the same call (GET /api/v1/balance/account-balance) made one
// after another through the app (no network, no load generator to share the cores with), with a
// session token and with API keys, in alternating rounds; the process's CPU and the database backends'
// per call are compared. A session and a key are both resolved from memory (decision 0012); a key's
// calls are leased from its rate's shared count five at a time (one statement), and its last use
// written at most every 5 s. The app's clock moves on a second every 20 calls of each key, so the keys
// use their whole limit every second and none is refused, while every call is counted as a client's
// (and the kept keys are read again every 30 s of that clock, as they would be).
import { sql } from 'drizzle-orm';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/db/engine.ts';
import { demoAccount, seedDemoData } from '../apps/server/src/demo-data.ts';
import { ManualClock } from '../apps/server/src/lib/clock.ts';
import { productionEnv } from '../apps/server/test/helpers/production-env.ts';
import { API_KEY_RATE_PER_SECOND } from '../packages/contract/src/developer.ts';
import { processCpu } from './lib/measure.ts';
import { freshBenchDatabase } from './lib/pg.ts';

const KEYS = 20;
const CALLS = Number(process.env.BENCH_CALLS ?? 400);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const GOAL_MS = 0.2;
const URL_PATH = '/api/v1/balance/account-balance';

const bench = await freshBenchDatabase('api_key');
const database = await openDatabase({ databaseUrl: bench.url, poolSize: 4 });
const clock = new ManualClock();
try {
  await database.migrate();
  await seedDemoData(database);
  const config = { ...loadConfig({ ...productionEnv, LOG_LEVEL: 'silent' }), databaseUrl: bench.url };
  const { app, services } = await buildApp({ config, database, clock, logger: false });
  await app.ready();
  const merchant = await services.merchants.findByHost('localhost');
  const account = merchant && (await services.directory.findByPhone(merchant.id, demoAccount.phonePrefix, demoAccount.phone));
  if (!merchant || !account) throw new Error('no demo account');
  const { token } = await services.sessions.open(database.db, {
    merchantId: merchant.id,
    accountId: account.id,
    memberId: account.memberId,
    stage: 'FULL',
    userAgent: 'bench',
    ip: '127.0.0.1',
  });
  const owner = await services.sessions.authenticate(merchant.id, token);
  const keys: string[] = [];
  for (let n = 0; n < KEYS; n++) keys.push((await services.apiKeys.create(merchant.id, owner, { name: `bench ${n + 1}`, scopes: ['wallet:read'] })).secret);

  // CPU of the database's backends serving this process
  const backends = async () => {
    const result = (await database.db.execute(sql`select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`)) as unknown as {
      rows: Array<{ pid: number }>;
    };
    return result.rows.reduce((sum, row) => sum + processCpu(Number(row.pid)), 0);
  };

  /** `calls` calls one after another, the tokens taken in turn; this process's and the backends' CPU seconds. */
  async function round(tokens: string[], calls: number) {
    const postgresBefore = await backends();
    const before = process.cpuUsage();
    for (let call = 0; call < calls; call++) {
      const answer = await app.inject({ method: 'GET', url: URL_PATH, headers: { host: 'localhost', authorization: `Bearer ${tokens[call % tokens.length]}` } });
      if (answer.statusCode !== 200) throw new Error(`call ${call} answered ${answer.statusCode}: ${answer.body}`);
      // every key has made its calls of this second
      if ((call + 1) % (tokens.length * API_KEY_RATE_PER_SECOND) === 0) clock.advance(1000);
    }
    const used = process.cpuUsage(before);
    const postgres = (await backends()) - postgresBefore;
    return { calls, server: (used.user + used.system) / 1e6, postgres };
  }

  type Round = Awaited<ReturnType<typeof round>>;
  const perCallMs = (rounds: Round[], field: 'server' | 'postgres') => (rounds.reduce((sum, r) => sum + r[field], 0) / rounds.reduce((sum, r) => sum + r.calls, 0)) * 1000;

  await round([token], 300);
  await round(keys, 300);
  clock.advance(1000);
  const sessionRounds: Round[] = [];
  const keyRounds: Round[] = [];
  for (let n = 0; n < ROUNDS; n++) {
    sessionRounds.push(await round([token], CALLS));
    keyRounds.push(await round(keys, CALLS));
    clock.advance(1000);
  }
  const row = (rounds: Round[]) => ({
    calls: rounds.reduce((sum, r) => sum + r.calls, 0),
    'server CPU ms/call': Number(perCallMs(rounds, 'server').toFixed(3)),
    'PostgreSQL CPU ms/call': Number(perCallMs(rounds, 'postgres').toFixed(3)),
  });
  console.log(`\nPostgreSQL, the app in this process, GET ${URL_PATH} one call after another, ${CALLS} calls a round in ${ROUNDS} alternating rounds (${KEYS} keys in turn)`);
  console.table({ session: row(sessionRounds), 'API key': row(keyRounds) });
  // each round's key calls against the session calls just before them; the median of the rounds holds
  // when the machine's load changes between rounds
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
  const differences = (field: 'server' | 'postgres') => keyRounds.map((r, n) => ((r[field] - (sessionRounds[n] as Round)[field]) / r.calls) * 1000);
  const added = median(differences('server'));
  const addedPostgres = median(differences('postgres'));
  const overall = perCallMs(keyRounds, 'server') - perCallMs(sessionRounds, 'server');
  console.log(
    `a key's check adds ${added.toFixed(3)} ms of server CPU a call, the median of ${ROUNDS} rounds (goal ≤ ${GOAL_MS} ms) ${added <= GOAL_MS ? 'met' : 'NOT met'}; over all calls ${overall.toFixed(3)} ms; rounds ${differences('server').map((d) => d.toFixed(3)).join(', ')}`,
  );
  console.log(`and ${addedPostgres.toFixed(3)} ms of PostgreSQL CPU a call, the median (its rate's leases, its last use)`);
  await app.close();
} finally {
  await database.close();
  await bench.drop();
}
