import { API_BASE, isSessionCaller } from '@portal/contract/api/call';
import { portalCalls } from '@portal/contract/api/calls';
import { ErrorCode } from '@portal/contract/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const calls = Object.values(portalCalls).flatMap((area) => Object.values(area));
// the issuer's and the crypto gateway's webhooks: partners' signed protocols, outside the merchant's calls
const NOT_CALLS = [`POST ${API_BASE}/issuer/webhook`, `POST ${API_BASE}/crypto/webhook`];

describe("the contract's table of calls", () => {
  it('is what the server answers under the API base: every call, and nothing else', () => {
    const registered = t.routes
      .list()
      // Fastify answers HEAD for every GET of its own accord
      .filter(({ method, url }) => url.startsWith(`${API_BASE}/`) && method !== 'HEAD')
      .map(({ method, url }) => `${method} ${url}`)
      .filter((route) => !NOT_CALLS.includes(route));
    expect(registered.sort()).toEqual(calls.map((call) => `${call.method} ${API_BASE}${call.path}`).sort());
  });

  it('refuses every session call without a session before reading its input, and lets a public one through', async () => {
    for (const call of calls.filter((each) => isSessionCaller(each.who))) {
      const path = call.path.replace(/:(\w+)/g, 'x');
      const answer = await t.app.inject({ method: call.method, url: `${API_BASE}${path}`, headers: { host: 'localhost' } });
      expect(answer.json(), `${call.method} ${call.path}`).toMatchObject({ code: ErrorCode.SESSION_MISSING });
    }
    const merchant = await t.app.inject({ method: 'GET', url: `${API_BASE}${portalCalls.merchant.merchant.path}`, headers: { host: 'localhost' } });
    expect(merchant.json()).toMatchObject({ code: 0 });
  });
});
