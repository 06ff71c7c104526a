import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CardItem, OpenedAvailableAnswer } from '@portal/contract/cards';
import { errorCatalogue } from '@portal/contract/error-catalogue';
import { ErrorCode } from '@portal/contract/errors';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIssuerPayload } from '../../src/lib/issuer-signature.ts';
import { PASSWORD, signIn, signUp } from '../helpers/accounts.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { scriptedIssuer } from '../helpers/issuer.ts';
import { expectSoundBooks } from '../helpers/ledger.ts';
import { findMerchantByHost } from '../../src/modules/merchants/store.ts';

/**
 * Properties of the whole API, over every route: whatever a caller sends — a body, query or path drawn
 * from the operation's own schema in the API map or from outside it, with or without a session — the
 * answer is never a 5xx, its status is one the map documents for that operation, and a refusal is a
 * catalogue code of that status. A path asked with a method it does not answer is a 405 whose Allow
 * lists the methods the map has for it. Routes the map does not show are handled here by name: the
 * issuer's and the crypto gateway's webhooks (bodies signed with their secret, and not), the health probe, the map's own pages.
 */

/** runs per operation (bounded, so each engine's run stays well under a minute); PROPERTY_RUNS raises it for a longer hunt */
const RUNS = Number(process.env.PROPERTY_RUNS ?? 10);
/**
 * The same calls on every run, so a red run is a defect anyone can replay rather than a roll of the dice;
 * PROPERTY_SEED (with PROPERTY_RUNS) hunts elsewhere, and a failure prints the seed and path to replay it.
 */
fc.configureGlobal({ seed: Number(process.env.PROPERTY_SEED ?? 20_261_128) });

const issuer = scriptedIssuer();
let t: TestApp;
let doc: OpenApi;
/** the full session random calls carry (the first account's) */
let session: string;
/**
 * Calls that can end sessions (sign out, end the others, change the password or a bound address) run
 * last, each as an account of its own signed up just before, so they end no session another call needs.
 */
const ENDS_SESSIONS = /^(delete \/api\/v1\/account\/(login|sessions)|put \/api\/v1\/account\/password|post \/api\/v1\/account\/(email|phone)\/change)/;
/** values that exist, so random calls also reach past the "not found" refusals */
const known: Record<string, string[]> = {};

interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  nullable?: boolean;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  format?: string;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
}
interface Operation {
  parameters?: Array<{ name: string; in: 'query' | 'path' | 'header'; required?: boolean; schema: JsonSchema }>;
  requestBody?: { content: { 'application/json': { schema: JsonSchema } } };
  responses: Record<string, unknown>;
  security?: unknown[];
}
interface OpenApi {
  paths: Record<string, Record<string, Operation>>;
}

const HOST = 'localhost';

beforeAll(async () => {
  t = await createTestApp({ issuer: issuer.port });
  issuer.attach(t);
  doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json', headers: { host: HOST } })).json() as OpenApi;

  // one account with a wallet, a verified identity and an issued card: money can move, records exist
  const who = await signUp(t, HOST);
  const first = await signIn(t, HOST, { phone: who.phone });
  const api = t.api(HOST, first.token);
  const { id } = await api.data<{ id: string }>('GET', '/account/info');
  const merchant = await findMerchantByHost(t.database.db, HOST);
  await t.services.ledger.recharge({ merchantId: merchant?.id as string, accountId: id, currency: 'USD', amount: 1_000_000n, key: `properties-${id}` });
  await api.data('PUT', '/card/verification', { body: { real_name: '张三', id_number: '11010519491231002X' } });
  const { products } = await api.data<OpenedAvailableAnswer>('GET', '/card/opened-available');
  const opened = await api.data<CardItem>('POST', '/card', {
    body: { product_id: products.find((product) => product.name === '订阅支付卡')?.id, amount: '50.00', nickname: '随机' },
    headers: { 'idempotency-key': `properties-open-${id}` },
  });
  await issuer.issue(opened.id);
  known.id = [opened.id];
  known.ids = [opened.id];
  known.product_id = products.map((product) => product.id);
  // the password, so a change of password can succeed; not the phone or e-mail: random sign-ins with them would lock the account
  known.password = [PASSWORD];
  session = first.token;
}, 120_000);
afterAll(() => t?.close());

// ─── values from a schema, and from outside it ───

/** texts a field rarely expects: control characters, half a surrogate pair, quotes, huge numbers, paths */
const oddText = fc.constantFrom('', ' ', '\u0000', '\u001b[0m', 'k\ud800', '\udc00', '😀', '"\'\\', '../../etc/passwd', '9'.repeat(40), '-1', '1e309', 'NaN', '0.001', '<script>', '中文');

