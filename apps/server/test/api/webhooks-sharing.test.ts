/**
 * Two senders over one database, as two server processes are: a due delivery is claimed by one of them
 * only, and together they deliver every event once, each card's events in order, several sends to one
 * endpoint in flight at once. The deliveries here fall due an hour ahead and the two senders' clocks
 * are set past that: the app's own sender never finds them due.
 */
import { randomUUID } from 'node:crypto';
import type { WebhookSecret } from '@portal/contract/webhooks';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../src/lib/clock.ts';
import { createDispatcher } from '../../src/modules/webhooks/delivery.ts';
import { claimDue, writeEvent } from '../../src/modules/webhooks/store.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { queryRows } from '../helpers/sql.ts';
import { type Teammate, teamOwner } from '../helpers/team.ts';
import { until } from '../helpers/until.ts';
import { webhookReceiver } from '../helpers/webhook-receiver.ts';

const HOUR = 3600_000;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ config: { webhooks: { timeoutMs: 5000, retryDelaysSeconds: [0.2], giveUpSeconds: 60 } } });
});
afterAll(() => t?.close());

const aheadBy = (ms: number): Clock => ({ now: () => new Date(Date.now() + ms) }) as Clock;

function sender(clock: Clock) {
  return createDispatcher({
    db: t.database.db,
    clock,
    sealer: t.services.sealer,
    jobs: t.services.jobs,
    messages: t.services.messages,
    settings: t.config.webhooks,
    production: false,
    log: { warn: () => {} },
  });
}

async function endpointFor(who: Teammate, url: string) {
  const made = await who.api.post<WebhookSecret>('/developer/webhooks', { url, events: ['card.status_changed'] });
  expect(made.code, made.message).toBe(0);
  const [row] = await queryRows<{ merchant_id: string }>(t.database.db, sql`select merchant_id from accounts where id = ${who.accountId}`);
  return { id: made.data.id, merchantId: String(row?.merchant_id) };
}

/** Each round, one event for each card, written in one transaction; due an hour from now. */
async function writeRounds(who: Teammate, merchantId: string, cards: string[], rounds: number) {
  for (let n = 0; n < rounds; n += 1) {
    await t.database.db.transaction(async (tx) => {
      for (const card of cards) {
        await writeEvent(tx, { merchantId, accountId: who.accountId, type: 'card.status_changed', orderKey: card, data: { card_id: card, n }, at: new Date(Date.now() + HOUR) });
      }
    });
  }
}

describe('two senders', () => {
  it('claim due deliveries at the same moment without sharing any: each is held by one', async () => {
    const who = await teamOwner(t);
    const { merchantId } = await endpointFor(who, 'http://127.0.0.1:9/never');
    const cards = Array.from({ length: 40 }, () => randomUUID());
    // two events a card: only each card's first is due
    await writeRounds(who, merchantId, cards, 2);
    const at = new Date(Date.now() + 2 * HOUR);
    const lease = new Date(at.getTime() + 60_000);
    const [one, other] = await Promise.all([claimDue(t.database.db, at, lease, 25), claimDue(t.database.db, at, lease, 25)]);
    const ids = [...(one ?? []), ...(other ?? [])].map((claimed) => claimed.id);
    expect(ids).toHaveLength(40);
    expect(new Set(ids).size).toBe(40);
    expect(new Set([...(one ?? []), ...(other ?? [])].map((claimed) => claimed.eventData.card_id)).size).toBe(40);
    expect([...(one ?? []), ...(other ?? [])].every((claimed) => claimed.eventData.n === 0)).toBe(true);
    // held: neither finds any more until the leases run out or the first events are recorded
    expect(await claimDue(t.database.db, at, lease, 100)).toEqual([]);
    // past the lease, a sender that died is taken to have lost them: they are due again, the same deliveries
    const again = await claimDue(t.database.db, new Date(lease.getTime() + 1), new Date(lease.getTime() + 60_000), 100);
    expect(new Set(again.map((claimed) => claimed.id))).toEqual(new Set(ids));
  });

  it('deliver every event once between them, each card’s in order, several to one endpoint at a time', async () => {
    const who = await teamOwner(t);
    const hook = await webhookReceiver();
    let active = 0;
    let most = 0;
    hook.answerWith(() => {
      active += 1;
      most = Math.max(most, active);
      setTimeout(() => {
        active -= 1;
      }, 15).unref();
      return { status: 204, waitMs: 15 };
    });
    const { id: endpointId, merchantId } = await endpointFor(who, hook.url);
    // the same time on both, as servers whose clocks agree: a lease is judged by the clock of the sender that looks at it
    const senders = [sender(aheadBy(HOUR)), sender(aheadBy(HOUR))];
    const stops = await Promise.all(senders.map((one) => one.follow(t.database)));
    try {
      const cards = Array.from({ length: 20 }, () => randomUUID());
      await writeRounds(who, merchantId, cards, 8);
      await Promise.all(senders.map((one) => one.dispatch()));
      await until('every delivery recorded', async () => {
        const [row] = await queryRows<{ n: number }>(
          t.database.db,
          sql`select count(*)::int as n from webhook_deliveries where endpoint_id = ${endpointId} and status = 'DELIVERED'`,
        );
        return row?.n === 160;
      });
      const ids = hook.received.map((one) => String(one.headers['webhook-id']));
      expect(ids).toHaveLength(160);
      expect(new Set(ids).size).toBe(160);
      const order = new Map<string, number[]>();
      for (const body of hook.bodies()) order.set(String(body.data.card_id), [...(order.get(String(body.data.card_id)) ?? []), Number(body.data.n)]);
      for (const card of cards) expect(order.get(card)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
      expect(most).toBeGreaterThan(1);
      // one logged try a delivery, each made by one of the two senders
      const tries = await queryRows<{ delivery_id: string; at: Date }>(
        t.database.db,
        sql`select a.delivery_id, a.at from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id where d.endpoint_id = ${endpointId}`,
      );
      expect(tries).toHaveLength(160);
      expect(new Set(tries.map((row) => row.delivery_id)).size).toBe(160);
      // none by the app's own sender, whose clock finds them not yet due
      expect(tries.every((row) => new Date(row.at).getTime() > Date.now() + 0.5 * HOUR)).toBe(true);
    } finally {
      for (const one of senders) one.stop();
      for (const stop of stops) await stop();
      await hook.close();
    }
  });
});
