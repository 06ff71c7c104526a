import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { callPath, isSessionCaller } from './call.ts';
import { portalCalls } from './calls.ts';
import { cardCalls } from './cards.ts';

const every = Object.entries(portalCalls).flatMap(([area, calls]) => Object.entries(calls).map(([name, call]) => ({ name: `${area}.${name}`, call })));

describe('the table of calls', () => {
  it('declares each method and path once', () => {
    const keys = every.map(({ call }) => `${call.method} ${call.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("names each path parameter in the call's params schema, and no other", () => {
    for (const { name, call } of every) {
      const inPath = [...call.path.matchAll(/:([A-Za-z_]\w*)/g)].map((match) => match[1]).sort();
      const declared = call.params ? Object.keys((call.params as z.ZodObject).shape).sort() : [];
      expect(declared, name).toEqual(inPath);
    }
  });

  it('gives every call an envelope answer or a raw one, never both', () => {
    for (const { name, call } of every) expect(Boolean(call.answer) !== Boolean(call.raw), name).toBe(true);
  });

  it('keeps every money call behind a full session with a trade-password rule, and names the calls that take an Idempotency-Key', () => {
    for (const { name, call } of every.filter(({ call }) => call.movesMoney)) {
      expect(isSessionCaller(call.who) && call.who.session, name).toEqual(['FULL']);
      expect(call.tradePassword, name).toBeDefined();
    }
    expect(every.filter(({ call }) => call.idempotencyKey).map(({ name }) => name)).toEqual([
      'cards.open',
      'cards.recharge',
      'cards.withdraw',
      'cardBatches.create',
      'cardBulk.create',
    ]);
  });

  it('fills a path with its escaped parameters below the API base', () => {
    expect(callPath(cardCalls.recharge, { id: 'a b/c' })).toBe('/api/v1/card/a%20b%2Fc/recharge');
    expect(callPath(cardCalls.list)).toBe('/api/v1/card');
    expect(() => callPath(cardCalls.detail)).toThrow(':id');
  });
});
