// The server process of `npm run bench:events`: the real app on PostgreSQL (production settings,
// logging off). Prints its port and pid as one JSON line when ready.
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/db/engine.ts';

const databaseUrl = process.env.DATABASE_URL as string;
const database = await openDatabase({ databaseUrl, poolSize: 20 });
// production wants a real SMS provider; the benchmark sends none, so its settings only have to be there
const BENCH_SMS = {
  SMS_PROVIDER: 'aliyun',
  ALIYUN_SMS_ACCESS_KEY_ID: 'bench',
  ALIYUN_SMS_ACCESS_KEY_SECRET: 'bench',
  ALIYUN_SMS_SIGN_NAME: 'bench',
  ALIYUN_SMS_TEMPLATE_REGISTER: 'SMS_1',
  ALIYUN_SMS_TEMPLATE_ACCESS: 'SMS_2',
  ALIYUN_SMS_TEMPLATE_RESET_PASSWORD: 'SMS_3',
  ALIYUN_SMS_ENDPOINT: 'http://127.0.0.1:1/',
};
const config = { ...loadConfig({ NODE_ENV: 'production', SMTP_URL: 'smtp://127.0.0.1:1', CARD_DATA_KEY: 'bench', CODE_HASH_KEY: 'bench-only-code-hash-key-of-32-characters', ...BENCH_SMS, LOG_LEVEL: 'silent' }), databaseUrl };
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
