import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { verifyIssuerSignature } from '../../src/lib/issuer-signature.ts';
import { createHttpIssuer } from '../../src/providers/issuer/http.ts';
import { IssuerUnavailable } from '../../src/providers/issuer/port.ts';
import type { SimulatedEvent } from '../../src/providers/issuer/simulator.ts';
import { type RunningIssuerSimulator, startIssuerSimulator } from '../../src/providers/issuer/simulator-server.ts';

const SECRET = 'test-only-issuer-webhook-secret-of-32-chars';

/**
 * The portal's webhook, as small as it gets: checks each signature (401 when it fails), answers an
 * authorisation request with the decision `decide` gives (in the envelope, as the portal answers), and
 * records every signed event in the order it came.
 */
const received: SimulatedEvent[] = [];
let decide: (event: SimulatedEvent) => Promise<object | number> = async () => ({ code: 0, message: 'success', data: { approved: true } });
/** statuses to answer the next events other than authorisation requests with, in turn */
const answers: number[] = [];
let portal: Server;
let webhookUrl: string;

beforeAll(async () => {
  portal = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const body = Buffer.concat(chunks);
      const header = req.headers['issuer-signature'];
      if (!verifyIssuerSignature({ secret: SECRET, body, header: typeof header === 'string' ? header : undefined, now: new Date() })) {
        res.writeHead(401).end('{}');
        return;
      }
      const event = JSON.parse(body.toString('utf8')) as SimulatedEvent;
      received.push(event);
      const answer = event.type === 'authorization.request' ? await decide(event) : (answers.shift() ?? 200);
      if (res.destroyed) return;
      if (typeof answer === 'number') res.writeHead(answer, { 'content-type': 'application/json' }).end('{}');
      else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => portal.listen(0, '127.0.0.1', resolve));
  webhookUrl = `http://127.0.0.1:${(portal.address() as AddressInfo).port}/api/v1/issuer/webhook`;
});
afterAll(() => new Promise<void>((resolve) => portal.close(() => resolve())));

const running: RunningIssuerSimulator[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((simulator) => simulator.close()));
  received.length = 0;
  answers.length = 0;
  decide = async () => ({ code: 0, message: 'success', data: { approved: true } });
});

async function simulator(options: { authorizationTimeoutMs?: number } = {}) {
  const started = await startIssuerSimulator({ port: 0, webhookUrl, secret: SECRET, delayMs: 0, failRate: 0, retryDelaysMs: [0, 0], ...options });
  running.push(started);
  return { sim: started, issuer: createHttpIssuer({ url: started.url, secret: SECRET }) };
}

const purchase = { card_id: 'card_1', amount: '12.3', currency: 'USD', merchant_name: 'Meta Ads', mcc: '7311', country: 'US' };
const types = () => received.map((event) => event.type);

