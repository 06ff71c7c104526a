/**
 * /api/docs's Open API section: the calls open to API keys under one tag that says how to
 * authenticate, the scopes, the Idempotency-Key rule and the rate limit; each of them with an example
 * made with a key, whose body and query pass the call's own schemas.
 */
import { API_BASE, type Call } from '@portal/contract/api/call';
import { API_KEY_RATE_PER_SECOND, API_KEY_SCOPES } from '@portal/contract/developer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleKey, KEY_CALL_EXAMPLES, keyCalls, OPEN_API_TAG } from '../../src/http/open-api-section.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

interface Operation {
  tags?: string[];
  description?: string;
  security?: Array<Record<string, string[]>>;
  responses: Record<string, unknown>;
}
interface Document {
  tags?: Array<{ name: string; description?: string }>;
  paths: Record<string, Record<string, Operation>>;
}

let t: TestApp;
let document: Document;
beforeAll(async () => {
  t = await createTestApp({ seed: false });
  document = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as Document;
});
afterAll(() => t?.close());

const operationOf = (call: Call) => document.paths[`${API_BASE}${call.path.replace(/:([A-Za-z_]\w*)/g, '{$1}')}`]?.[call.method.toLowerCase()];

describe('the Open API section of /api/docs', () => {
  it('says how to authenticate, the scopes, the Idempotency-Key rule and the rate limit, and lists every call open to keys', () => {
    const tag = document.tags?.find((entry) => entry.name === OPEN_API_TAG);
    const text = tag?.description ?? '';
    expect(text).toContain('Authorization: Bearer sk_…');
    for (const scope of API_KEY_SCOPES) expect(text).toContain(`\`${scope}\``);
    expect(text).toContain('Idempotency-Key');
    expect(text).toContain('1006');
    expect(text).toContain(`每秒最多 ${API_KEY_RATE_PER_SECOND} 次`);
    expect(text).toContain('HTTP 429');
    expect(text).toContain('Retry-After');
    expect(text).toContain('1211');
    for (const call of keyCalls()) expect(text, call.path).toContain(`${call.method} ${API_BASE}${call.path.replace(/:([A-Za-z_]\w*)/g, '{$1}')}`);
  });

  it('shows each call open to keys under it, with its scope and an example made with a key; no other call', () => {
    const calls = keyCalls();
    expect(calls.length).toBeGreaterThan(15);
    for (const call of calls) {
      const operation = operationOf(call);
      expect(operation, `${call.method} ${call.path}`).toBeDefined();
      expect(operation?.tags).toContain(OPEN_API_TAG);
      expect(operation?.description).toContain("-H 'Authorization: Bearer sk_…'");
      expect(operation?.description).toContain(`\`${(call.who as { key: string }).key}\``);
      if (call.method !== 'GET') expect(operation?.description).toContain('idempotency-key');
      // a key's refusals: its rate for every call, its Idempotency-Key's for a write
      const codes = [...JSON.stringify(operation?.responses ?? {}).matchAll(/"enum":\[([\d,]+)\]/g)].flatMap((match) => (match[1] ?? '').split(',').map(Number));
      expect(codes, `${call.method} ${call.path}`).toContain(1211);
      if (call.method !== 'GET') expect(codes).toEqual(expect.arrayContaining([1210, 1006, 1212]));
    }
    const tagged = Object.values(document.paths).flatMap((item) => Object.values(item)).filter((operation) => operation.tags?.includes(OPEN_API_TAG));
    expect(tagged).toHaveLength(calls.length);
  });

  it('gives every write with a body an example body its schema takes, and every example query passes its schema', () => {
    const calls = keyCalls();
    const byKey = new Map(calls.map((call) => [exampleKey(call), call]));
    for (const [key, example] of Object.entries(KEY_CALL_EXAMPLES)) {
      const call = byKey.get(key);
      expect(call, `${key} is no call open to keys`).toBeDefined();
      if (example.body !== undefined) expect(call?.body?.safeParse(example.body).success, `${key} body`).toBe(true);
      if (example.query !== undefined) expect(call?.query?.safeParse(example.query).success, `${key} query`).toBe(true);
    }
    for (const call of calls) {
      if (call.method === 'GET' || call.method === 'DELETE' || !call.body) continue;
      expect(KEY_CALL_EXAMPLES[exampleKey(call)]?.body, `${exampleKey(call)} has no example body`).toBeDefined();
    }
  });
});
