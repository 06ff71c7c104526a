import { ErrorCode } from '@portal/contract/errors';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.ts';
import { signIn, signUp } from '../helpers/accounts.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';

// Two apps on one PostgreSQL database, as two server processes behind a load balancer: whatever ends
// or changes a session or an account on one is what the other answers on its very next call.
let database: TestDatabase;
let a: TestApp;
let b: TestApp;
const clock = new ManualClock();

beforeAll(async () => {
  database = await createTestDatabase();
  a = await createTestApp({ database, clock });
  b = await createTestApp({ database, clock });
});
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
  await database?.close();
});

const info = (t: TestApp, token: string) => t.api('localhost', token).get<{ trx_password_set: boolean }>('/account/info');

async function lastSeen(token: string) {
  const sessions = await a.api('localhost', token).data<{ current: boolean; last_active_at: string }[]>('GET', '/account/sessions');
  return sessions.find((session) => session.current)?.last_active_at;
}

describe('a session ended on one process', () => {
  it('by logout is refused on the other at its next call', async () => {
    const who = await signUp(a);
    expect((await info(b, who.token)).code).toBe(0);
    expect((await a.api('localhost', who.token).delete('/account/login')).code).toBe(0);
    expect((await info(b, who.token)).code).toBe(ErrorCode.SESSION_REVOKED);
  });

  it('by its owner from another session is refused on the other', async () => {
    const who = await signUp(a);
    const other = await signIn(b, 'localhost', { phone: who.phone });
    expect((await info(b, other.token)).code).toBe(0);
    const sessions = await a.api('localhost', who.token).data<{ id: string; current: boolean }[]>('GET', '/account/sessions');
    const otherId = sessions.find((session) => !session.current)?.id;
    expect((await a.api('localhost', who.token).delete(`/account/sessions/${otherId}`)).code).toBe(0);
    expect((await info(b, other.token)).code).toBe(ErrorCode.SESSION_REVOKED);
  });

  it('by a password change is refused on the other, and the changing session goes on on both', async () => {
    const who = await signUp(a);
    const other = await signIn(b, 'localhost', { phone: who.phone });
    const changed = await a.api('localhost', who.token).put('/account/password', { old_password: who.password, password: 'Newpassw0rd' });
    expect(changed.code, changed.message).toBe(0);
    expect((await info(b, other.token)).code).toBe(ErrorCode.SESSION_REVOKED);
    expect((await info(b, who.token)).code).toBe(0);
  });
});

describe('an account changed on one process', () => {
  it('disabled, is refused on both at their next call', async () => {
    const who = await signUp(a);
    expect((await info(a, who.token)).code).toBe(0);
    expect((await info(b, who.token)).code).toBe(0);
    await database.db.execute(sql`update accounts set status = 'DISABLED' where id = (select account_id from members where phone = ${who.phone})`);
    expect((await info(a, who.token)).code).toBe(ErrorCode.ACCOUNT_DISABLED);
    expect((await info(b, who.token)).code).toBe(ErrorCode.ACCOUNT_DISABLED);
  });

  it('with a trade password set, says so on the other at its next call', async () => {
    const who = await signUp(a);
    expect((await info(b, who.token)).data.trx_password_set).toBe(false);
    const set = await a.api('localhost', who.token).put('/account/trx-password', { trx_password: '123456', password: who.password });
    expect(set.code, set.message).toBe(0);
    expect((await info(b, who.token)).data.trx_password_set).toBe(true);
  });
});

describe('a session in use on both processes', () => {
  it('is marked seen at most once a minute, by whichever process serves it, and expires idle on both', async () => {
    const who = await signUp(a);
    const seen = await lastSeen(who.token);
    clock.advance(30_000);
    expect((await info(b, who.token)).code).toBe(0);
    expect(await lastSeen(who.token)).toBe(seen);
    clock.advance(31_000);
    expect((await info(b, who.token)).code).toBe(0);
    expect(await lastSeen(who.token)).toBe(clock.now().toISOString());
    clock.advance(7 * 24 * 3600_000 + 1_000);
    expect((await info(a, who.token)).code).toBe(ErrorCode.SESSION_EXPIRED);
    expect((await info(b, who.token)).code).toBe(ErrorCode.SESSION_EXPIRED);
  });
});