function fromSchema(schema: JsonSchema, name = ''): fc.Arbitrary<unknown> {
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return fc.oneof(...variants.map((variant) => fromSchema(variant, name)));
  if (schema.allOf?.[0]) return fromSchema(Object.assign({}, ...schema.allOf), name);
  const own = ownValue(schema, name);
  const types = Array.isArray(schema.type) ? schema.type : [];
  return schema.nullable || types.includes('null') ? fc.oneof(own, fc.constant(null)) : own;
}

function ownValue(schema: JsonSchema, name: string): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const type = Array.isArray(schema.type) ? schema.type.find((each) => each !== 'null') : schema.type;
  const hints = known[name];
  switch (type) {
    case 'object': {
      const properties = schema.properties ?? {};
      const model = Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, fromSchema(value, key)]));
      return fc.record(model, { requiredKeys: (schema.required ?? []).filter((key) => key in properties) });
    }
    case 'array':
      return fc.array(fromSchema(schema.items ?? {}, name), { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 5, 5) });
    case 'integer':
    case 'number': {
      const min = schema.minimum ?? -1_000_000;
      const max = schema.maximum ?? 1_000_000;
      return type === 'integer' ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) }) : fc.double({ min, max, noNaN: true });
    }
    case 'boolean':
      return fc.boolean();
    case 'string': {
      const texts: fc.Arbitrary<string>[] = [fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 40, 200) })];
      if (schema.pattern) texts.push(matching(schema.pattern));
      if (schema.format === 'uuid') texts.push(fc.uuid());
      if (schema.format === 'email') texts.push(fc.emailAddress());
      if (schema.format === 'date-time') texts.push(fc.date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true }).map((d) => d.toISOString()));
      if (name.endsWith('amount') || name.endsWith('limit')) texts.push(fc.constantFrom('0.01', '1.00', '12.5', '100'));
      if (hints) texts.push(fc.constantFrom(...hints));
      return fc.oneof(...texts);
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** texts a pattern accepts, or any text where fast-check cannot read the pattern */
function matching(pattern: string): fc.Arbitrary<string> {
  try {
    return fc.stringMatching(new RegExp(pattern));
  } catch {
    return fc.string();
  }
}

/** a value for a field, mostly by its schema, sometimes anything at all */
const fieldValue = (schema: JsonSchema, name: string) =>
  fc.oneof({ arbitrary: fromSchema(schema, name), weight: 4 }, { arbitrary: fc.oneof(oddText, fc.jsonValue({ maxDepth: 3 })), weight: 1 });

/** a body: by the schema, by the schema with one field spoilt or one unknown field added, or any JSON at all */
function bodyOf(schema: JsonSchema): fc.Arbitrary<unknown> {
  const valid = fromSchema(schema);
  const spoilt = fc.tuple(valid, fc.string({ maxLength: 12 }), fc.oneof(oddText, fc.jsonValue({ maxDepth: 3 }))).map(([value, key, odd]) => {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return odd;
    const keys = Object.keys(value);
    const target = keys.length > 0 && key.length % 2 === 0 ? (keys[key.length % keys.length] as string) : key;
    return { ...value, [target]: odd };
  });
  return fc.oneof({ arbitrary: valid, weight: 3 }, { arbitrary: spoilt, weight: 2 }, { arbitrary: fc.jsonValue({ maxDepth: 4 }), weight: 1 });
}

/** a text as a path segment; one no URL can carry (half a surrogate pair) as the bytes a careless client sends for it */
function pathSegment(value: string) {
  if (value.startsWith('%')) return value;
  try {
    // "." and ".." (escaped or not: %2E is a dot to URL resolution) name the path above, not a value: three dots stand in for them
    return encodeURIComponent(value).replace(/^\.{1,2}$/, '...');
  } catch {
    return '%ED%A0%80';
  }
}

const pathValue = (name: string) => fc.oneof(fc.uuid(), fc.string({ maxLength: 120 }), oddText, fc.constantFrom(...(known[name] ?? known.id ?? ['x'])), fc.constantFrom('%', '%zz', '%00', '%E4%B8'));

