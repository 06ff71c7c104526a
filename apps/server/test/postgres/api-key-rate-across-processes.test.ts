/**
 * Two apps on one PostgreSQL database, each with its own connections, as two server processes behind a
 * load balancer: a key's calls are counted in the database, so the two share one limit a second.
 */
import type { ApiKeySecret } from '@portal/contract/developer';
import { API_KEY_RATE_PER_SECOND } from '@portal/contract/developer';
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
});
