import { createHash } from 'node:crypto';
import { ErrorCode } from '@portal/contract/errors';
import { errorCatalogue } from '@portal/contract/error-catalogue';
import type { FastifyPluginAsync } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';

/** A webhook as an issuer's will be: it answers the digest of the exact bytes it was sent. */
const echoWebhook: FastifyPluginAsync = async (app) => {
  app.post('/webhooks/echo', async (request) => ({
    sha256: request.rawBody ? createHash('sha256').update(request.rawBody).digest('hex') : null,
    parsed: request.body,
    merchant: (request as { merchant?: unknown }).merchant ?? null,
  }));
};

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ webhooks: [echoWebhook] });
});
afterAll(() => t?.close());

const post = (host: string, payload: string, contentType = 'application/json') =>
  t.app.inject({ method: 'POST', url: '/webhooks/echo', headers: { host, 'content-type': contentType }, payload });

describe('routes that belong to no merchant', () => {
  it('answer on any host, outside the merchant-by-host hook', async () => {
    const unknownHost = await post('issuer.example', '{"id":"evt_1"}');
    expect(unknownHost.statusCode).toBe(200);
    expect(unknownHost.json()).toMatchObject({ parsed: { id: 'evt_1' }, merchant: null });
    // the same host under /api/v1 is refused: that context needs a merchant
    const api = await t.app.inject({ method: 'GET', url: '/api/v1/merchant', headers: { host: 'issuer.example' } });
    expect(api.json()).toMatchObject({ code: ErrorCode.MERCHANT_UNKNOWN });
    const health = await t.app.inject({ method: 'GET', url: '/healthz', headers: { host: 'issuer.example' } });
    expect(health.statusCode).toBe(200);
  });

  it('keep the exact bytes of a JSON body for a signature check, spaces and key order included', async () => {
    const body = '{ "b": 1,\n  "a": "签名"  }';
    const answer = (await post('issuer.example', body)).json() as { sha256: string; parsed: unknown };
    expect(answer.sha256).toBe(createHash('sha256').update(Buffer.from(body, 'utf8')).digest('hex'));
    expect(answer.parsed).toEqual({ b: 1, a: '签名' });
  });

  it('answer a body that is not JSON with the catalogue refusal, not a 500', async () => {
    const answer = await post('issuer.example', '{"id": ');
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({ code: ErrorCode.VALIDATION, message: errorCatalogue[ErrorCode.VALIDATION]?.message, data: null });
  });

  it("leave the merchant calls' JSON parsing as it was (the raw-body parser stays in its own context)", async () => {
    const answer = await t.api('localhost').post('/account/login', { phone_info: { phone: '13800138000', phone_prefix: '86' }, password: 'Demo1234' });
    expect(answer.code).toBe(0);
    expect(answer.data).toMatchObject({ check: true });
  });
});

describe('error answers', () => {
  it('come from the catalogue: an unknown call, an unknown page asset, a body too large', async () => {
    const unknownCall = await t.api('localhost').get('/no/such/call');
    expect(unknownCall.status).toBe(errorCatalogue[ErrorCode.NOT_FOUND]?.status);
    expect(unknownCall.message).toBe(errorCatalogue[ErrorCode.NOT_FOUND]?.message);
    const asset = await t.app.inject({ method: 'GET', url: '/assets/missing.js', headers: { host: 'localhost' } });
    expect(asset.json()).toEqual({ code: ErrorCode.NOT_FOUND, message: errorCatalogue[ErrorCode.NOT_FOUND]?.message, data: null });
    const large = await t.app.inject({
      method: 'POST',
      url: '/api/v1/account/login',
      headers: { host: 'localhost', 'content-type': 'application/json' },
      payload: JSON.stringify({ password: 'x'.repeat(1024 * 1024 + 1) }),
    });
    expect(large.statusCode).toBe(errorCatalogue[ErrorCode.PAYLOAD_TOO_LARGE]?.status);
    expect(large.json()).toEqual({ code: ErrorCode.PAYLOAD_TOO_LARGE, message: errorCatalogue[ErrorCode.PAYLOAD_TOO_LARGE]?.message, data: null });
  });
});