interface Call {
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

function callOf(path: string, operation: Operation, session: string | null): fc.Arbitrary<Call> {
  const parameters = operation.parameters ?? [];
  const pathParameters = parameters.filter((p) => p.in === 'path');
  const queryParameters = parameters.filter((p) => p.in === 'query');
  const url = fc
    .tuple(...pathParameters.map((p) => pathValue(p.name).map((value) => [p.name, value] as const)))
    .map((values) => values.reduce((built, [name, value]) => built.replace(`{${name}}`, pathSegment(value)), path));
  const query = fc
    .tuple(
      fc.record(Object.fromEntries(queryParameters.map((p) => [p.name, fieldValue(p.schema, p.name)])), { requiredKeys: [] }),
      fc.option(fc.tuple(fc.string({ minLength: 1, maxLength: 10 }), fc.string({ maxLength: 10 })), { freq: 4 }),
    )
    .map(([declared, unknown]) => {
      const search = new URLSearchParams();
      for (const [name, value] of Object.entries(declared)) search.append(name, typeof value === 'string' ? value : JSON.stringify(value));
      if (unknown) search.append(...unknown);
      const text = search.toString();
      return text ? `?${text}` : '';
    });
  const bodySchema = operation.requestBody?.content['application/json']?.schema;
  const payload = bodySchema ? fc.option(bodyOf(bodySchema).map((value) => JSON.stringify(value) ?? 'null'), { freq: 8 }) : fc.constant(null);
  // a session of its own mostly; sometimes none, or one that was never issued
  const token = session ? fc.oneof({ arbitrary: fc.constant(session), weight: 8 }, { arbitrary: fc.constantFrom(null, 'not-a-session'), weight: 2 }) : fc.constant(null);
  // a money-moving call carries a fresh key mostly; sometimes none, or a key of another call
  const takesKey = parameters.some((p) => p.in === 'header' && p.name === 'idempotency-key');
  const key = takesKey ? fc.oneof({ arbitrary: fc.uuid().map((id) => `prop-${id}`), weight: 8 }, { arbitrary: fc.constantFrom(null, 'prop-reused-key', 'short'), weight: 2 }) : fc.constant(null);
  return fc.tuple(url, query, payload, token, key).map(([pathPart, queryPart, body, bearer, idempotencyKey]) => {
    const headers: Record<string, string> = { host: HOST };
    if (bearer) headers.authorization = `Bearer ${bearer}`;
    if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
    if (body !== null) headers['content-type'] = 'application/json';
    return { url: `${pathPart}${queryPart}`, headers, ...(body !== null ? { payload: body } : {}) };
  });
}

// ─── what every answer must be ───

interface Answer {
  status: number;
  body: string;
  contentType: string;
}

/** The problem with an answer, or null: a 5xx, a status the map does not document, a refusal that is not the catalogue's. */
function problemOf(answer: Answer, documented: Set<string>): string | null {
  if (answer.status >= 500) return `answered ${answer.status}: ${answer.body.slice(0, 200)}`;
  if (!documented.has(String(answer.status))) return `answered ${answer.status}, which the map does not document (${[...documented].join(', ')}): ${answer.body.slice(0, 200)}`;
  if (answer.status === 200) return null;
  let code: unknown;
  try {
    code = (JSON.parse(answer.body) as { code?: unknown }).code;
  } catch {
    return `answered ${answer.status} with a body that is not JSON`;
  }
  if (errorCatalogue[code as number]?.status !== answer.status) return `answered ${answer.status} with code ${String(code)}, which the catalogue gives another status`;
  return null;
}

/** The event stream never ends by itself: asked over a socket, it is judged by its status line and closed. */
async function streamAnswer(baseUrl: string, call: Call): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(new URL(call.url, baseUrl), { method: 'GET', headers: call.headers }, (response) => {
      const status = response.statusCode ?? 0;
      const contentType = String(response.headers['content-type'] ?? '');
      if (contentType.startsWith('text/event-stream')) {
        request.destroy();
        resolve({ status, body: '', contentType });
        return;
      }
      let body = '';
      response.on('data', (chunk: Buffer) => {
        body += chunk.toString('utf8');
      });
      response.on('end', () => resolve({ status, body, contentType }));
    });
    request.on('error', reject);
    request.end();
  });
}

const operationsOf = () =>
  Object.entries(doc.paths)
    .flatMap(([path, operations]) => Object.entries(operations).map(([method, operation]) => ({ path, method, operation })))
    .sort((a, b) => Number(ENDS_SESSIONS.test(`${a.method} ${a.path}`)) - Number(ENDS_SESSIONS.test(`${b.method} ${b.path}`)));

