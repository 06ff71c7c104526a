import { randomUUID } from 'node:crypto';
import { controlsMessages } from '@portal/contract/card-spending';
import { errorCatalogue } from '@portal/contract/error-catalogue';
import { ErrorCode } from '@portal/contract/errors';
import { messages } from '@portal/contract/validation';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findMerchantByHost } from '../../src/modules/merchants/store.ts';
import { signIssuerPayload } from '../../src/lib/issuer-signature.ts';
import { queryRows } from '../helpers/sql.ts';
import { errorSerializer, safeUrl } from '../../src/http/logging.ts';
import { freshIp, signIn, signUp } from '../helpers/accounts.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { ledgerOn } from '../helpers/ledger.ts';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  const who = await signUp(t);
  token = who.token;
});
afterAll(() => t.close());

const NUL_EMAIL = 'a\u0000b@c.de';

describe('control characters in what a call carries', () => {
  it('are refused with the field named, before anything else is looked at (never a 500)', async () => {
    const calls = [
      () => t.api().post('/account/login', { email: NUL_EMAIL, password: 'Demo1234' }, { remoteAddress: freshIp() }),
      () => t.api().post('/account/forget-password/code', { email: NUL_EMAIL }, { remoteAddress: freshIp() }),
      () => t.api().post('/account/forget-password/link', { email: NUL_EMAIL, captcha: '123456', type: 'FORGET_PASSWORD' }),
      () => t.api('localhost', token).post('/account/send/code', { send_type: 'SEND_TYPE_EMAIL', mark_type: 'MARK_TYPE_BIND_EMAIL', email: NUL_EMAIL }),
      () => t.api('localhost', token).post('/account/email/bind', { email: NUL_EMAIL, captcha: '123456' }),
      () => t.api().put('/account/forget-trx-password', { email: NUL_EMAIL, trx_password: 'Trade123', captcha: '123456' }),
    ];
    for (const call of calls) {
      const answer = await call();
      expect([answer.status, answer.code, answer.message]).toEqual([400, 1001, '不能包含控制字符']);
      expect(answer.data).toEqual({ fields: [{ field: 'email', message: '不能包含控制字符' }] });
    }
    // in a query, in a nested field, and a DEL or an escape as much as a NUL
    const query = await t.api('localhost', token).get('/balance/transactions', { query: { type: 'ADMIN_RECHARGE_IN\u001b' } });
    expect([query.status, query.code, query.data]).toEqual([400, 1001, { fields: [{ field: 'type', message: '不能包含控制字符' }] }]);
    const nested = await t.api().post('/account/login', { phone_info: { phone: '1380013800\u007f', phone_prefix: '86' }, password: 'Demo1234' });
    expect(nested.data).toEqual({ fields: [{ field: 'phone_info.phone', message: '不能包含控制字符' }] });
  });

  it('lets tabs and line breaks through where text may hold them, and plain text as before', async () => {
    const who = await signUp(t);
    const answer = await signIn(t, 'localhost', { phone: who.phone });
    expect(answer.token).toBeTruthy();
  });
});

describe('dates a filter names', () => {
  it('are refused outside the years a record can have, on both engines, with a 400', async () => {
    for (const start of ['0000-01-01T00:00Z', '0001-01-01', '1999-12-31', '3000-01-01']) {
      const answer = await t.api('localhost', token).get('/balance/transactions', { query: { start_time: start } });
      expect([answer.status, answer.code], start).toEqual([400, 1001]);
      expect(answer.message).toBe('日期超出范围（2000–2999年）');
    }
    expect((await t.api('localhost', token).get('/balance/transactions', { query: { start_time: '2026-03-01' } })).code).toBe(0);
  });
});

describe('what error lines say of a customer', () => {
  it('leaves a failed query’s parameters out and masks phone numbers and e-mail addresses', () => {
    const failed = new Error('Failed query: select * from accounts where phone = $1 and email = $2\nparams: 13800138000,demo@bluewhale.example');
    failed.cause = new Error('duplicate key value violates unique constraint "x" for 13912345678 and a.b@c.example');
    const line = JSON.stringify(errorSerializer(failed));
    for (const personal of ['13800138000', 'demo@bluewhale.example', '13912345678', 'a.b@c.example']) expect(line).not.toContain(personal);
    expect(line).toContain('params: (left out)');
    expect(line).toContain('duplicate key value violates unique constraint');
  });

  it('masks who a customer is in a logged address, as it masks secrets', () => {
    expect(safeUrl('/reset-password?email=a%40b.example&code=123456&type=FORGET_PASSWORD')).toBe('/reset-password?email=***&code=***&type=FORGET_PASSWORD');
    expect(safeUrl('/api/dev/outbox?to=%2B86+13800138000')).toBe('/api/dev/outbox?to=***');
  });

  it("masks an invitation's token, in a path or in the sign-up page's address", () => {
    expect(safeUrl('/api/v1/team/invitations/by-token/abcDEF123_-x')).toBe('/api/v1/team/invitations/by-token/***');
    expect(safeUrl('/api/v1/team/invitations/by-token/abcDEF123?x=1')).toBe('/api/v1/team/invitations/by-token/***?x=1');
    expect(safeUrl('/sign-up?invitation=abcDEF123')).toBe('/sign-up?invitation=***');
  });
});

