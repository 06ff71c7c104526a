import { type BatchStatusAnswer, CardBatchErrorCode } from '@portal/contract/card-batches';
import type { CardItem, OpenedAvailableAnswer } from '@portal/contract/cards';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.ts';
import { signIssuerPayload } from '../../src/lib/issuer-signature.ts';
import { CARD_RECONCILE_QUEUE } from '../../src/modules/card-reconcile/service.ts';
import { type RunningIssuerSimulator, startIssuerSimulator } from '../../src/providers/issuer/simulator-server.ts';
import { signUp } from '../helpers/accounts.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { expectSoundBooks } from '../helpers/ledger.ts';
import { runOpsOn } from '../helpers/ops.ts';
import { until } from '../helpers/until.ts';

// Batches whose issuer events are lost: the simulated issuer over HTTP takes every request, but its
// deliveries are switched off (no webhook address, no retry), so every card.issued and card.failed is
// given up. Only asking the issuer again (getCard) can end such a batch.
const SECRET = 'batch-reconcile-test-secret-0123456789abcdef';
const clock = new ManualClock();
let sim: RunningIssuerSimulator;
let database: TestDatabase;
let t: TestApp;
let env: NodeJS.ProcessEnv;

const build = () => createTestApp({ database, clock, env, config: { jobs: { batchConcurrency: 10, superviseSeconds: 5 } } });

beforeAll(async () => {
  sim = await startIssuerSimulator({ host: '127.0.0.1', port: 0, secret: SECRET, delayMs: 0, failRate: 0, retryDelaysMs: [] });
  env = { ISSUER_URL: sim.url, ISSUER_WEBHOOK_SECRET: SECRET };
  database = await createTestDatabase();
  t = await build();
});
afterAll(async () => {
  await t?.close();
  await sim?.close();
  await database?.close();
});

const rows = async (query: ReturnType<typeof sql>) => ((await t.database.db.execute(query)) as unknown as { rows: Array<Record<string, unknown>> }).rows;
let serial = 0;

async function customer(host = 'localhost') {
  const who = await signUp(t, host);
  const api = t.api(host, who.token);
  const { id } = await api.data<{ id: string }>('GET', '/account/info');
  await api.data('PUT', '/card/verification', { body: { real_name: '王五', id_number: '11010519491231002X' } });
  const merchant = await t.services.merchants.findByHost(host);
  if (!merchant) throw new Error(`no merchant at ${host}`);
  await t.services.ledger.recharge({ merchantId: merchant.id, accountId: id, currency: 'USD', amount: 1000_00n, key: `fund-${id}` });
  const { products } = await api.data<OpenedAvailableAnswer>('GET', '/card/opened-available');
  const product = products.find((p) => p.name === '订阅支付卡');
  if (!product) throw new Error('no 订阅支付卡');
  const batch = (quantity: number, prefix: string) =>
    api.post<{ batch_id: string }>('/batch-create-card', { product_id: product.id, quantity, amount: '10.00', nickname_prefix: prefix }, { headers: { 'idempotency-key': `reconcile-${++serial}-${Date.now()}` } });
  const wallet = async () => (await api.data<Array<{ currency: string; available: string; anew: string }>>('GET', '/balance/account-balance')).find((b) => b.currency === 'USD');
  return { id, api, batch, wallet, merchantId: merchant.id };
}

/** The batch's cards, once the issuer has taken every one of them and given up telling the portal. */
async function lostBatch(batchId: string, quantity: number) {
  const cards = (await rows(sql`select id from cards where batch_id = ${batchId} order by nickname`)).map((row) => String(row.id));
  expect(cards).toHaveLength(quantity);
  await until('the issuer to take every card', async () => (await Promise.all(cards.map((id) => sim.simulator.getCard(id)))).every((answer) => answer.status !== 'UNKNOWN'));
  await sim.simulator.settled();
  return cards;
}

const batchOf = async (batchId: string) => (await rows(sql`select status, success_count, fail_count from card_batches where id = ${batchId}`))[0];
const statusesOf = async (cards: string[]) => (await rows(sql`select status from cards where id in ${cards} order by nickname`)).map((row) => row.status);

/** Sends the reconciliation's job, as its schedule does, and waits until it has run. */
async function runReconcileJob() {
  const id = await until('the job queued', async () => (await t.services.jobs.send(CARD_RECONCILE_QUEUE, {})) ?? undefined);
  await until('the job run', async () => (await rows(sql`select state from pgboss.job where id = ${id}`))[0]?.state === 'completed');
}

/** Each card issued charged once (its opening fee and first load), each one failed charged nothing. */
async function expectChargedOnce(cards: string[]) {
  const postings = await rows(sql`select reference, type, count(*)::int as n from ledger_transactions
    where reference in ${cards.map((id) => `card:${id}`)} group by reference, type order by reference, type`);
  const statuses = await rows(sql`select id, status from cards where id in ${cards}`);
  for (const card of statuses) {
    const mine = postings.filter((p) => p.reference === `card:${card.id}`).map((p) => [p.type, p.n]);
    expect(mine).toEqual(card.status === 'NORMAL' ? [['OPEN_CARD', 1], ['TRANSFER_OUT_TO_CARD', 1]] : []);
  }
  await expectSoundBooks(t.database.db);
}