describe('every route of the API, with random calls', () => {
  it('the map shows every route the app has, but those handled here by name', () => {
    const mapped = new Set(operationsOf().map(({ path, method }) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`));
    // the issuer's and the crypto gateway's webhooks and the health probe (their own tests below and in platform-routes), the map's pages, the web app's files
    const byName = [/^POST \/api\/v1\/(issuer|crypto)\/webhook$/, /^(GET|HEAD) \/healthz$/, /^(GET|HEAD) \/api\/docs/, /^(GET|HEAD) \/(?!api\/)/];
    const unmapped = t.routes
      .list()
      // a GET's HEAD twin answers as the GET does
      .filter(({ method, url }) => !(method === 'HEAD' && mapped.has(`GET ${url}`)))
      .map(({ method, url }) => `${method} ${url}`)
      .filter((route) => !mapped.has(route) && !byName.some((pattern) => pattern.test(route)));
    expect(unmapped).toEqual([]);
    expect(mapped.size).toBeGreaterThan(50);
  });

  it('never answer 5xx, and answer only the statuses the map documents for the operation, as catalogue refusals', async () => {
    const server = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const baseUrl = server.startsWith('http') ? server : `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const problems: string[] = [];
    for (const { path, method, operation } of operationsOf()) {
      const documented = new Set(Object.keys(operation.responses));
      const own = !operation.security ? null : ENDS_SESSIONS.test(`${method} ${path}`) ? (await signUp(t, HOST)).token : session;
      await fc.assert(
        fc.asyncProperty(callOf(path, operation, own), async (call) => {
          const where = `${method.toUpperCase()} ${call.url} ${call.payload ?? ''}`;
          const answer =
            path === '/api/v1/events'
              ? await streamAnswer(baseUrl, call)
              : await t.app
                  .inject({ method: method.toUpperCase() as 'GET', url: call.url, headers: call.headers, ...(call.payload !== undefined ? { payload: call.payload } : {}) })
                  .then((response) => ({ status: response.statusCode, body: response.body, contentType: String(response.headers['content-type'] ?? '') }));
          const problem = problemOf(answer, documented);
          if (problem) problems.push(`${where}: ${problem}`);
          return problem === null;
        }),
        // the first failing call of each operation is kept in problems: all operations are tried, then all failures shown
        { numRuns: RUNS, endOnFailure: true },
      ).catch((error: unknown) => {
        if (!problems.some((problem) => problem.startsWith(`${method.toUpperCase()} `))) problems.push(`${method.toUpperCase()} ${path}: ${String(error).slice(0, 500)}`);
      });
    }
    expect(problems).toEqual([]);
    // whatever moved on the way moved by the double-entry rules
    await expectSoundBooks(t.database.db);
  }, 120_000);

  it('answer a method a path does not have with 405 and the methods the map has for it in Allow', async () => {
    const paths = Object.entries(doc.paths);
    const pathNames = paths.map(([path]) => path);
    const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...pathNames), fc.constantFrom(...methods), async (path, method) => {
        const url = path.replace(/\{\w+\}/g, 'x1');
        // what the router answers on this path: its own methods, and those of a pattern it also fits (/card/{id} fits /card/summary)
        const has = paths
          .filter(([pattern]) => new RegExp(`^${pattern.replace(/\{\w+\}/g, '[^/]+')}$`).test(url))
          .flatMap(([, each]) => Object.keys(each).map((name) => name.toUpperCase()));
        fc.pre(!has.includes(method));
        const answer = await t.app.inject({ method: method as 'GET', url, headers: { host: HOST } });
        const allowed = new Set([...has, ...(has.includes('GET') ? ['HEAD'] : [])]);
        expect(answer.statusCode, `${method} ${url}`).toBe(405);
        expect(new Set(String(answer.headers.allow).split(', ')), `${method} ${url}`).toEqual(allowed);
        expect(answer.json()).toMatchObject({ code: ErrorCode.METHOD_NOT_ALLOWED });
      }),
      { numRuns: 60 },
    );
  });

  it("the issuer's webhook: any body, signed with the issuer's secret or not, is never a 5xx", async () => {
    const secret = t.services.issuerSecret();
    const event = fc.record({
      id: fc.oneof(fc.string({ maxLength: 40 }), fc.uuid().map((id) => `evt_${id}`)),
      type: fc.oneof(fc.constantFrom('card.issued', 'card.failed', 'card.frozen', 'card.unfrozen', 'card.closed', 'authorization.request', 'authorization.reversed', 'transaction.settled'), fc.string()),
      data: fc.oneof(
        fc.record(
          {
            card_id: fc.oneof(fc.constantFrom(...(known.id ?? ['x']), 'nope'), oddText),
            amount: fc.oneof(fc.constantFrom('1.00', '0.01', '-5', 'abc'), fc.string(), oddText),
            currency: fc.constantFrom('USD', 'EUR', ''),
            authorization_id: fc.oneof(fc.string(), oddText),
            merchant_name: oddText,
          },
          { requiredKeys: [] },
        ),
        fc.jsonValue({ maxDepth: 3 }),
      ),
    });
    await fc.assert(
      fc.asyncProperty(fc.oneof(event, fc.jsonValue({ maxDepth: 4 })), fc.constantFrom('signed', 'unsigned', 'garbled'), async (body, signing) => {
        const payload = JSON.stringify(body) ?? 'null';
        const headers: Record<string, string> = { host: 'issuer.example', 'content-type': 'application/json' };
        if (signing === 'signed') headers['issuer-signature'] = signIssuerPayload(secret, payload, t.clock.now());
        if (signing === 'garbled') headers['issuer-signature'] = 't=1,v1=00';
        const answer = await t.app.inject({ method: 'POST', url: '/api/v1/issuer/webhook', headers, payload });
        expect(answer.statusCode, `${signing} ${payload}`).toBeLessThan(500);
        if (answer.statusCode !== 200) expect(errorCatalogue[answer.json().code as number]?.status, payload).toBe(answer.statusCode);
      }),
      { numRuns: RUNS * 6 },
    );
  });
});

