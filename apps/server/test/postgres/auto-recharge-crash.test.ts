import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { CardItem } from '@portal/contract/cards';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIssuerPayload } from '../../src/lib/issuer-signature.ts';
import { runKey } from '../../src/modules/balance-rules/auto-recharge.ts';
import { createTestApp } from '../helpers/app.ts';
import { freePort } from '../helpers/crypto-gateway.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { scriptedIssuer } from '../helpers/issuer.ts';
import { expectSoundBooks } from '../helpers/ledger.ts';
import { productionEnv } from '../helpers/production-env.ts';
import { queryRows } from '../helpers/sql.ts';
import { issuedCard, readyForCards, teamOwner } from '../helpers/team.ts';
import { serverProcesses } from '../helpers/server-process.ts';
import { until } from '../helpers/until.ts';

/**
 * Auto top-ups across a kill -9 on PostgreSQL: many cards carrying a tag with a rule cross its threshold
 * at once on a real server process (`main.ts`, production settings), which is killed with SIGKILL while
 * its jobs top them up; a new process finishes the rest. Every crossing is topped up exactly once, no
 * hold is left on the wallet, and the books audit clean.
 */
const CARDS = 30;
const issuer = scriptedIssuer();
let database: TestDatabase;
let dataDir: string;

const servers = serverProcesses();

const startServer = (port: number) =>
  servers.start(port, {
    ...process.env,
    ...productionEnv,
    DATABASE_URL: database.location,
    DATA_DIR: dataDir,
    SEED_DEMO: 'false',
    LOG_LEVEL: 'error',
    LOG_FORMAT: 'json',
    DB_POOL_SIZE: '8',
    JOBS_SUPERVISE_SECONDS: '2',
  });

/** A purchase of `amount` the issuer asks the server at `port` to authorise: the HTTP status. */
function authorize(port: number, cardId: string, amount: string) {
  const body = JSON.stringify({
    id: `evt_${randomUUID()}`,
    type: 'authorization.request',
    data: { id: `auth_${randomUUID()}`, card_id: cardId, amount, currency: 'USD', merchant_name: 'Meta Ads', mcc: '7311', country: 'US' },
  });
  return new Promise<number>((resolve) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/v1/issuer/webhook',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'issuer-signature': signIssuerPayload(productionEnv.ISSUER_WEBHOOK_SECRET, body, new Date()),
        },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    request.on('error', () => resolve(0));
    request.end(body);
  });
}

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-auto-recharge-crash-'));
});

afterAll(async () => {
  servers.killAll();
  await database?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('auto top-ups across a kill -9', () => {
  it('tops each crossing up exactly once when the server running the top-ups is killed and another takes over', async () => {
    // the account, its tagged cards and the tag's rule, made while an in-test server runs; it stops before any crossing
    const setup = await createTestApp({ database, issuer: issuer.port });
    issuer.attach(setup);
    const owner = await teamOwner(setup);
    await readyForCards(setup, owner);
    const [merchant] = await queryRows<{ merchant_id: string }>(database.db, sql`select merchant_id from accounts where id = ${owner.accountId}`);
    await setup.services.ledger.recharge({ merchantId: String(merchant?.merchant_id), accountId: owner.accountId, currency: 'USD', amount: 5000_00n, key: `crash-fund-${owner.accountId}` });
    const cards: CardItem[] = [];
    for (let n = 0; n < CARDS; n += 1) {
      const card = await issuedCard(owner, issuer, `崩溃${n + 1}`);
      expect((await owner.api.put(`/card/${card.id}/tags`, { tags: ['崩溃'] })).code).toBe(0);
      cards.push(card);
    }
    const rule = await owner.api.put('/card/tag-auto-recharge/%E5%B4%A9%E6%BA%83', { enabled: true, threshold: '10.00', target: '50.00', daily_max: '500.00' });
    expect(rule.code, rule.message).toBe(0);
    await setup.close();
    const ids = sql.join(
      cards.map((card) => sql`${card.id}::uuid`),
      sql`, `,
    );
    const runs = () => queryRows<{ card_id: string; status: string; n: number }>(database.db, sql`select card_id, status, count(*)::int as n from auto_recharge_runs where card_id in (${ids}) group by card_id, status`);

    // every card crosses at once (20.00 → 5.00); the server is killed once the first top-up is done, the others on their way
    const firstPort = await freePort();
    const first = await startServer(firstPort);
    const lanes = Array.from({ length: 6 }, (_, lane) =>
      (async () => {
        for (let n = lane; n < CARDS; n += 6) expect(await authorize(firstPort, (cards[n] as CardItem).id, '15.00')).toBe(200);
      })(),
    );
    await Promise.all(lanes);
    await until('a first top-up done', async () => (await runs()).some((row) => row.status === 'DONE'), 60_000);
    const exited = new Promise((resolve) => first.once('exit', resolve));
    first.kill('SIGKILL');
    await exited;
    const atKill = await runs();
    // each crossing was written with its authorisation: one run a card, whatever the kill left of them
    expect(atKill.reduce((sum, row) => sum + row.n, 0)).toBe(CARDS);
    // the kill came while top-ups were still to do (four at a time, thirty of them): the new process has work to take over
    expect(atKill.filter((row) => row.status === 'PENDING').length).toBeGreaterThan(0);

    await startServer(await freePort());
    const ended = await until(
      'every run ended',
      async () => {
        const now = await runs();
        return now.every((row) => row.status !== 'PENDING') && now;
      },
      120_000,
    );
    expect(ended.map((row) => [row.status, row.n])).toEqual(cards.map(() => ['DONE', 1]));

    // each card has its first load and exactly one top-up, to 50.00 available
    const moves = await queryRows<{ card_id: string; n: number }>(
      database.db,
      sql`select card_id, count(*)::int as n from card_transactions where card_id in (${ids}) and type = 'TRANSFER_IN' group by card_id`,
    );
    expect(moves.map((row) => row.n)).toEqual(cards.map(() => 2));
    const money = await queryRows<{ available: string }>(
      database.db,
      sql`select (balance - held)::text as available from ledger_accounts where kind = 'CARD' and owner_id in (${ids})`,
    );
    expect(money.map((row) => row.available)).toEqual(cards.map(() => '5000'));
    const doneRuns = await queryRows<{ id: string }>(database.db, sql`select id from auto_recharge_runs where card_id in (${ids})`);
    const keys = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from ledger_idempotency_keys where key in (${sql.join(
        doneRuns.map((run) => sql`${`card-recharge:${owner.accountId}:${runKey(run.id)}`}`),
        sql`, `,
      )})`,
    );
    expect(keys[0]?.n).toBe(CARDS);
    const [wallet] = await queryRows<{ held: string }>(database.db, sql`select held::text as held from ledger_accounts where kind = 'WALLET' and holder_id = ${owner.accountId} and currency = 'USD'`);
    expect(wallet?.held).toBe('0');
    await expectSoundBooks(database.db);
  }, 300_000);
});
