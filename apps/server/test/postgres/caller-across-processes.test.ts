import { ErrorCode } from '@portal/contract/errors';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/engine.ts';
import { ManualClock } from '../../src/lib/clock.ts';
import { PRINCIPAL_CHANGED_CHANNEL } from '../../src/db/principal-cache.ts';
import { signIn, signUp } from '../helpers/accounts.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';

// Two apps on one PostgreSQL database, each with its own connections, as two server processes behind a
// load balancer: whatever ends or changes a session or an account on one is what the one that made the
// change answers on its very next call, and what the other answers once it has heard the change, which
// PostgreSQL sends it when the change commits, before the one that made it is told it committed
// (decision 0012). Both keep the callers they resolved in memory.
let database: TestDatabase;
let secondHandle: Database;
let a: TestApp;
let b: TestApp;
const clock = new ManualClock();

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

const info = (t: TestApp, token: string) => t.api('localhost', token).get<{ id: string; trx_password_set: boolean }>('/account/info');

/**
 * Resolves once b's connection has heard a change to the account committed: b's own follower hears
 * each change before this listener, on the same connection, in the order they committed.
 */
async function heardOnB(accountId: string) {
  let stop: (() => Promise<void>) | undefined;
  const heard = new Promise<void>((resolve) => {
    void secondHandle
      .listen(PRINCIPAL_CHANGED_CHANNEL, (payload) => {
        if (payload.startsWith(`${accountId}:`)) resolve();
      })
      .then((unlisten) => {
        stop = unlisten;
      });
  });
  // listening before the change is made
  while (!stop) await new Promise((resolve) => setImmediate(resolve));
  return heard.finally(() => stop?.());
}

describe('callers kept in memory', () => {
  it('are kept by the process that resolved them, and let go when their account changes', async () => {
    const who = await signUp(a);
    const { id } = (await info(b, who.token)).data;
    const keptBefore = b.services.sessions.keptCallers();
    expect((await info(b, who.token)).code).toBe(0);
    expect(b.services.sessions.keptCallers()).toBe(keptBefore);
    expect(keptBefore).toBeGreaterThan(0);
    const heard = heardOnB(id);
    expect((await a.api('localhost', who.token).put('/team/name', { name: '新名字' })).code).toBe(0);
    await heard;
    expect(b.services.sessions.keptCallers()).toBe(keptBefore - 1);
    expect((await info(b, who.token)).data).toMatchObject({ account_name: '新名字' });
  });

  it('are all let go when the changes stop being heard, and kept again once they are', async () => {
    const who = await signUp(a);
    const { id } = (await info(b, who.token)).data;
    expect(b.services.sessions.keptCallers()).toBeGreaterThan(0);
    // the connections both apps listen on, cut as a network fault or a restarted server would
    await database.db.execute(sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query like 'LISTEN %'`);
    while (b.services.sessions.keptCallers() > 0) await new Promise((resolve) => setTimeout(resolve, 10));
    // listening again, b keeps callers again and hears their changes
    for (;;) {
      expect((await info(b, who.token)).code).toBe(0);
      if (b.services.sessions.keptCallers() > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const heard = heardOnB(id);
    expect((await a.api('localhost', who.token).delete('/account/login')).code).toBe(0);
    await heard;
    expect((await info(b, who.token)).code).toBe(ErrorCode.SESSION_REVOKED);
  });
});

async function lastSeen(token: string) {
  const sessions = await a.api('localhost', token).data<{ current: boolean; last_active_at: string }[]>('GET', '/account/sessions');
  return sessions.find((session) => session.current)?.last_active_at;
}

describe('a session ended on one process', () => {
  it('by logout is refused on the other at its next call', async () => {
    const who = await signUp(a);
    const { id } = (await info(b, who.token)).data;
    expect((await info(a, who.token)).code).toBe(0);
    const heard = heardOnB(id);
    expect((await a.api('localhost', who.token).delete('/account/login')).code).toBe(0);
    expect((await info(a, who.token)).code).toBe(ErrorCode.SESSION_REVOKED);
    await heard;
    expect((await info(b, who.token)).code).toBe(ErrorCode.SESSION_REVOKED);
  });

  it('by its owner from another session is refused on the other', async () => {
    const who = await signUp(a);
    const other = await signIn(b, 'localhost', { phone: who.phone });
    const { id } = (await info(b, other.token)).data;
    expect((await info(a, other.token)).code).toBe(0);
    const sessions = await a.api('localhost', who.token).data<{ id: string; current: boolean }[]>('GET', '/account/sessions');
    const otherId = sessions.find((session) => !session.current)?.id;
    const heard = heardOnB(id);
    expect((await a.api('localhost', who.token).delete(`/account/sessions/${otherId}`)).code).toBe(0);
    expect((await info(a, other.token)).code).toBe(ErrorCode.SESSION_REVOKED);
    await heard;
    expect((await info(b, other.token)).code).toBe(ErrorCode.SESSION_REVOKED);
  });

  it('by a password change is refused on the other, and the changing session goes on on both', async () => {
    const who = await signUp(a);
    const other = await signIn(b, 'localhost', { phone: who.phone });
    const { id } = (await info(b, other.token)).data;
    expect((await info(b, who.token)).code).toBe(0);
    const heard = heardOnB(id);
    const changed = await a.api('localhost', who.token).put('/account/password', { old_password: who.password, password: 'Newpassw0rd' });
    expect(changed.code, changed.message).toBe(0);
    expect((await info(a, other.token)).code).toBe(ErrorCode.SESSION_REVOKED);
    await heard;
    expect((await info(b, other.token)).code).toBe(ErrorCode.SESSION_REVOKED);
    expect((await info(b, who.token)).code).toBe(0);
  });
});

describe('an account changed on one process', () => {
  it('disabled, is refused on both at their next call', async () => {
    const who = await signUp(a);
    expect((await info(a, who.token)).code).toBe(0);
    const { id } = (await info(b, who.token)).data;
    const heard = heardOnB(id);
    // a statement on a's connections, not a call
    await database.db.execute(sql`update accounts set status = 'DISABLED' where id = ${id}`);
    expect((await info(a, who.token)).code).toBe(ErrorCode.ACCOUNT_DISABLED);
    await heard;
    expect((await info(b, who.token)).code).toBe(ErrorCode.ACCOUNT_DISABLED);
  });

  it('with a trade password set, says so on the other at its next call', async () => {
    const who = await signUp(a);
    const { id, trx_password_set } = (await info(b, who.token)).data;
    expect(trx_password_set).toBe(false);
    const heard = heardOnB(id);
    const set = await a.api('localhost', who.token).put('/account/trx-password', { trx_password: '123456', password: who.password });
    expect(set.code, set.message).toBe(0);
    expect((await info(a, who.token)).data.trx_password_set).toBe(true);
    await heard;
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