describe('a batch whose issuer events were lost', () => {
  it('hangs until the reconciliation asks the issuer; cards waiting past CARD_RECONCILE_AFTER_SECONDS are settled once, the batch ends and a new one is accepted', async () => {
    const who = await customer();
    sim.simulator.failNext('BIN 额度已满');
    const accepted = await who.batch(4, 'LOST');
    expect(accepted.code, accepted.message).toBe(0);
    const batchId = accepted.data.batch_id;
    const cards = await lostBatch(batchId, 4);

    // nothing reached the portal: the batch runs on, its money held, and no other batch is accepted
    expect(await statusesOf(cards)).toEqual(['CARD_STATUS_INIT', 'CARD_STATUS_INIT', 'CARD_STATUS_INIT', 'CARD_STATUS_INIT']);
    expect(await who.wallet()).toEqual({ currency: 'USD', available: '950.40', anew: '49.60' });
    expect((await who.batch(2, 'NEXT')).code).toBe(CardBatchErrorCode.BATCH_RUNNING);

    // cards younger than the timeout are left alone by the minute's run
    expect(t.config.cardReconcileAfterSeconds).toBe(60);
    await runReconcileJob();
    expect(await statusesOf(cards)).toEqual(['CARD_STATUS_INIT', 'CARD_STATUS_INIT', 'CARD_STATUS_INIT', 'CARD_STATUS_INIT']);

    clock.advance(61_000);
    await runReconcileJob();
    expect((await statusesOf(cards)).sort()).toEqual(['FAIL', 'NORMAL', 'NORMAL', 'NORMAL']);
    expect(await batchOf(batchId)).toEqual({ status: 'FAIL', success_count: 3, fail_count: 1 });
    const items = await Promise.all(cards.map((id) => who.api.data<CardItem>('GET', `/card/${id}`)));
    expect(items.filter((card) => card.status === 'FAIL').map((card) => card.failure_reason)).toEqual(['BIN 额度已满']);
    const issued = items.find((card) => card.status === 'NORMAL') as CardItem;
    // 订阅支付卡 with 10.00 loaded: 2.00 + 10.00 + 0.40 for each of the three issued
    expect(await who.wallet()).toEqual({ currency: 'USD', available: '962.80', anew: '0.00' });
    const atIssuer = (await sim.simulator.getCard(issued.id)) as { pan: string; cvv: string; exp_month: string; exp_year: string };
    expect(issued.last4).toBe(atIssuer.pan.slice(-4));
    await expectChargedOnce(cards);
    const messages = await rows(sql`select count(*)::int as n from station_messages where account_id = ${who.id} and type = 'BATCH_CARD_RESULT'`);
    expect(messages[0]?.n).toBe(1);

    // the lost event arriving after all changes nothing
    const late = JSON.stringify({ id: `evt_late_${Date.now()}`, type: 'card.issued', data: { card_id: issued.id, pan: atIssuer.pan, cvv: atIssuer.cvv, exp_month: atIssuer.exp_month, exp_year: atIssuer.exp_year } });
    const answer = await t.app.inject({
      method: 'POST',
      url: '/api/v1/issuer/webhook',
      headers: { host: 'issuer.example', 'content-type': 'application/json', 'issuer-signature': signIssuerPayload(SECRET, late, clock.now()) },
      payload: late,
    });
    expect(answer.statusCode).toBe(200);
    expect(await who.wallet()).toEqual({ currency: 'USD', available: '962.80', anew: '0.00' });
    await expectChargedOnce(cards);

    expect((await who.batch(2, 'NEXT')).code).toBe(0);
  });

  it('card:reconcile asks about every waiting card at once and prints what changed, card by card and batch by batch', async () => {
    // at a merchant of its own: --host keeps to its cards
    const who = await customer('orange.localhost');
    const accepted = await who.batch(2, 'OPS');
    const batchId = accepted.data.batch_id;
    const cards = await lostBatch(batchId, 2);
    const run = await runOpsOn(t.database, ['card:reconcile', '--host', 'orange.localhost'], env);
    expect(run.code, run.stderr).toBe(0);
    for (const id of cards) expect(run.stdout).toMatch(new RegExp(`${id} +OPS-00\\d +CARD_STATUS_INIT 申请中 +NORMAL 使用中 +ISSUED \\(ACTIVE\\) +settled`));
    expect(run.stdout).toContain(`batch ${batchId}: RUNNING → SUCCESS (2 issued, 0 failed of 2)`);
    expect(run.stdout).toMatch(/2 waiting cards asked about at merchant orange: 2 settled, 0 asked again, 0 still waiting, 0 not answered\./);
    expect(await batchOf(batchId)).toEqual({ status: 'SUCCESS', success_count: 2, fail_count: 0 });
    expect(await who.api.data<BatchStatusAnswer>('GET', '/card/batch-create-card-status')).toMatchObject({ exist: false, status: 'SUCCESS', success_count: 2 });
    await expectChargedOnce(cards);

    const again = await runOpsOn(t.database, ['card:reconcile', '--host', 'orange.localhost'], env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toBe('No card waits for the card issuer at merchant orange: nothing to do.');
  });

  it('is settled at the start of the next server, whatever the age of its cards', async () => {
    const who = await customer();
    const accepted = await who.batch(3, 'BOOT');
    const batchId = accepted.data.batch_id;
    const cards = await lostBatch(batchId, 3);
    await t.close();
    // the same database, a new server: its start asks about every waiting card (no clock moved)
    t = await build();
    await until('the batch to end', async () => (await batchOf(batchId))?.status !== 'RUNNING');
    expect(await batchOf(batchId)).toEqual({ status: 'SUCCESS', success_count: 3, fail_count: 0 });
    expect(await statusesOf(cards)).toEqual(['NORMAL', 'NORMAL', 'NORMAL']);
    await expectChargedOnce(cards);
  });
});
