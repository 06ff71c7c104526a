/**
 * Two apps on one PostgreSQL database, each with its own connections, as two server processes behind a
 * load balancer: a key's calls are leased from one count in the database a few at a time, so the two
 * share one limit a second. Together they never admit more than the limit in a second; a process that
 * leased calls and stops getting the key's calls holds at most API_KEY_RATE_LEASE - 1 of them unused, which the
 * other cannot take that second (the tolerance, decision 0013).
 */
import type { ApiKeySecret } from '@portal/contract/developer';
import { API_KEY_RATE_LEASE, API_KEY_RATE_PER_SECOND } from '@portal/contract/developer';
import { ApiKeyErrorCode } from '@portal/contract/developer-errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/engine.ts';
import { ManualClock } from '../../src/lib/clock.ts';
import { PASSWORD } from '../helpers/accounts.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { teamOwner } from '../helpers/team.ts';

let database: TestDatabase;
let secondHandle: Database;
let a: TestApp;
let b: TestApp;
const clock = new ManualClock(new Date('2026-12-02T09:00:00.400Z'));

beforeAll(async () => {
  database = await createTestDatabase();
  a = await createTestApp({ database, clock });
  secondHandle = await database.connectAgain();
  b = await createTestApp({ database: secondHandle as TestDatabase, clock, seed: false });
});
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
  await secondHandle?.close();
  await database?.close();
});

describe("a key's rate limit across processes", () => {
  it(`admits ${API_KEY_RATE_PER_SECOND} calls a second of one key between both, however they are spread`, async () => {
    const who = await teamOwner(a);
    expect((await who.api.put('/account/trx-password', { trx_password: 'Trade123', password: PASSWORD })).code).toBe(0);
    const made = await who.api.post<ApiKeySecret>('/developer/api-keys', { name: '两台', scopes: ['cards:read'], trx_password: 'Trade123' });
    expect(made.code, made.message).toBe(0);
    const onA = a.api('localhost', made.data.secret);
    const onB = b.api('localhost', made.data.secret);

    // one after another, alternating: the 21st is refused by whichever process takes it
    for (let call = 1; call <= API_KEY_RATE_PER_SECOND; call++) expect((await (call % 2 ? onA : onB).get('/card/summary')).code, `call ${call}`).toBe(0);
    expect((await onA.get('/card/summary')).code).toBe(ApiKeyErrorCode.KEY_RATE_LIMITED);
    expect((await onB.get('/card/summary')).code).toBe(ApiKeyErrorCode.KEY_RATE_LIMITED);

    // the next second, 15 at once on each: 20 answered in all, 10 refused
    clock.advance(1000);
    const answers = await Promise.all(Array.from({ length: 30 }, (_, call) => (call % 2 ? onA : onB).get('/card/summary')));
    const codes = answers.map((answer) => answer.code);
    expect(codes.filter((code) => code === 0)).toHaveLength(API_KEY_RATE_PER_SECOND);
    expect(codes.filter((code) => code === ApiKeyErrorCode.KEY_RATE_LIMITED)).toHaveLength(30 - API_KEY_RATE_PER_SECOND);
    for (const refused of answers.filter((answer) => answer.code !== 0)) {
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toBe('1');
    }
  });

  it(`never admits more than ${API_KEY_RATE_PER_SECOND} a second between both, and at least ${API_KEY_RATE_PER_SECOND - (API_KEY_RATE_LEASE - 1)} however unevenly the calls are spread`, async () => {
    const who = await teamOwner(a);
    expect((await who.api.put('/account/trx-password', { trx_password: 'Trade123', password: PASSWORD })).code).toBe(0);
    const made = await who.api.post<ApiKeySecret>('/developer/api-keys', { name: '不均', scopes: ['cards:read'], trx_password: 'Trade123' });
    expect(made.code, made.message).toBe(0);
    const onA = a.api('localhost', made.data.secret);
    const onB = b.api('localhost', made.data.secret);
    const lowest = API_KEY_RATE_PER_SECOND - (API_KEY_RATE_LEASE - 1);

    // one call on a, then every call on b until b refuses: a holds what it leased and did not use
    clock.advance(1000);
    expect((await onA.get('/card/summary')).code).toBe(0);
    let admitted = 1;
    for (let call = 0; call < 2 * API_KEY_RATE_PER_SECOND; call++) {
      const answer = await onB.get('/card/summary');
      if (answer.code !== 0) {
        expect(answer.code).toBe(ApiKeyErrorCode.KEY_RATE_LIMITED);
        break;
      }
      admitted += 1;
    }
    expect(admitted).toBeGreaterThanOrEqual(lowest);
    expect(admitted).toBeLessThan(API_KEY_RATE_PER_SECOND);
    // a answers what it holds, and then refuses too: the limit in all, not one more
    for (let call = 0; call < 2 * API_KEY_RATE_PER_SECOND; call++) {
      const answer = await onA.get('/card/summary');
      if (answer.code !== 0) {
        expect(answer.code).toBe(ApiKeyErrorCode.KEY_RATE_LIMITED);
        break;
      }
      admitted += 1;
    }
    expect(admitted).toBe(API_KEY_RATE_PER_SECOND);

    // seconds of 40 calls each, in runs of uneven length on either process, some of them at once
    for (let second = 1; second <= 6; second++) {
      clock.advance(1000);
      const codes: number[] = [];
      let call = 0;
      for (let run = 0; call < 2 * API_KEY_RATE_PER_SECOND; run++) {
        const on = (run + second) % 2 ? onA : onB;
        const length = 1 + ((run * 5 + second * 3) % 7);
        const together = run % 3 === 0;
        const calls = Array.from({ length: Math.min(length, 2 * API_KEY_RATE_PER_SECOND - call) }, () => () => on.get('/card/summary'));
        call += calls.length;
        if (together) codes.push(...(await Promise.all(calls.map((one) => one()))).map((answer) => answer.code));
        else for (const one of calls) codes.push((await one()).code);
      }
      const answered = codes.filter((code) => code === 0).length;
      expect(codes.filter((code) => code !== 0 && code !== ApiKeyErrorCode.KEY_RATE_LIMITED), `second ${second}`).toEqual([]);
      expect(answered, `second ${second}`).toBeLessThanOrEqual(API_KEY_RATE_PER_SECOND);
      expect(answered, `second ${second}`).toBeGreaterThanOrEqual(lowest);
    }
  });
});