describe('the simulated issuer: purchases', () => {
  it('asks the portal with a signed authorization.request, reads the approval from the answer, and settles for the authorised amount', async () => {
    const { sim, issuer } = await simulator();
    const answer = await issuer.purchase({ ...purchase, follow_up: { action: 'settle' } });
    await sim.simulator.settled();
    expect(answer).toMatchObject({ card_id: 'card_1', amount: '12.30', currency: 'USD', approved: true, decline_code: null, decided_by: 'portal', reason: null, three_ds: null });
    expect(types()).toEqual(['authorization.request', 'transaction.settled']);
    const [request, settled] = received as [SimulatedEvent, SimulatedEvent];
    expect(request).toMatchObject({ id: answer.authorization_id, type: 'authorization.request', data: { id: answer.authorization_id, ...purchase, amount: '12.30' } });
    expect(Date.parse(request.created_at)).not.toBeNaN();
    expect(settled.data).toEqual({ id: settled.id, authorization_id: answer.authorization_id, card_id: 'card_1', amount: '12.30' });
    expect(answer.followed).toEqual([{ id: settled.id, type: 'transaction.settled', amount: '12.30', delivery: 'delivered' }]);
    expect(settled.id).not.toBe(request.id);
  });

  it('answers a decline with its code and sends nothing after it; takes the decision as a bare body too', async () => {
    const { sim, issuer } = await simulator();
    decide = async () => ({ approved: false, decline_code: 'INSUFFICIENT_FUNDS' });
    const answer = await issuer.purchase({ ...purchase, follow_up: { action: 'settle', amount: '12.50' } });
    await sim.simulator.settled();
    expect(answer).toMatchObject({ approved: false, decline_code: 'INSUFFICIENT_FUNDS', decided_by: 'portal', followed: [] });
    expect(types()).toEqual(['authorization.request']);
    await expect(issuer.followUp(answer.authorization_id, { action: 'settle' })).rejects.toThrow(/was declined/);
  });

  it('settles for another amount, reverses, or settles and refunds, as asked', async () => {
    const { sim, issuer } = await simulator();
    const more = await issuer.purchase({ ...purchase, amount: '10.00', follow_up: { action: 'settle', amount: '11.5' } });
    const reversed = await issuer.purchase({ ...purchase, follow_up: { action: 'reverse' } });
    const refunded = await issuer.purchase({ ...purchase, amount: '20.00', follow_up: { action: 'refund', amount: '5.00' } });
    await sim.simulator.settled();
    expect(more.followed.map((sent) => [sent.type, sent.amount])).toEqual([['transaction.settled', '11.50']]);
    expect(reversed.followed.map((sent) => sent.type)).toEqual(['authorization.reversed']);
    expect(refunded.followed.map((sent) => [sent.type, sent.amount])).toEqual([
      ['transaction.settled', '20.00'],
      ['transaction.refund', '5.00'],
    ]);
    const refund = received.find((event) => event.type === 'transaction.refund');
    expect(refund?.data).toEqual({ id: refund?.id, card_id: 'card_1', amount: '5.00', merchant_name: 'Meta Ads', original_id: refunded.authorization_id });
    const reversal = received.find((event) => event.type === 'authorization.reversed');
    expect(reversal?.data).toMatchObject({ authorization_id: reversed.authorization_id });
  });

  it('acts on an earlier authorisation once: settle, then refunds up to what was settled; a reversed one is refused', async () => {
    const { sim, issuer } = await simulator();
    const first = await issuer.purchase(purchase);
    expect(first.followed).toEqual([]);
    await expect(issuer.followUp(first.authorization_id, { action: 'refund', amount: '1.00' })).rejects.toThrow(/not settled yet/);
    const settled = await issuer.followUp(first.authorization_id, { action: 'settle', amount: '12.00' });
    expect(settled).toMatchObject({ authorization_id: first.authorization_id, card_id: 'card_1', followed: [{ type: 'transaction.settled', amount: '12.00', delivery: 'delivered' }] });
    await expect(issuer.followUp(first.authorization_id, { action: 'settle' })).rejects.toThrow(/settled already/);
    await expect(issuer.followUp(first.authorization_id, { action: 'reverse' })).rejects.toThrow(/refund it instead/);
    expect((await issuer.followUp(first.authorization_id, { action: 'refund', amount: '7.00' })).followed[0]).toMatchObject({ type: 'transaction.refund', amount: '7.00' });
    await expect(issuer.followUp(first.authorization_id, { action: 'refund', amount: '5.01' })).rejects.toThrow(/more than what is left to refund \(5\.00\)/);
    const second = await issuer.purchase(purchase);
    await issuer.followUp(second.authorization_id, { action: 'reverse' });
    await expect(issuer.followUp(second.authorization_id, { action: 'settle' })).rejects.toThrow(/reversed already/);
    await expect(issuer.followUp('no-such-authorisation', { action: 'reverse' })).rejects.toThrow(/no authorisation no-such-authorisation is known/);
    await sim.simulator.settled();
    expect(types()).toEqual(['authorization.request', 'transaction.settled', 'transaction.refund', 'authorization.request', 'authorization.reversed']);
  });

  it('sends a 3-D Secure code first: six digits, expiring in five minutes, before the authorisation request', async () => {
    const { sim, issuer } = await simulator();
    const before = Date.now();
    const answer = await issuer.purchase({ ...purchase, three_ds: true });
    await sim.simulator.settled();
    expect(types()).toEqual(['3ds.otp', 'authorization.request']);
    const otp = received[0] as SimulatedEvent;
    expect(otp.data).toEqual({ id: otp.id, card_id: 'card_1', code: answer.three_ds?.code, merchant_name: 'Meta Ads', amount: '12.30', currency: 'USD', expires_at: answer.three_ds?.expires_at });
    expect(answer.three_ds?.code).toMatch(/^\d{6}$/);
    expect(answer.three_ds?.delivery).toBe('delivered');
    const expiresIn = Date.parse(answer.three_ds?.expires_at ?? '') - before;
    expect(expiresIn).toBeGreaterThan(4.9 * 60_000);
    expect(expiresIn).toBeLessThan(5.1 * 60_000);
  });

  it('declines by itself when the portal answers late (and reverses in case it held), errs, or answers without a decision', async () => {
    const { sim, issuer } = await simulator({ authorizationTimeoutMs: 200 });
    decide = () => new Promise((resolve) => setTimeout(() => resolve({ approved: true }), 600));
    const late = await issuer.purchase({ ...purchase, follow_up: { action: 'settle' } });
    expect(late).toMatchObject({ approved: false, decline_code: 'ISSUER_DECLINED', decided_by: 'issuer' });
    expect(late.reason).toContain('200 ms');
    expect(late.latency_ms).toBeLessThan(500);
    expect(late.followed.map((sent) => sent.type)).toEqual(['authorization.reversed']);

    decide = async () => 500;
    expect(await issuer.purchase(purchase)).toMatchObject({ approved: false, decline_code: 'ISSUER_DECLINED', decided_by: 'issuer', reason: expect.stringContaining('HTTP 500'), followed: [] });
    decide = async () => ({ code: 0, message: 'success', data: { id: 'x', duplicate: false, outcome: 'ignored' } });
    expect(await issuer.purchase(purchase)).toMatchObject({ approved: false, decided_by: 'issuer', reason: expect.stringContaining('outcome: ignored'), followed: [] });
    await sim.simulator.settled();
  });

  it('retries what follows the decision as other deliveries are retried, and says how it stands', async () => {
    const { sim, issuer } = await simulator();
    answers.push(503, 503, 503);
    const answer = await issuer.purchase({ ...purchase, follow_up: { action: 'settle' } });
    await sim.simulator.settled();
    expect(answer.followed[0]?.delivery).toBe('given_up');
    answers.push(503);
    const retried = await issuer.purchase({ ...purchase, follow_up: { action: 'reverse' } });
    expect(retried.followed[0]?.delivery).toBe('delivered');
    expect(types().filter((type) => type === 'authorization.reversed')).toHaveLength(2);
  });

  it('refuses a bad purchase before sending anything, and a wrong signature', async () => {
    const { sim, issuer } = await simulator();
    for (const bad of [{ amount: '0' }, { amount: '1.001' }, { mcc: '73' }, { country: 'usa' }, { currency: 'usd' }, { merchant_name: ' ' }]) {
      await expect(issuer.purchase({ ...purchase, ...bad }), JSON.stringify(bad)).rejects.toThrow(IssuerUnavailable);
    }
    await expect(issuer.purchase({ ...purchase, amount: '5.00', follow_up: { action: 'refund', amount: '6.00' } })).rejects.toThrow(/more than the purchase/);
    await expect(createHttpIssuer({ url: sim.url, secret: `${SECRET}-other` }).purchase(purchase)).rejects.toThrow(/answered 401/);
    await sim.simulator.settled();
    expect(received).toEqual([]);
  });
});
