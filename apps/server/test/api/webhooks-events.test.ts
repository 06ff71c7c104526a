/**
 * Where webhook events come from: the changes themselves. A card issued, an authorisation approved
 * then settled, a 3-D Secure code and the card's freeze each reach a subscribed endpoint, in the order
 * they happened, with the facts of the change; an endpoint not subscribed to three_ds.code never
 * receives the code.
 */
import { randomUUID } from 'node:crypto';
import type { WebhookSecret } from '@portal/contract/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { scriptedIssuer } from '../helpers/issuer.ts';
import { issuedCard, readyForCards, teamOwner } from '../helpers/team.ts';
import { until } from '../helpers/until.ts';
import { webhookReceiver } from '../helpers/webhook-receiver.ts';

const issuer = scriptedIssuer();
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ issuer: issuer.port });
  issuer.attach(t);
});
afterAll(() => t?.close());

describe('events from the changes that cause them', () => {
  it('tells an endpoint of a card issued, its authorisation and settlement, its 3-D Secure code and its freeze, in order', async () => {
    const who = await teamOwner(t);
    await readyForCards(t, who);
    const everything = await webhookReceiver();
    const quiet = await webhookReceiver();
    const events = ['card.created', 'transaction.created', 'transaction.updated', 'three_ds.code', 'card.status_changed'];
    const all = await who.api.post<WebhookSecret>('/developer/webhooks', { url: everything.url, events });
    expect(all.code, all.message).toBe(0);
    const noCodes = await who.api.post<WebhookSecret>('/developer/webhooks', { url: quiet.url, events: events.filter((type) => type !== 'three_ds.code') });
    expect(noCodes.code, noCodes.message).toBe(0);

    const card = await issuedCard(who, issuer);
    const authorizationId = `auth_${randomUUID()}`;
    expect((await issuer.send('authorization.request', { id: authorizationId, card_id: card.id, amount: '7.50', currency: 'USD', merchant_name: 'Meta Ads', mcc: '7311', country: 'US' })).status).toBe(200);
    expect((await issuer.send('transaction.settled', { id: `stl_${randomUUID()}`, authorization_id: authorizationId, amount: '7.50' })).status).toBe(200);
    const expiresAt = new Date(Date.now() + 5 * 60_000).toISOString();
    expect((await issuer.send('3ds.otp', { id: `otp_${randomUUID()}`, card_id: card.id, code: '493817', merchant_name: 'Meta Ads', amount: '12.34', currency: 'USD', expires_at: expiresAt })).status).toBe(200);
    const frozen = await who.api.put(`/card/${card.id}/status`, { action: 'FREEZE' });
    expect(frozen.code, frozen.message).toBe(0);

    await until('five events', async () => everything.received.length >= 5);
    const bodies = everything.bodies();
    expect(bodies.map((body) => body.type)).toEqual(['card.created', 'transaction.created', 'transaction.updated', 'three_ds.code', 'card.status_changed']);
    expect(bodies[0]?.data).toMatchObject({ card_id: card.id, status: 'NORMAL', last4: card.last4 });
    expect(bodies[1]?.data).toMatchObject({ card_id: card.id, status: 'PENDING', amount: '7.50', currency: 'USD', merchant_name: 'Meta Ads' });
    expect(bodies[2]?.data).toMatchObject({ card_id: card.id, transaction_id: bodies[1]?.data.transaction_id, status: 'CLOSED' });
    expect(bodies[3]?.data).toMatchObject({ card_id: card.id, code: '493817' });
    expect(bodies[4]?.data).toMatchObject({ card_id: card.id });
    await until('four events at the other endpoint', async () => quiet.received.length >= 4);
    expect(quiet.bodies().map((body) => body.type)).toEqual(['card.created', 'transaction.created', 'transaction.updated', 'card.status_changed']);
    expect(quiet.received.map((one) => one.body).join('')).not.toContain('493817');
    await everything.close();
    await quiet.close();
  });
});