describe('a recharge past the largest balance the ledger stores', () => {
  it('is the catalogue refusal 3010, and nothing moves', async () => {
    const who = await signUp(t, 'orange.localhost');
    const { id } = await t.api('orange.localhost', who.token).data<{ id: string }>('GET', '/account/info');
    const merchant = (await findMerchantByHost(t.database.db, 'orange.localhost'))?.id as string;
    const books = ledgerOn(t.database.db, t.clock);
    await books.recharge({ merchantId: merchant, key: `limit-${id}-0`, accountId: id, currency: 'USD', amount: 100n });
    // a wallet that holds nearly the most a bigint can: the next recharge of the most one operation moves would pass it
    await t.database.db.execute(sql`update ledger_accounts set balance = 9223372036854775000 where kind = 'WALLET' and owner_id = ${id} and currency = 'USD'`);
    const before = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from ledger_postings`);
    for (const attempt of ['a', 'b']) {
      const refusal = await books
        .recharge({ merchantId: merchant, key: `limit-${id}-${attempt}`, accountId: id, currency: 'USD', amount: 10n ** 15n })
        .then(() => null, (error: unknown) => error as { code?: number });
      expect(refusal?.code).toBe(3010);
    }
    expect(await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from ledger_postings`)).toEqual(before);
  });
});

describe('bodies no schema expected', () => {
  it('a limit that is not a number is a 1001 on that field, not a 500', async () => {
    const answer = await t.api('localhost', token).put(`/card/${randomUUID()}/controls`, {
      single_limit: 'abc',
      daily_limit: '10.00',
      monthly_limit: null,
      blocked_categories: [],
      allowed_countries: [],
    });
    expect([answer.status, answer.code]).toEqual([400, 1001]);
    expect(answer.data).toMatchObject({ fields: [{ field: 'single_limit', message: controlsMessages.limit }] });
  });

  it('half of a surrogate pair is a 1001 naming the field, in a value or a key, and nothing is stored', async () => {
    const before = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from card_exports`);
    const exported = await t.api('localhost', token).post('/card/batch-export', { filters: { keyword: 'k\ud800' } });
    expect([exported.status, exported.code, exported.message]).toEqual([400, 1001, messages.invalidCharacter]);
    expect(exported.data).toEqual({ fields: [{ field: 'filters.keyword', message: messages.invalidCharacter }] });
    expect(await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from card_exports`)).toEqual(before);
    const signIn = await t.api().post('/account/login', { email: 'a\udc00@b.example', password: 'Demo1234' }, { remoteAddress: freshIp() });
    expect(signIn.data).toEqual({ fields: [{ field: 'email', message: messages.invalidCharacter }] });
    const key = await t.api().post('/account/login', { phone_info: { 'x\ud83d': '1' }, password: 'Demo1234' }, { remoteAddress: freshIp() });
    expect(key.data).toEqual({ fields: [{ field: 'phone_info.x\ud83d', message: messages.invalidCharacter }] });
    // the issuer's events too, signed as they are
    const event = JSON.stringify({ id: `evt_${randomUUID()}`, type: 'authorization.request', data: { card_id: randomUUID(), amount: '1.00', currency: 'USD', merchant_name: 'M\ud800' } });
    const signature = signIssuerPayload(t.services.issuerSecret(), event, t.clock.now());
    const webhook = await t.app.inject({ method: 'POST', url: '/api/v1/issuer/webhook', headers: { host: 'issuer.example', 'content-type': 'application/json', 'issuer-signature': signature }, payload: event });
    expect([webhook.statusCode, webhook.json()]).toEqual([400, { code: 1001, message: messages.invalidCharacter, data: { fields: [{ field: 'data.merchant_name', message: messages.invalidCharacter }] } }]);
    // a whole pair (an emoji) is a character like any other
    const emoji = await t.api('localhost', token).post('/card/batch-export', { filters: { keyword: 'k\ud83d\ude00' }, columns: ['nickname'] });
    expect(emoji.status).toBeLessThan(500);
    expect(emoji.message).not.toBe(messages.invalidCharacter);
  });

  it('JSON nested deeper than 32 levels is refused from its text, even 10,000 levels to a call without a session', async () => {
    const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
    const post = (payload: string) =>
      t.app.inject({ method: 'POST', url: '/api/v1/account/login', headers: { host: 'localhost', 'content-type': 'application/json' }, payload, remoteAddress: freshIp() });
    for (const depth of [33, 10_000]) {
      const answer = await post(`{"password": ${nested(depth - 1)}}`);
      expect([answer.statusCode, answer.json()], String(depth)).toEqual([
        400,
        { code: 1001, message: messages.tooDeep, data: { fields: [{ field: 'body', message: messages.tooDeep }] } },
      ]);
    }
    // 32 levels is a body like any other: its schema answers; brackets inside a text are not nesting
    const deepest = await post(`{"password": ${nested(31)}}`);
    expect(deepest.statusCode).toBe(400);
    expect(deepest.json().message).not.toBe(messages.tooDeep);
    const inText = await post(JSON.stringify({ email: 'demo@example.com', password: `${'['.repeat(40)}"\\` }));
    expect(inText.json().message).not.toBe(messages.tooDeep);
    // the issuer's webhook keeps its raw body, and the same limit
    const webhook = await t.app.inject({ method: 'POST', url: '/api/v1/issuer/webhook', headers: { host: 'issuer.example', 'content-type': 'application/json' }, payload: nested(10_000) });
    expect([webhook.statusCode, webhook.json().code]).toEqual([400, 1001]);
  });
});

