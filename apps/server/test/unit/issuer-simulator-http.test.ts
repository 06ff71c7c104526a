import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signIssuerPayload, verifyIssuerSignature } from '../../src/lib/issuer-signature.ts';
import { isLuhnValid } from '../../src/lib/luhn.ts';
import { createHttpIssuer } from '../../src/providers/issuer/http.ts';
import { type IssueRequest, IssuerUnavailable } from '../../src/providers/issuer/port.ts';
import type { SimulatedEvent } from '../../src/providers/issuer/simulator.ts';
import { type RunningIssuerSimulator, startIssuerSimulator } from '../../src/providers/issuer/simulator-server.ts';

const SECRET = 'test-only-issuer-webhook-secret-of-32-chars';

const request = (card_id: string): IssueRequest => ({
  card_id,
  product: { bin: '55555555', brand: 'MASTERCARD', currency: 'USD' },
  holder: { real_name: '李四', latin_name: null },
});

/** The portal's side, as small as it gets: checks each webhook's signature, answers as told, records. */
interface Received {
  event: SimulatedEvent;
  signed: boolean;
  status: number;
}
const received: Received[] = [];
/** statuses to answer next, in turn; 200 (or 401 for a bad signature) once they run out */
const answers: number[] = [];
let portal: Server;
let webhookUrl: string;

beforeAll(async () => {
  portal = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const header = req.headers['issuer-signature'];
      const signed = verifyIssuerSignature({ secret: SECRET, body, header: typeof header === 'string' ? header : undefined, now: new Date() });
      const status = signed ? (answers.shift() ?? 200) : 401;
      received.push({ event: JSON.parse(body.toString('utf8')) as SimulatedEvent, signed, status });
      res.writeHead(status, { 'content-type': 'application/json' }).end('{}');
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
});

async function simulator(options: { webhookUrl?: string | null; secret?: string } = {}) {
  const started = await startIssuerSimulator({
    port: 0,
    ...(options.webhookUrl === null ? {} : { webhookUrl: options.webhookUrl ?? webhookUrl }),
    secret: options.secret ?? SECRET,
    delayMs: 0,
    failRate: 0,
    retryDelaysMs: [0, 0],
  });
  running.push(started);
  return started;
}

