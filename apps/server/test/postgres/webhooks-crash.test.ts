import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { WebhookSecret } from '@portal/contract/webhooks';
import { sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeEvent } from '../../src/modules/webhooks/store.ts';
import { createTestApp } from '../helpers/app.ts';
import { freePort } from '../helpers/crypto-gateway.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { productionEnv } from '../helpers/production-env.ts';
import { queryRows } from '../helpers/sql.ts';
import { teamOwner } from '../helpers/team.ts';
import { serverProcesses } from '../helpers/server-process.ts';
import { until } from '../helpers/until.ts';
import { webhookReceiver } from '../helpers/webhook-receiver.ts';

/**
 * Webhook deliveries across a kill -9 on PostgreSQL: a real server process (`main.ts`) sends 200
 * events of 20 cards to a slow endpoint and is killed with SIGKILL mid-way; a new process sends the
 * rest, the killed one's unanswered sends again once their lease ends. Every event arrives, each under
 * one webhook-id, signed, and each card's events first arrive in the order they happened.
 */
const CARDS = 20;
const EACH = 10;
let database: TestDatabase;
let dataDir: string;

const servers = serverProcesses();

const startServer = (port: number) =>
  servers.start(port, {
    ...process.env,
    ...productionEnv,
    // outside production: the endpoint is this machine's, over http
    NODE_ENV: 'development',
    ISSUER_SIM_PORT: '0',
    CRYPTO_SIM_PORT: '0',
    DATABASE_URL: database.location,
    DATA_DIR: dataDir,
    SEED_DEMO: 'false',
    LOG_LEVEL: 'error',
    LOG_FORMAT: 'json',
    DB_POOL_SIZE: '8',
    JOBS_SUPERVISE_SECONDS: '2',
    WEBHOOK_TIMEOUT_MS: '2000',
    WEBHOOK_RETRY_DELAYS_SECONDS: '0.5',
  });

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-webhooks-crash-'));
});

afterAll(async () => {
  servers.killAll();
  await database?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('webhook deliveries across a kill -9', () => {
  it('delivers every event, under one id each and in each card’s order, when the sending server is killed and another takes over', async () => {
    const hook = await webhookReceiver();
    // slow enough that the kill finds sends in flight and most still to do
    hook.answerWith(() => ({ status: 200, waitMs: 40 }));
    const setup = await createTestApp({ database, env: { CARD_DATA_KEY: productionEnv.CARD_DATA_KEY } });
    const owner = await teamOwner(setup);
    const made = await owner.api.post<WebhookSecret>('/developer/webhooks', { url: hook.url, events: ['card.status_changed'] });
    expect(made.code, made.message).toBe(0);
    const [merchant] = await queryRows<{ merchant_id: string }>(database.db, sql`select merchant_id from accounts where id = ${owner.accountId}`);
    await setup.close();

    // the outbox as the cards module leaves it: each event written in its change's transaction, round-robin over the cards
    const cards = Array.from({ length: CARDS }, () => randomUUID());
    for (let n = 0; n < EACH; n += 1) {
      await database.db.transaction(async (tx) => {
        for (const card of cards) {
          await writeEvent(tx, { merchantId: String(merchant?.merchant_id), accountId: owner.accountId, type: 'card.status_changed', orderKey: card, data: { card_id: card, n }, at: new Date() });
        }
      });
    }

    const first = await startServer(await freePort());
    await until('some deliveries', async () => hook.received.length >= 30, 60_000);
    const exited = new Promise((resolve) => first.once('exit', resolve));
    first.kill('SIGKILL');
    await exited;
    const atKill = hook.received.length;
    expect(atKill).toBeLessThan(CARDS * EACH);

    await startServer(await freePort());
    const ids = () => new Set(hook.received.map((one) => String(one.headers['webhook-id'])));
    await until('every event received', async () => ids().size === CARDS * EACH, 120_000);
    await until('every delivery recorded', async () => {
      const [row] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from webhook_deliveries where status <> 'DELIVERED'`);
      return row?.n === 0;
    }, 60_000);

    const verifier = new Webhook(made.data.secret);
    const firstSeen = new Map<string, number[]>();
    const seenIds = new Set<string>();
    for (const one of hook.received) {
      const body = verifier.verify(one.body, one.headers as Record<string, string>) as { id: string; data: { card_id: string; n: number } };
      expect(body.id).toBe(one.headers['webhook-id']);
      if (seenIds.has(body.id)) continue;
      seenIds.add(body.id);
      firstSeen.set(body.data.card_id, [...(firstSeen.get(body.data.card_id) ?? []), body.data.n]);
    }
    for (const card of cards) expect(firstSeen.get(card)).toEqual(Array.from({ length: EACH }, (_, n) => n));
    await hook.close();
  }, 300_000);
});
