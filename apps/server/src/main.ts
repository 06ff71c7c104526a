import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { claimEmbeddedDatabase, embeddedDatabaseFolder } from './db/embedded-owner.ts';
import { shareEmbeddedDatabase } from './db/embedded-socket.ts';
import { openDatabase } from './db/engine.ts';
import { seedDemoData } from './demo-data.ts';

const config = configOrExit();
// PGlite's folder admits one process: claim it (an operator command may hold it for a moment)
const embedded = config.databaseUrl ? null : await claimEmbeddedDatabase(config.dataDir, 'server');
const database = await openDatabase({
  databaseUrl: config.databaseUrl,
  dataDir: embeddedDatabaseFolder(config.dataDir),
  poolSize: config.dbPoolSize,
});
await migrateOrExit();
const { app } = await buildApp({ config, database });
if (config.seedDemo && (await seedDemoData(database))) app.log.info('seeded the demo merchants');
// ...and share it with the operator command line (`npm run ops`) while this process holds it
const shared = embedded && database.pglite ? await shareEmbeddedDatabase(database.pglite, embedded, app.log) : null;

await app.listen({ port: config.port, host: config.host });
app.log.info(
  { engine: database.kind, web: config.webDist },
  `portal ready on http://localhost:${(app.server.address() as { port: number }).port}`,
);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    app.log.info(`${signal}: closing`);
    await shared?.stop();
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
