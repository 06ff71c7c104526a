import { CardErrorCode } from '@portal/contract/card-errors';
import { errorCatalogue } from '@portal/contract/error-catalogue';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.ts';
import { signIssuerPayload } from '../../src/lib/issuer-signature.ts';
import type { IssuerEvent } from '../../src/modules/issuer/service.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

const clock = new ManualClock(new Date('2026-11-24T08:00:00Z'));
let t: TestApp;
/** the events a module took, in order */
const handled: IssuerEvent[] = [];
let failNext = false;
beforeAll(async () => {
  t = await createTestApp({ clock });
  t.services.issuer.on('card.test', async (tx, event) => {
    // the handler runs inside the transaction that records the id: a failure records nothing
    await tx.execute(sql`select 1`);
    if (failNext) {
      failNext = false;
      throw new Error('the handler failed');
    }
    handled.push(event);
  });
});
afterAll(() => t?.close());

const URL = '/api/v1/issuer/webhook';
let serial = 0;
const eventId = () => `evt_${Date.now().toString(36)}_${++serial}`;

function send(body: string, signature: string | null, host = 'issuer.example') {
  return t.app.inject({
    method: 'POST',
    url: URL,
    headers: { host, 'content-type': 'application/json', ...(signature === null ? {} : { 'issuer-signature': signature }) },
    payload: body,
  });
}
const signed = (body: string, at = clock.now()) => send(body, signIssuerPayload(t.services.issuerSecret(), body, at));
const recorded = async (id: string) =>
  ((await t.database.db.execute(sql`select id, type, outcome from issuer_events where id = ${id}`)) as unknown as { rows: unknown[] }).rows;

describe('POST /api/v1/issuer/webhook', () => {
  it('processes a signed event once, on any host, and answers a repeat again without processing it', async () => {
    const id = eventId();
    const body = JSON.stringify({ id, type: 'card.test', data: { card_id: 'c1' } });
    const first = await signed(body);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ code: 0, message: 'success', data: { id, duplicate: false, outcome: 'processed' } });
    expect(handled.filter((event) => event.id === id)).toEqual([{ id, type: 'card.test', data: { card_id: 'c1' } }]);
    const again = await signed(body);
    expect(again.json()).toMatchObject({ code: 0, data: { id, duplicate: true } });
    expect(handled.filter((event) => event.id === id)).toHaveLength(1);
    expect(await recorded(id)).toEqual([{ id, type: 'card.test', outcome: 'processed' }]);
  });

  it('records an event of a type no module takes as ignored, so its repeats are not sent back in vain', async () => {
    const id = eventId();
    const answer = await signed(JSON.stringify({ id, type: 'card.unknown', data: {} }));
    expect(answer.json()).toMatchObject({ data: { id, duplicate: false, outcome: 'ignored' } });
    expect(await recorded(id)).toEqual([{ id, type: 'card.unknown', outcome: 'ignored' }]);
  });

  it('refuses a missing, malformed, wrong, stale or replayed-with-other-bytes signature with 401, processing nothing', async () => {
    const id = eventId();
    const body = JSON.stringify({ id, type: 'card.test', data: {} });
    const secret = t.services.issuerSecret();
    const refusals = [
      await send(body, null),
      await send(body, 'v1=abc'),
      await send(body, signIssuerPayload(`${secret}x`, body, clock.now())),
      await send(body, signIssuerPayload(secret, body, new Date(clock.now().getTime() - 301_000))),
      await send(body, signIssuerPayload(secret, body, new Date(clock.now().getTime() + 301_000))),
      // a signature over the same event written with other spacing is not a signature of these bytes
      await send(body, signIssuerPayload(secret, JSON.stringify({ id, type: 'card.test', data: {} }, null, 1), clock.now())),
    ];
    for (const answer of refusals) {
      expect(answer.statusCode).toBe(401);
      expect(answer.json()).toEqual({ code: CardErrorCode.ISSUER_SIGNATURE_INVALID, message: errorCatalogue[CardErrorCode.ISSUER_SIGNATURE_INVALID]?.message, data: null });
    }
    expect(await recorded(id)).toEqual([]);
    expect(handled.some((event) => event.id === id)).toBe(false);
  });

  it('checks the exact bytes sent, whatever their spacing, and takes any of several signatures (a secret in rotation)', async () => {
    const id = eventId();
    const body = `{ "id": "${id}",\n  "type": "card.test", "data": { "n": 1 } }`;
    const good = signIssuerPayload(t.services.issuerSecret(), body, clock.now());
    const bad = signIssuerPayload('another-secret-of-thirty-two-characters', body, clock.now());
    const answer = await send(body, `${bad},${good.split(',')[1]}`);
    expect(answer.json()).toMatchObject({ data: { id, duplicate: false, outcome: 'processed' } });
  });

  it('refuses a signed body that is not an event, and records nothing', async () => {
    for (const body of [JSON.stringify({ type: 'card.test' }), JSON.stringify({ id: '', type: 'x' }), JSON.stringify([1])]) {
      const answer = await signed(body);
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toMatchObject({ code: CardErrorCode.ISSUER_EVENT_INVALID });
    }
  });

  it('records nothing when the handling fails, so the issuer’s retry processes the event', async () => {
    const id = eventId();
    const body = JSON.stringify({ id, type: 'card.test', data: {} });
    failNext = true;
    const failed = await signed(body);
    expect(failed.statusCode).toBe(500);
    expect(await recorded(id)).toEqual([]);
    const retried = await signed(body);
    expect(retried.json()).toMatchObject({ data: { id, duplicate: false, outcome: 'processed' } });
    expect(handled.filter((event) => event.id === id)).toHaveLength(1);
  });
});