describe("the crypto gateway's webhook", () => {
  it('any body, signed with the gateway secret or not, is never a 5xx', async () => {
    const secret = t.services.cryptoSecret();
    const event = fc.record({
      id: fc.oneof(fc.string({ maxLength: 40 }), fc.uuid().map((id) => `evt_${id}`)),
      type: fc.oneof(fc.constant('deposit.confirmations'), fc.string()),
      data: fc.oneof(
        fc.record(
          {
            deposit_id: fc.oneof(fc.uuid(), oddText),
            address: fc.oneof(fc.constant('T'.padEnd(34, 'x')), oddText),
            amount: fc.oneof(fc.constantFrom('1.00', '0.01', '-5', 'abc', '1e9'), fc.string(), oddText),
            confirmations: fc.oneof(fc.integer({ min: -5, max: 50 }), fc.string()),
            tx_id: fc.oneof(fc.stringMatching(/^[0-9a-f]{64}$/), oddText),
            network: fc.constantFrom('TRC20', 'ERC20', ''),
          },
          { requiredKeys: [] },
        ),
        fc.jsonValue({ maxDepth: 3 }),
      ),
    });
    await fc.assert(
      fc.asyncProperty(fc.oneof(event, fc.jsonValue({ maxDepth: 4 })), fc.constantFrom('signed', 'unsigned', 'garbled'), async (body, signing) => {
        const payload = JSON.stringify(body) ?? 'null';
        const headers: Record<string, string> = { host: 'gateway.example', 'content-type': 'application/json' };
        if (signing === 'signed') headers['gateway-signature'] = signIssuerPayload(secret, payload, t.clock.now());
        if (signing === 'garbled') headers['gateway-signature'] = 't=1,v1=00';
        const answer = await t.app.inject({ method: 'POST', url: '/api/v1/crypto/webhook', headers, payload });
        expect(answer.statusCode, `${signing} ${payload}`).toBeLessThan(500);
        if (answer.statusCode !== 200) expect(errorCatalogue[answer.json().code as number]?.status, payload).toBe(answer.statusCode);
      }),
      { numRuns: RUNS * 3 },
    );
  });
});

describe('the API map', () => {
  it('documents each refusal a call can answer, from what the call is', () => {
    const operation = (method: string, path: string) => Object.keys(doc.paths[path]?.[method]?.responses ?? {});
    // any call: its input (400) and a host that is no merchant's (404); a body's size (413)
    expect(operation('post', '/api/v1/account/login')).toEqual(expect.arrayContaining(['200', '400', '404', '413', '429']));
    expect(operation('post', '/api/v1/account/login')).not.toContain('401');
    // a session call: 401 and 403
    expect(operation('get', '/api/v1/account/info')).toEqual(expect.arrayContaining(['200', '400', '401', '403', '404']));
    expect(operation('get', '/api/v1/account/info')).not.toContain('413');
    // money that moves: the key reused for another request (409), the issuer away (503)
    expect(operation('post', '/api/v1/card/{id}/recharge')).toEqual(expect.arrayContaining(['200', '400', '401', '403', '404', '409', '413', '503']));
    const refusal = doc.paths['/api/v1/card/{id}/recharge']?.post?.responses['409'] as { description: string; content: { 'application/json': { schema: JsonSchema } } };
    expect(refusal.description).toContain(`${ErrorCode.IDEMPOTENCY_CONFLICT} ${errorCatalogue[ErrorCode.IDEMPOTENCY_CONFLICT]?.message}`);
    expect(refusal.content['application/json'].schema.properties?.code?.enum).toContain(ErrorCode.IDEMPOTENCY_CONFLICT);
  });
});
