import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { claimEmbeddedDatabase, embeddedDatabaseFolder } from './db/embedded-owner.ts';
import { shareEmbeddedDatabase } from './db/embedded-socket.ts';
import { openDatabase } from './db/engine.ts';
import { seedDemoData } from './demo-data.ts';
import { issuerWebhookSecretFor } from './lib/secrets.ts';
import { portalWebhookUrl, startBuiltInIssuer } from './providers/issuer/built-in.ts';
import type { SimulatorLog } from './providers/issuer/simulator.ts';
import { cryptoWebhookSecretFor } from './lib/secrets.ts';
import { watchStalls } from './lib/stall-watch.ts';
import { portalCryptoWebhookUrl, startBuiltInGateway } from './providers/crypto/built-in.ts';

const config = configOrExit();
// PGlite's folder admits one process: claim it (an operator command may hold it for a moment)
const embedded = config.databaseUrl ? null : await claimEmbeddedDatabase(config.dataDir, 'server');
const database = await openDatabase({
  databaseUrl: config.databaseUrl,
  dataDir: embeddedDatabaseFolder(config.dataDir),
  poolSize: config.dbPoolSize,
});
await migrateOrExit();
// no ISSUER_URL (never in production): the simulated issuer, on 127.0.0.1:ISSUER_SIM_PORT, before the
// app is built, so the app can reach it (issuerUrlFor); it learns the webhook's port once the app listens
let simulatorLog: SimulatorLog | undefined;
const issuerSimulator = config.issuer.url ? null : await startIssuerSimulatorOrExit();
// no CRYPTO_GATEWAY_URL outside production: the simulated crypto gateway, on 127.0.0.1:CRYPTO_SIM_PORT
const gatewaySimulator = config.crypto.url || config.production ? null : await startGatewaySimulatorOrExit();
const { app, services } = await buildApp({ config, database });
simulatorLog = app.log;
if (config.seedDemo && (await seedDemoData(database, { sealer: services.sealer }))) app.log.info('seeded the demo merchants');
// ...and share it with the operator command line (`npm run ops`) while this process holds it
const shared = embedded && database.pglite ? await shareEmbeddedDatabase(database.pglite, embedded, app.log) : null;

await app.listen({ port: config.port, host: config.host });
const port = (app.server.address() as { port: number }).port;
if (issuerSimulator) {
  issuerSimulator.setWebhookUrl(portalWebhookUrl(config.host, port));
  app.log.info(
    { delay_ms: config.issuer.simDelayMs, fail_rate: config.issuer.simFailRate },
    `simulated card issuer on ${issuerSimulator.url} (ISSUER_URL unset; \`npm run ops -- issuer:fail-next\` fails its next issuance)`,
  );
}
if (gatewaySimulator) {
  gatewaySimulator.setWebhookUrl(portalCryptoWebhookUrl(config.host, port));
  app.log.info(`simulated crypto gateway on ${gatewaySimulator.url} (CRYPTO_GATEWAY_URL unset; \`npm run ops -- crypto:simulate-deposit\` makes a USDT deposit)`);
}
app.log.info({ engine: database.kind, web: config.webDist }, `portal ready on http://localhost:${port}`);
watchStalls(app.log);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    app.log.info(`${signal}: closing`);
    await shared?.stop();
    await issuerSimulator?.close();
    await gatewaySimulator?.close();
    await app.close();
    await database.close();
    embedded?.release();
    process.exit(0);
  });
}

/** A configuration the server must not start with (e.g. a development provider in production): the reason on one line, exit code 1. */
function configOrExit() {
  try {
    return loadConfig();
  } catch (error) {
    process.stderr.write(`${(error as Error).message.replace(/:\n/, ': ').replaceAll('\n', '; ')}\n`);
    process.exit(1);
  }
}

/**
 * The simulated issuer's port is taken (another portal on this machine, or an `npm run issuer-sim`):
 * said in one line with what to do, exit code 1.
 */
async function startIssuerSimulatorOrExit() {
  try {
    return await startBuiltInIssuer(config, {
      secret: () => issuerWebhookSecretFor(config),
      log: {
        info: (details, message) => simulatorLog?.info(details, message),
        warn: (details, message) => simulatorLog?.warn(details, message),
        error: (details, message) => simulatorLog?.error(details, message),
      },
    });
  } catch (error) {
    const inUse = (error as NodeJS.ErrnoException).code === 'EADDRINUSE';
    const advice = inUse
      ? `; set ISSUER_SIM_PORT to a free port (0: any), or ISSUER_URL to the issuer that listens there (e.g. ISSUER_URL=http://127.0.0.1:${config.issuer.simPort} for an \`npm run issuer-sim\`)`
      : '';
    process.stderr.write(`${(error as Error).message}${advice}\n`);
    await database.close().catch(() => {});
    embedded?.release();
    process.exit(1);
  }
}

/** The simulated crypto gateway's port is taken: said in one line with what to do, exit code 1. */
async function startGatewaySimulatorOrExit() {
  try {
    return await startBuiltInGateway(config, {
      secret: () => cryptoWebhookSecretFor(config),
      log: { info: (details, message) => simulatorLog?.info(details, message), warn: (details, message) => simulatorLog?.warn(details, message) },
    });
  } catch (error) {
    process.stderr.write(`${(error as Error).message}; set CRYPTO_SIM_PORT to a free port (0: any), or CRYPTO_GATEWAY_URL to the gateway that listens there\n`);
    await database.close().catch(() => {});
    embedded?.release();
    process.exit(1);
  }
}

/**
 * The database is where everything lives: one that does not answer at start is said in one line
 * (which server, what to check), with exit code 1 and no stack.
 */
async function migrateOrExit() {
  try {
    await database.migrate();
  } catch (error) {
    const url = config.databaseUrl ? new URL(config.databaseUrl) : null;
    const where = url ? `PostgreSQL at ${url.hostname}:${url.port || '5432'} (database ${url.pathname.replace(/^\//, '') || 'postgres'})` : `the embedded database in ${config.dataDir}`;
    const code = (error as { code?: unknown; cause?: { code?: unknown } }).code ?? (error as { cause?: { code?: unknown } }).cause?.code;
    const reason = code ? `${String(code)}: ${(error as Error).message.split('\n')[0]}` : (error as Error).message.split('\n')[0];
    const check = url ? 'check that it runs, that DATABASE_URL names the right host, port, user and database, and that this machine may connect' : 'check that DATA_DIR is readable and writable';
    process.stderr.write(`cannot use ${where}: ${reason}; ${check}\n`);
    await database.close().catch(() => {});
    process.exit(1);
  }
}
