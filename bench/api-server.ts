// The server process of `npm run bench:api`: the real app on PostgreSQL, plus one bare route that
// does a single primary-key read through the same pool, as the yardstick. Prints its port and a
// session token as one JSON line when ready.
import { sql } from 'drizzle-orm';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/db/engine.ts';
import { demoAccount, seedDemoData } from '../apps/server/src/demo-data.ts';
// production's settings; the benchmark sends no SMS or mail, so they only have to be there
import { productionEnv } from '../apps/server/test/helpers/production-env.ts';

const databaseUrl = process.env.DATABASE_URL as string;
const poolSize = Number(process.env.DB_POOL_SIZE ?? 20);
const database = await openDatabase({ databaseUrl, poolSize });
await database.migrate();
await seedDemoData(database);
const config = { ...loadConfig({ ...productionEnv, LOG_LEVEL: 'silent' }), databaseUrl };
const { app, services } = await buildApp({ config, database, logger: false });
const merchant = await services.merchants.findByHost('localhost');
if (!merchant) throw new Error('no demo merchant');
const account = await services.directory.findByPhone(merchant.id, demoAccount.phonePrefix, demoAccount.phone);
if (!account) throw new Error('no demo account');
const { token } = await services.sessions.open(database.db, {
  merchantId: merchant.id,
  accountId: account.id,
  memberId: account.memberId,
  stage: 'FULL',
  userAgent: 'bench',
  ip: '127.0.0.1',
});
app.get('/bench/bare', async () => {
  const result = (await database.db.execute(sql`select id, email, phone, phone_prefix from members where id = ${account.memberId}`)) as unknown as { rows: unknown[] };
  return { code: 0, message: 'success', data: result.rows[0] };
});
await app.listen({ port: 0, host: '127.0.0.1' });
const { port } = app.server.address() as { port: number };
process.stdout.write(`${JSON.stringify({ port, token })}\n`);

process.on('SIGTERM', async () => {
  await app.close();
  await database.close();
  process.exit(0);
});
