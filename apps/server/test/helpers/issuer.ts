import { randomInt, randomUUID } from 'node:crypto';
import { signIssuerPayload } from '../../src/lib/issuer-signature.ts';
import { luhnNumberIn } from '../../src/lib/luhn.ts';
import { type CardIssuer, type CardStatusAnswer, type IssueRequest, IssuerUnavailable } from '../../src/providers/issuer/port.ts';
import { afterAll, beforeAll } from 'vitest';
import type { Clock } from '../../src/lib/clock.ts';
import { createTestApp, type TestApp } from './app.ts';

/** A Luhn-valid 16-digit number starting with `bin`. */
export const numberIn = (bin: string) => luhnNumberIn(bin);

/**
 * The card issuer as a test plays it: it records what the portal asks and answers only when the test
 * says so, with events signed as a real issuer signs them and posted to the portal's webhook, so a test
 * can answer late, twice, out of order, or not at all. `down` makes it refuse every request, `refusing`
 * every request about the cards whose ids it holds. Its status
 * query answers what the test put in `statuses` for the card, else PENDING.
 */
export function scriptedIssuer() {
  const requests: Array<{ kind: 'open' | 'freeze' | 'unfreeze' | 'close'; cardId: string; request?: IssueRequest }> = [];
  const statuses = new Map<string, CardStatusAnswer | Omit<Extract<CardStatusAnswer, { status: 'ISSUED' }>, 'card_id'> | { status: 'PENDING' | 'UNKNOWN' } | { status: 'FAILED'; reason: string }>();
  const asked: string[] = [];
  let app: TestApp | undefined;
  const state = { down: false, refusing: new Set<string>() };
  const take = (kind: 'open' | 'freeze' | 'unfreeze' | 'close', cardId: string, request?: IssueRequest) => {
    if (state.down) throw new IssuerUnavailable('the test issuer is down');
    if (state.refusing.has(cardId)) throw new IssuerUnavailable(`the test issuer refuses card ${cardId}`);
    requests.push({ kind, cardId, ...(request ? { request } : {}) });
  };
  const port: CardIssuer = {
    openCard: async (request) => take('open', request.card_id, request),
    freeze: async (cardId) => take('freeze', cardId),
    unfreeze: async (cardId) => take('unfreeze', cardId),
    close: async (cardId) => take('close', cardId),
    getCard: async (cardId) => {
      if (state.down) throw new IssuerUnavailable('the test issuer is down');
      asked.push(cardId);
      return { ...(statuses.get(cardId) ?? { status: 'PENDING' }), card_id: cardId } as CardStatusAnswer;
    },
  };

  /** Posts a signed event to the portal's webhook; answers the HTTP status and the parsed body. */
  async function send(type: string, data: Record<string, unknown>, options: { id?: string; secret?: string } = {}) {
    if (!app) throw new Error('attach the test app first');
    const body = JSON.stringify({ id: options.id ?? `evt_${randomUUID()}`, type, data });
    const response = await app.app.inject({
      method: 'POST',
      url: '/api/v1/issuer/webhook',
      headers: {
        host: 'issuer.example',
        'content-type': 'application/json',
        'issuer-signature': signIssuerPayload(options.secret ?? app.services.issuerSecret(), body, app.clock.now()),
      },
      payload: body,
    });
    return { status: response.statusCode, body: response.json() as { code: number; data: unknown }, raw: body };
  }

  const requestOf = (cardId: string) => requests.find((r) => r.kind === 'open' && r.cardId === cardId)?.request;

  return {
    port,
    requests,
    state,
    /** what the status query answers of a card (else PENDING), and the cards it was asked about */
    statuses,
    asked,
    attach(testApp: TestApp) {
      app = testApp;
    },
    send,
    /** card.issued with fresh numbers in the product's BIN; answers the numbers sent */
    async issue(cardId: string, options: { id?: string } = {}) {
      const bin = requestOf(cardId)?.product.bin ?? '42424242';
      const numbers = { pan: numberIn(bin), cvv: String(randomInt(100, 1000)), exp_month: '07', exp_year: '2029' };
      const answer = await send('card.issued', { card_id: cardId, ...numbers }, options);
      return { ...answer, numbers };
    },
    fail: (cardId: string, reason: string, options: { id?: string } = {}) => send('card.failed', { card_id: cardId, reason }, options),
    frozen: (cardId: string, data: Record<string, unknown> = {}) => send('card.frozen', { card_id: cardId, ...data }),
    unfrozen: (cardId: string, data: Record<string, unknown> = {}) => send('card.unfrozen', { card_id: cardId, ...data }),
    closed: (cardId: string) => send('card.closed', { card_id: cardId }),
  };
}
export type ScriptedIssuer = ReturnType<typeof scriptedIssuer>;

/**
 * A test file's app whose cards go through a scripted issuer, at the file's clock: the app is made before
 * the file's first test with the issuer attached, and closed after its last. `t` stands for the app from
 * the file's hooks and tests on (reading it earlier throws), so a file writes `const { t, issuer } = …`
 * in place of its own beforeAll and afterAll.
 */
export function scriptedIssuerApp(clock: Clock) {
  const issuer = scriptedIssuer();
  let made: TestApp | undefined;
  beforeAll(async () => {
    made = await createTestApp({ clock, issuer: issuer.port });
    issuer.attach(made);
  });
  afterAll(() => made?.close());
  const app = () => {
    if (!made) throw new Error('the test app is made in beforeAll: read it inside a hook or a test');
    return made;
  };
  const t = new Proxy({} as TestApp, {
    get: (_, key) => Reflect.get(app(), key),
    has: (_, key) => key in app(),
    ownKeys: () => Reflect.ownKeys(app()),
    getOwnPropertyDescriptor: (_, key) => {
      const found = Reflect.getOwnPropertyDescriptor(app(), key);
      return found && { ...found, configurable: true };
    },
  });
  return { t, issuer };
}
