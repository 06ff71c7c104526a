import http from 'node:http';
import { buildApp } from '../../apps/server/src/app.ts';
import { loadConfig } from '../../apps/server/src/config.ts';
import { openDatabase } from '../../apps/server/src/db/engine.ts';
import { seedDemoData } from '../../apps/server/src/demo-data.ts';
import { watchStalls } from '../../apps/server/src/lib/stall-watch.ts';
// production's settings; nothing is sent by SMS or mail here, they only have to be there
import { productionEnv } from '../../apps/server/test/helpers/production-env.ts';
import { percentile, sorted } from './measure.ts';

/** The bench server's database pool (DB_POOL_SIZE, 20). */
export const BENCH_POOL = Number(process.env.DB_POOL_SIZE ?? 20);

/** The server's environment: production's, with `issuerUrl` as its card issuer, silent, and `more`. */
export const benchServerEnv = (issuerUrl: string, more: Record<string, string> = {}) =>
  ({ ...productionEnv, ISSUER_URL: issuerUrl, LOG_LEVEL: 'silent', DB_POOL_SIZE: String(BENCH_POOL), ...more }) as NodeJS.ProcessEnv;

/**
 * The server process of a bench (its file run with --serve): the app on DATABASE_URL with the demo
 * data, its issuer at ISSUER_URL, files under BENCH_DATA_DIR when given, listening on 127.0.0.1:BENCH_PORT;
 * prints one JSON line `{port, pid}` when ready, and closes on SIGTERM.
 */
export async function serveBenchApp() {
  const databaseUrl = process.env.DATABASE_URL as string;
  const database = await openDatabase({ databaseUrl, poolSize: BENCH_POOL });
  await database.migrate();
  const more: Record<string, string> = process.env.BENCH_DATA_DIR ? { DATA_DIR: process.env.BENCH_DATA_DIR } : {};
  // a bench of USDT top-ups names its crypto gateway
  for (const name of ['CRYPTO_GATEWAY_URL', 'CRYPTO_WEBHOOK_SECRET'] as const) if (process.env[name]) more[name] = process.env[name] as string;
  const config = { ...loadConfig(benchServerEnv(process.env.ISSUER_URL as string, more)), databaseUrl };
  const { app, services } = await buildApp({ config, database, logger: false });
  await seedDemoData(database, { sealer: services.sealer });
  await app.listen({ port: Number(process.env.BENCH_PORT), host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  if (process.env.BENCH_TIME_PATH) timeRequests(app.server, process.env.BENCH_TIME_PATH);
  // a slow answer the bench counts can be told from a stall of the server's own loop (a job, the GC)
  watchStalls({ warn: (_details, message) => process.stderr.write(`bench server: ${message}\n`) }, { warnAfterMs: 100 });
  process.stdout.write(`${JSON.stringify({ port, pid: process.pid })}\n`);
  process.on('SIGTERM', async () => {
    await app.close();
    await database.close();
    process.exit(0);
  });
}

/**
 * Times the server's requests to `path`, from received (their headers read) to answered (the response
 * handed to the connection), as the server sees them: SIGUSR2 starts a window, the next ends it and
 * prints one JSON line `{timings: {count, p50, p99}}` (ms). What waits in a connection before the
 * server reads it is not in these figures; the bench's own send → answer figures have it.
 */
function timeRequests(server: http.Server, path: string) {
  let window: number[] | null = null;
  server.on('request', (request: http.IncomingMessage, response: http.ServerResponse) => {
    if (!window || request.url !== path) return;
    const into = window;
    const at = performance.now();
    response.once('finish', () => into.push(performance.now() - at));
  });
  process.on('SIGUSR2', () => {
    if (!window) {
      window = [];
      return;
    }
    const done = sorted(window);
    window = null;
    process.stdout.write(`${JSON.stringify({ timings: { count: done.length, p50: percentile(done, 50), p99: percentile(done, 99) } })}\n`);
  });
}

/** An API answer: the HTTP status, the envelope (empty for a raw file), and how many bytes came. */
export interface Answer<T> {
  status: number;
  code: number;
  message: string;
  data: T;
  bytes: number;
}

/** A JSON call to the server over `agent`'s kept-open connections, as a browser tab of `token` on `host` makes it. */
export function apiCaller(port: number, agent: http.Agent, host: string) {
  return function call<T>(method: string, path: string, token: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer<T>> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const request = http.request(
        {
          host: '127.0.0.1',
          port,
          method,
          path: `/api/v1${path}`,
          agent,
          headers: {
            host,
            authorization: `Bearer ${token}`,
            ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
            ...headers,
          },
        },
        (response) => {
          let bytes = 0;
          const chunks: Buffer[] = [];
          const json = String(response.headers['content-type'] ?? '').includes('json');
          response.on('data', (chunk: Buffer) => {
            bytes += chunk.length;
            if (json) chunks.push(chunk);
          });
          response.on('end', () => {
            try {
              const envelope = json
                ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { code: number; message: string; data: T })
                : { code: 0, message: '', data: undefined as T };
              resolve({ status: response.statusCode ?? 0, bytes, ...envelope });
            } catch (error) {
              reject(error);
            }
          });
          response.on('error', reject);
        },
      );
      request.on('error', reject);
      request.end(payload);
    });
  };
}

/** The data of a successful answer; anything else stops the run, saying what. */
export function dataOf<T>(answer: Answer<T>, what: string): T {
  if (answer.code !== 0) throw new Error(`${what}: HTTP ${answer.status}, code ${answer.code}, ${answer.message}`);
  return answer.data;
}