describe('a path whose escapes decode to no text', () => {
  it('is a 1001 naming the path, in the envelope like any refusal', async () => {
    for (const url of ['/api/v1/card/%zz', '/api/v1/card/%ED%A0%80/controls', '/api/v1/merchant/user-agreement/%E4%B8']) {
      const answer = await t.app.inject({ method: 'GET', url, headers: { host: 'localhost', authorization: `Bearer ${token}` } });
      expect([answer.statusCode, answer.json()], url).toEqual([
        400,
        { code: 1001, message: messages.invalidCharacter, data: { fields: [{ field: 'path', message: messages.invalidCharacter }] } },
      ]);
    }
  });
});

describe('a path asked with a method it does not answer', () => {
  it('is a 405 with the methods it answers in Allow and the catalogue message 1009', async () => {
    const cases: Array<[method: 'GET' | 'PUT' | 'POST', url: string, host: string, allow: string]> = [
      ['GET', '/api/v1/account/login', 'localhost', 'DELETE, POST'],
      ['POST', `/api/v1/card/${randomUUID()}`, 'localhost', 'DELETE, GET, HEAD, PATCH'],
      ['PUT', '/api/v1/card?page=1', 'localhost', 'GET, HEAD, POST'],
      ['POST', '/healthz', 'any.example', 'GET, HEAD'],
    ];
    for (const [method, url, host, allow] of cases) {
      const answer = await t.app.inject({ method, url, headers: { host, authorization: `Bearer ${token}` } });
      expect([answer.statusCode, answer.headers.allow], `${method} ${url}`).toEqual([405, allow]);
      expect(answer.json()).toEqual({ code: ErrorCode.METHOD_NOT_ALLOWED, message: errorCatalogue[ErrorCode.METHOD_NOT_ALLOWED]?.message, data: null });
    }
    // a path no route has stays a 404
    const unknown = await t.app.inject({ method: 'POST', url: '/api/v1/no/such/call', headers: { host: 'localhost' } });
    expect([unknown.statusCode, unknown.headers.allow]).toEqual([404, undefined]);
  });
});

describe('query names a call does not declare', () => {
  it('are refused with a 1001 naming the name; the declared ones still work', async () => {
    const info = await t.api('localhost', token).get('/account/info', { query: { _: '1700000000' } });
    expect([info.status, info.code, info.data]).toEqual([400, 1001, { fields: [{ field: '_', message: messages.unknownParameter }] }]);
    const cards = await t.api('localhost', token).get('/card', { query: { page: 1, colour: 'red' } });
    expect(cards.data).toEqual({ fields: [{ field: 'colour', message: messages.unknownParameter }] });
    expect((await t.api('localhost', token).get('/card', { query: { page: 1, page_size: 10 } })).code).toBe(0);
    const login = await t.api().post('/account/login', { phone_info: { phone: '13800138000', phone_prefix: '86' }, password: 'Demo1234' }, { query: { next: '/x' } });
    expect(login.data).toEqual({ fields: [{ field: 'next', message: messages.unknownParameter }] });
  });
});