/** A signed (or not) POST straight to the simulator, for what the adapter never sends. */
async function post(url: string, body: string, signature: string | null = signIssuerPayload(SECRET, body, new Date()), method = 'POST') {
  const response = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', ...(signature === null ? {} : { 'issuer-signature': signature }) },
    ...(method === 'GET' ? {} : { body }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('the simulated issuer over HTTP, through the HTTP adapter', () => {
  it('listens on a free port on 127.0.0.1 when asked for port 0', async () => {
    const { url } = await simulator();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(Number(new URL(url).port)).toBeGreaterThan(0);
  });

  it('opens a card: accepted at once, then a signed card.issued reaches the webhook', async () => {
    const sim = await simulator();
    const issuer = createHttpIssuer({ url: sim.url, secret: SECRET });
    await issuer.openCard(request('card_1'));
    await sim.simulator.settled();
    expect(received).toHaveLength(1);
    const [{ event, signed, status }] = received as [Received];
    expect(signed).toBe(true);
    expect(status).toBe(200);
    expect(event).toMatchObject({ type: 'card.issued', data: { card_id: 'card_1', pan: expect.stringMatching(/^55555555\d{8}$/) } });
    expect(isLuhnValid(event.data.pan as string)).toBe(true);
  });

  it("answers the status query: UNKNOWN before the card is asked for, then ISSUED with card.issued's numbers and the card's lifecycle, FAILED with the reason", async () => {
    const sim = await simulator();
    const issuer = createHttpIssuer({ url: sim.url, secret: SECRET });
    expect(await issuer.getCard('card_s')).toEqual({ status: 'UNKNOWN', card_id: 'card_s' });
    await issuer.openCard(request('card_s'));
    await sim.simulator.settled();
    const issued = received.find((r) => r.event.data.card_id === 'card_s')?.event.data;
    expect(await issuer.getCard('card_s')).toEqual({ status: 'ISSUED', ...issued, state: 'ACTIVE' });
    await issuer.freeze('card_s');
    expect(await issuer.getCard('card_s')).toMatchObject({ status: 'ISSUED', state: 'FROZEN' });
    await issuer.close('card_s');
    expect(await issuer.getCard('card_s')).toMatchObject({ status: 'ISSUED', state: 'CLOSED' });
    await issuer.failNext('BIN 额度已满');
    await issuer.openCard(request('card_f'));
    expect(await issuer.getCard('card_f')).toEqual({ status: 'FAILED', card_id: 'card_f', reason: 'BIN 额度已满' });
  });

  it('answers PENDING while the issuer is still at work on a card', async () => {
    const started = await startIssuerSimulator({ port: 0, webhookUrl, secret: SECRET, delayMs: 60_000, failRate: 0, retryDelaysMs: [] });
    running.push(started);
    const issuer = createHttpIssuer({ url: started.url, secret: SECRET });
    await issuer.openCard(request('card_p'));
    expect(await issuer.getCard('card_p')).toEqual({ status: 'PENDING', card_id: 'card_p' });
  });

  it('refuses a status query whose body names another card, and the adapter refuses an answer that is not a status', async () => {
    const sim = await simulator();
    const body = JSON.stringify({ card_id: 'card_other' });
    expect((await post(`${sim.url}/v1/cards/card_x/status`, body)).status).toBe(400);
    const liar = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'ISSUED', card_id: 'card_y' })));
    await new Promise<void>((resolve) => liar.listen(0, '127.0.0.1', resolve));
    try {
      const issuer = createHttpIssuer({ url: `http://127.0.0.1:${(liar.address() as AddressInfo).port}`, secret: SECRET });
      await expect(issuer.getCard('card_x')).rejects.toBeInstanceOf(IssuerUnavailable);
    } finally {
      await new Promise<void>((resolve) => liar.close(() => resolve()));
    }
  });

  it('freezes, unfreezes and closes a card, each answered by its event', async () => {
    const sim = await simulator();
    const issuer = createHttpIssuer({ url: () => `${sim.url}/`, secret: () => SECRET });
    await issuer.freeze('card/2 二');
    await issuer.unfreeze('card/2 二');
    await issuer.close('card/2 二');
    await sim.simulator.settled();
    expect(received.map(({ event, signed }) => [event.type, event.data.card_id, signed])).toEqual([
      ['card.frozen', 'card/2 二', true],
      ['card.unfrozen', 'card/2 二', true],
      ['card.closed', 'card/2 二', true],
    ]);
  });

  it('fails the next issuance when asked through fail-next, once', async () => {
    const sim = await simulator();
    const issuer = createHttpIssuer({ url: sim.url, secret: SECRET });
    expect(await issuer.failNext('模拟：发卡行拒绝')).toEqual({ pending_failures: 1 });
    await issuer.openCard(request('card_1'));
    await issuer.openCard(request('card_2'));
    await sim.simulator.settled();
    expect(received.map(({ event }) => [event.type, event.data.card_id, event.data.reason])).toEqual([
      ['card.failed', 'card_1', '模拟：发卡行拒绝'],
      ['card.issued', 'card_2', undefined],
    ]);
  });

  it('delivers again after the portal answered 500', async () => {
    const sim = await simulator();
    answers.push(500);
    await createHttpIssuer({ url: sim.url, secret: SECRET }).close('card_1');
    await sim.simulator.settled();
    expect(received.map(({ event, status }) => [event.type, status])).toEqual([
      ['card.closed', 500],
      ['card.closed', 200],
    ]);
    expect(received[0]?.event.id).toBe(received[1]?.event.id);
  });

  it('sends events to a webhook address given after the start', async () => {
    const sim = await simulator({ webhookUrl: null });
    sim.setWebhookUrl(webhookUrl);
    await createHttpIssuer({ url: sim.url, secret: SECRET }).freeze('card_1');
    await sim.simulator.settled();
    expect(received.map(({ event }) => event.type)).toEqual(['card.frozen']);
  });

  it('answers a request signed with another secret 401, which the adapter throws as IssuerUnavailable, and does nothing', async () => {
    const sim = await simulator();
    const impostor = createHttpIssuer({ url: sim.url, secret: 'another-secret-of-thirty-two-characters' });
    const refusal = await impostor.openCard(request('card_1')).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(IssuerUnavailable);
    expect((refusal as Error).message).toMatch(/answered 401/);
    await expect(impostor.failNext('不该生效')).rejects.toThrow(IssuerUnavailable);
    await sim.simulator.settled();
    expect(received).toEqual([]);
  });

  it('refuses an unsigned, stale or malformed request, an unknown call, another method, and a body that names another card', async () => {
    const sim = await simulator();
    const body = JSON.stringify({ card_id: 'card_1', action: 'freeze' });
    const freeze = `${sim.url}/v1/cards/card_1/freeze`;
    expect((await post(freeze, body, null)).status).toBe(401);
    expect((await post(freeze, body, signIssuerPayload(SECRET, body, new Date(Date.now() - 600_000)))).status).toBe(401);
    expect((await post(freeze, body, signIssuerPayload(SECRET, `${body} `, new Date()))).status).toBe(401);
    expect((await post(`${sim.url}/v1/cards/card_1/explode`, body)).status).toBe(404);
    expect((await post(`${sim.url}/v2/cards`, body)).status).toBe(404);
    expect((await post(freeze, '', null, 'GET')).status).toBe(405);
    // a signature covers the body only: the body must name the card and the action of the path
    expect((await post(`${sim.url}/v1/cards/card_2/freeze`, body)).status).toBe(400);
    expect((await post(`${sim.url}/v1/cards/card_1/close`, body)).status).toBe(400);
    expect((await post(freeze, 'not json')).status).toBe(400);
    const badBin = JSON.stringify({ ...request('card_1'), product: { bin: '4242', brand: 'VISA', currency: 'USD' } });
    expect((await post(`${sim.url}/v1/cards`, badBin)).status).toBe(400);
    expect((await post(`${sim.url}/v1/simulator/fail-next`, JSON.stringify({ reason: '  ' }))).status).toBe(400);
    expect((await post(freeze, body)).status).toBe(202);
    await sim.simulator.settled();
    expect(received.map(({ event }) => [event.type, event.data.card_id])).toEqual([['card.frozen', 'card_1']]);
  });

  it('throws IssuerUnavailable when nothing listens at the address', async () => {
    const sim = await simulator();
    const { url } = sim;
    await sim.close();
    running.length = 0;
    const refusal = await createHttpIssuer({ url, secret: SECRET })
      .freeze('card_1')
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(IssuerUnavailable);
    expect((refusal as Error).message).toMatch(/did not accept the request: ECONNREFUSED/);
  });

  it('throws IssuerUnavailable when the issuer does not answer in time', async () => {
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
      const refusal = await createHttpIssuer({ url, secret: SECRET, timeoutMs: 50 })
        .openCard(request('card_1'))
        .catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(IssuerUnavailable);
      expect((refusal as Error).message).toMatch(/no answer within 50 ms/);
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('says so when its port is taken', async () => {
    const sim = await simulator();
    const port = Number(new URL(sim.url).port);
    await expect(startIssuerSimulator({ port, secret: SECRET, delayMs: 0, failRate: 0 })).rejects.toThrow(
      `the issuer simulator cannot listen on 127.0.0.1:${port}: the port is in use`,
    );
  });
});
