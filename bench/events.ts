// `npm run bench:events`: one server process on PostgreSQL holding many open event streams (one
// account each); the server's RSS with them, and how long one announcement takes to reach each.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../apps/server/src/db/engine.ts';
import { seedDemoData } from '../apps/server/src/demo-data.ts';
import { hashPassword } from '../apps/server/src/lib/crypto.ts';
import { systemClock } from '../apps/server/src/lib/clock.ts';
import { createAccountDirectory } from '../apps/server/src/modules/accounts/directory.ts';
import { createEventPublisher } from '../apps/server/src/modules/events/publisher.ts';
import { createMerchantService } from '../apps/server/src/modules/merchants/service.ts';
import { createMessageService } from '../apps/server/src/modules/messages/service.ts';
import { createSessionService } from '../apps/server/src/modules/sessions/service.ts';
import { freshBenchDatabase } from './lib/pg.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const STREAMS = Number(process.env.BENCH_STREAMS ?? 5000);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 5);

const rssMb = (pid: number) => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? 0) / 1024;
};
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;

const target = await freshBenchDatabase('events');
const database = await openDatabase({ databaseUrl: target.url, poolSize: 10 });
await database.migrate();
await seedDemoData(database);
const events = createEventPublisher();
const sessions = createSessionService({ db: database.db, clock: systemClock, events });
const messages = createMessageService({ db: database.db, clock: systemClock, events });
const merchant = await createMerchantService({ database }).findByHost('localhost');
if (!merchant) throw new Error('no demo merchant');

console.log(`creating ${STREAMS} accounts with a session each…`);
const passwordHash = await hashPassword('Bench1234');
const tokens: string[] = [];
for (let start = 0; start < STREAMS; start += 500) {
  await database.db.transaction(async (tx) => {
    for (let i = start; i < Math.min(STREAMS, start + 500); i++) {
      const account = await createAccountDirectory({ db: tx }).create({ phonePrefix: '86', merchantId: merchant.id, phone: `177${String(i).padStart(8, '0')}`, email: `bench${i}@bench.example`, passwordHash });
      if (!account) throw new Error('account insert failed');
      tokens.push((await sessions.open(tx, { merchantId: merchant.id, accountId: account.id, memberId: account.memberId, stage: 'FULL', userAgent: 'bench', ip: '127.0.0.1' })).token);
    }
  });
}

const server = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'events-server.ts')], {
  env: { ...process.env, DATABASE_URL: target.url, NODE_ENV: 'production' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const ready = await new Promise<{ port: number; pid: number }>((resolve, reject) => {
  server.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  createInterface({ input: server.stdout }).once('line', (line) => resolve(JSON.parse(line)));
});

const agent = new http.Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
/** per stream: when each awaited message id arrived */
const arrivals: Map<string, number>[] = [];
const requests: http.ClientRequest[] = [];

function open(token: string, index: number) {
  return new Promise<void>((resolve, reject) => {
    const seen = new Map<string, number>();
    arrivals[index] = seen;
    const request = http.get(
      { host: '127.0.0.1', port: ready.port, path: '/api/v1/events', agent, headers: { host: 'localhost', authorization: `Bearer ${token}` } },
      (response) => {
        if (response.statusCode !== 200) return reject(new Error(`stream ${index}: HTTP ${response.statusCode}`));
        let buffer = '';
        let opened = false;
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          const now = performance.now();
          buffer += chunk;
          let cut = buffer.indexOf('\n\n');
          while (cut >= 0) {
            const line = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            const event = JSON.parse(line.slice(line.indexOf('data:') + 5)) as { type: string; id?: string };
            if (event.type === 'ANNOUNCEMENT' && event.id) seen.set(event.id, now);
            if (!opened && event.type === 'UNREAD_QUANTITY') {
              opened = true;
              resolve();
            }
            cut = buffer.indexOf('\n\n');
          }
        });
      },
    );
    request.on('error', reject);
    requests.push(request);
  });
}

try {
  await new Promise((resolve) => setTimeout(resolve, 500));
  const rssBefore = rssMb(ready.pid);
  const t0 = performance.now();
  for (let start = 0; start < STREAMS; start += 200) {
    await Promise.all(tokens.slice(start, start + 200).map((token, i) => open(token, start + i)));
  }
  const openSeconds = (performance.now() - t0) / 1000;
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const rssWith = rssMb(ready.pid);

  const latencies: number[] = [];
  let missing = 0;
  for (let m = 0; m < MESSAGES; m++) {
    const sentAt = performance.now();
    const notice = await messages.publish({ merchantId: merchant.id, title: `压测公告${m + 1}`, content: '<p>bench</p>' });
    const deadline = performance.now() + 15_000;
    while (arrivals.some((seen) => !seen.has(notice.id)) && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    for (const seen of arrivals) {
      const at = seen.get(notice.id);
      if (at === undefined) missing++;
      else latencies.push(at - sentAt);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  latencies.sort((x, y) => x - y);
  const p50 = percentile(latencies, 50);
  const p99 = percentile(latencies, 99);
  const growth = rssWith - rssBefore;
  console.log(`\nPostgreSQL, one server process, ${STREAMS} open event streams (one account each), ${MESSAGES} announcements`);
  console.table({
    'streams held': { value: STREAMS },
    'time to open them (s)': { value: Number(openSeconds.toFixed(1)) },
    'server RSS before (MB)': { value: Math.round(rssBefore) },
    'server RSS with streams (MB)': { value: Math.round(rssWith) },
    'RSS growth (MB)': { value: Math.round(growth) },
    'deliveries measured': { value: latencies.length },
    'deliveries missing': { value: missing },
    'latency p50 (ms)': { value: Math.round(p50) },
    'latency p99 (ms)': { value: Math.round(p99) },
  });
  const met = STREAMS >= 5000 && p99 <= 1000 && growth < 300 && missing === 0;
  console.log(`goal: 5,000 streams, p99 ≤ 1 s, < 300 MB RSS growth — ${met ? 'met' : 'NOT met'}`);
} finally {
  for (const request of requests) request.destroy();
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  await database.close();
  await target.drop();
}
