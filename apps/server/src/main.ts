import path from 'node:path';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/engine.ts';
import { seedDemoData } from './db/seed.ts';

const config = loadConfig();
const database = await openDatabase({
  databaseUrl: config.databaseUrl,
  dataDir: path.join(config.dataDir, 'pglite'),
  poolSize: config.dbPoolSize,
});
await database.migrate();
const { app } = await buildApp({ config, database });
if (config.seedDemo && (await seedDemoData(database))) app.log.info('seeded the demo merchants');

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
    await app.close();
    await database.close();
    process.exit(0);
  });
}
