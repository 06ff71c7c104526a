import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type BuildOptions, buildApp } from '../../src/app.ts';
import { type Config, loadConfig } from '../../src/config.ts';
import { sealerFor } from '../../src/composition.ts';
import { seedDemoData } from '../../src/demo-data.ts';
import type { Clock } from '../../src/lib/clock.ts';
import type { MailSender } from '../../src/providers/mail/port.ts';
import type { CardIssuer } from '../../src/providers/issuer/port.ts';
import type { SmsSender } from '../../src/providers/sms/port.ts';
import { type ApiClient, api } from './api.ts';
import { type RunningGatewaySimulator, startGatewaySimulator } from '../../src/providers/crypto/simulator-server.ts';
import { createTestDatabase, type TestDatabase, type TestDatabaseOptions } from './database.ts';

export interface TestAppOptions {
  /** an existing test database (its owner closes it); by default a fresh one is made and closed with the app */
  database?: TestDatabase;
  /** options for the fresh database, when none is given */
  databaseOptions?: TestDatabaseOptions;
  /** add the five demo merchants (default true; a database that already has merchants is left alone) */
  seed?: boolean;
  /** e.g. a ManualClock from src/lib/clock.ts, to move time in expiry tests */
  clock?: Clock;
  sms?: SmsSender;
  mail?: MailSender;
  /** the card issuer the app asks (see helpers/issuer.ts) */
  issuer?: CardIssuer;
  /** environment given to loadConfig over the test defaults, e.g. { NODE_ENV: 'production', SMTP_URL, CARD_DATA_KEY } */
  env?: NodeJS.ProcessEnv;
  /** fields set on the loaded config, last */
  config?: Partial<Config>;
  /** logging is off unless a stream is given; then the app's JSON log lines are written to it */
  logStream?: { write(line: string): void };
  /** more route plugins that belong to no merchant, in the platform context (BuildOptions.webhooks) */
  webhooks?: BuildOptions['webhooks'];
}

export interface TestApp {
  app: Awaited<ReturnType<typeof buildApp>>['app'];
  /** the services the app was built with (composition.ts) */
  services: Awaited<ReturnType<typeof buildApp>>['services'];
  /** this process's open event streams */
  hub: Awaited<ReturnType<typeof buildApp>>['hub'];
  /** every route the app registered, with its methods */
  routes: Awaited<ReturnType<typeof buildApp>>['routes'];
  config: Config;
  database: TestDatabase;
  /** the clock the app reads (the one given, or the system clock) */
  clock: Clock;
  /** a temporary DATA_DIR, removed by close() */
  dataDir: string;
  /** the simulated crypto gateway started for the app over HTTP when the env names none (CRYPTO_GATEWAY_URL) */
  cryptoGateway: RunningGatewaySimulator | undefined;
  /** an inject client for a host (default localhost, the blue demo merchant), optionally with a bearer token */
  api(host?: string, token?: string): ApiClient;
  /** closes the app, then the database if this helper made it, and removes the data folder */
  close(): Promise<void>;
}

/**
 * A built, ready app on a fresh migrated database with the demo merchants, logger off:
 *
 *     let t: TestApp;
 *     beforeAll(async () => { t = await createTestApp({ clock: new ManualClock() }); });
 *     afterAll(() => t.close());
 *     it('…', async () => { const { data } = await t.api('orange.localhost').get('/merchant'); });
 */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-test-data-'));
  const ownsDatabase = !options.database;
  const database = options.database ?? (await createTestDatabase(options.databaseOptions));
  // the demo merchants offer USDT: their addresses come from a simulated gateway of the app's own, as the server's would
  const gatewayNamed = options.env?.CRYPTO_GATEWAY_URL !== undefined || options.env?.NODE_ENV === 'production';
  const cryptoGateway = gatewayNamed ? undefined : await startGatewaySimulator({ port: 0, secret: 'test-crypto-webhook-secret-0123456789abcdef' });
  try {
    const config: Config = {
      ...loadConfig({
        NODE_ENV: 'test',
        LOG_LEVEL: 'info',
        DATA_DIR: dataDir,
        ...(cryptoGateway ? { CRYPTO_GATEWAY_URL: cryptoGateway.url, CRYPTO_WEBHOOK_SECRET: 'test-crypto-webhook-secret-0123456789abcdef' } : {}),
        ...options.env,
      }),
      ...options.config,
    };
    if (options.seed !== false) await seedDemoData(database, { sealer: sealerFor(config) });
    const { app, services, hub, routes } = await buildApp({
      config,
      database,
      ...(options.clock ? { clock: options.clock } : {}),
      ...(options.sms ? { sms: options.sms } : {}),
      ...(options.mail ? { mail: options.mail } : {}),
      ...(options.issuer ? { issuer: options.issuer } : {}),
      logger: options.logStream ? { stream: options.logStream } : false,
      ...(options.webhooks ? { webhooks: options.webhooks } : {}),
    });
    await app.ready();
    return {
      app,
      services,
      hub,
      routes,
      config,
      database,
      clock: services.clock,
      dataDir,
      cryptoGateway,
      api: (host = 'localhost', token?: string) => api(app, host, token),
      async close() {
        try {
          await app.close();
        } finally {
          await cryptoGateway?.close();
          if (ownsDatabase) await database.close();
          await rm(dataDir, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    await cryptoGateway?.close();
    if (ownsDatabase) await database.close().catch(() => {});
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/** Collects log lines written by an app built with `logStream`. */
export function logCollector() {
  const lines: string[] = [];
  return {
    lines,
    stream: { write: (line: string) => void lines.push(line) },
    /** every line as one string */
    text: () => lines.join(''),
    /** the lines parsed as JSON */
    records: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}
