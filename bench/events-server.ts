// The server process of `npm run bench:events`: the real app on PostgreSQL (production settings,
// logging off). Prints its port and pid as one JSON line when ready.
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/db/engine.ts';
// production's settings; the benchmark sends no SMS or mail, so they only have to be there
import { productionEnv } from '../apps/server/test/helpers/production-env.ts';

const databaseUrl = process.env.DATABASE_URL as string;
const database = await openDatabase({ databaseUrl, poolSize: 20 });
// no web app: the page renderer loads in the background after the start, and its memory is not the streams'
const config = { ...loadConfig({ ...productionEnv, LOG_LEVEL: 'silent' }), databaseUrl, webDist: '/nonexistent/web' };
const { app } = await buildApp({ config, database, logger: false });
app.server.maxConnections = 100_000;
await app.listen({ port: 0, host: '127.0.0.1' });
const { port } = app.server.address() as { port: number };
process.stdout.write(`${JSON.stringify({ port, pid: process.pid })}\n`);
process.on('SIGTERM', async () => {
  await app.close();
  await database.close();
  process.exit(0);
});
