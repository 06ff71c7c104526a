/**
 * Two apps on one PostgreSQL database, each with its own connections, as two server processes behind a
 * load balancer: each keeps the API keys it looked up in memory (decisions 0012, 0013). Whatever stops
 * or narrows a key on one is what the process that made the change answers at its very next call, and
 * what the other answers once it has heard the change (PostgreSQL sends it when the change commits,
 * before the one that made it is told it committed); what only time ends (an expiry, a rotation's
 * overlap) holds on both at their next call without any change to hear.
 */
import type { ApiKeySecret } from '@portal/contract/developer';
import { ApiKeyErrorCode } from '@portal/contract/developer-errors';
import { ErrorCode } from '@portal/contract/errors';
import { TeamErrorCode } from '@portal/contract/team-errors';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/engine.ts';
import { PRINCIPAL_CHANGED_CHANNEL } from '../../src/db/principal-cache.ts';
import { ManualClock } from '../../src/lib/clock.ts';
import { PASSWORD } from '../helpers/accounts.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { queryRows } from '../helpers/sql.ts';
import { joinTeam, readyForCards, type Teammate, teamOwner } from '../helpers/team.ts';

let database: TestDatabase;
let secondHandle: Database;
let a: TestApp;
let b: TestApp;
const clock = new ManualClock(new Date('2026-12-02T10:00:00.100Z'));

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
// every test's calls in a second of their own: the rate limit (20 a second a key) is not what they test
beforeEach(() => clock.advance(1000));

const TRADE = 'Trade123';

/** A member with a trade password, ready to make keys. */
async function withTradePassword(who: Teammate) {
  expect((await who.api.put('/account/trx-password', { trx_password: TRADE, password: PASSWORD })).code).toBe(0);
  return who;
}

async function keyOf(who: Teammate, scopes: string[], extra: Record<string, unknown> = {}) {
  const made = await who.api.post<ApiKeySecret>('/developer/api-keys', { name: '两台', scopes, trx_password: TRADE, ...extra });
  expect(made.code, made.message).toBe(0);
  return made.data;
}

/** The key's read of the account's balances on one app: its answer's code. */
const balance = async (t: TestApp, secret: string) => (await t.api('localhost', secret).get('/balance/account-balance')).code;

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

/** An owner with a key both apps have answered (so both keep it). */
async function keptOnBoth(scopes = ['wallet:read'], extra: Record<string, unknown> = {}) {
  const who = await withTradePassword(await teamOwner(a));
  const key = await keyOf(who, scopes, extra);
  expect(await balance(a, key.secret)).toBe(0);
  expect(await balance(b, key.secret)).toBe(0);
  return { who, key };
}

describe('keys kept in memory', () => {
  it('are kept by the process that looked them up, and let go when the key changes', async () => {
    const { who, key } = await keptOnBoth();
    const keptBefore = b.services.apiKeys.keptKeys();
    expect(keptBefore).toBeGreaterThan(0);
    expect(await balance(b, key.secret)).toBe(0);
    expect(b.services.apiKeys.keptKeys()).toBe(keptBefore);
    // any announced change to the key lets it go: it is read again, and kept again
    const heard = heardOnB(who.accountId);
    await database.db.execute(sql`update api_keys set scopes = scopes where id = ${key.id}`);
    await heard;
    expect(b.services.apiKeys.keptKeys()).toBe(keptBefore - 1);
    expect(await balance(b, key.secret)).toBe(0);
    expect(b.services.apiKeys.keptKeys()).toBe(keptBefore);
  });

  it('are all let go when the changes stop being heard, and kept again once they are', async () => {
    const { who, key } = await keptOnBoth();
    expect(b.services.apiKeys.keptKeys()).toBeGreaterThan(0);
    // the connections both apps listen on, cut as a network fault or a restarted server would
    await database.db.execute(sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query like 'LISTEN %'`);
    while (b.services.apiKeys.keptKeys() > 0) await new Promise((resolve) => setTimeout(resolve, 10));
    // listening again, b keeps keys again and hears their changes
    for (;;) {
      expect(await balance(b, key.secret)).toBe(0);
      if (b.services.apiKeys.keptKeys() > 0) break;
      clock.advance(1000);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const heard = heardOnB(who.accountId);
    expect((await who.api.delete(`/developer/api-keys/${key.id}`)).code).toBe(0);
    await heard;
    expect(await balance(b, key.secret)).toBe(ApiKeyErrorCode.KEY_REVOKED);
  });
});

describe('a key stopped on one process', () => {
  it('by a revocation is refused by that process at its next call, and by the other once heard', async () => {
    const { who, key } = await keptOnBoth();
    const heard = heardOnB(who.accountId);
    expect((await a.api('localhost', who.token).delete(`/developer/api-keys/${key.id}`)).code).toBe(0);
    expect(await balance(a, key.secret)).toBe(ApiKeyErrorCode.KEY_REVOKED);
    await heard;
    expect(await balance(b, key.secret)).toBe(ApiKeyErrorCode.KEY_REVOKED);
  });

  it('by a rotation: the new secret works on both at once, the replaced one until its overlap ends on both', async () => {
    const { who, key } = await keptOnBoth();
    const heard = heardOnB(who.accountId);
    const rotated = await who.api.post<ApiKeySecret>(`/developer/api-keys/${key.id}/rotate`);
    expect(rotated.code, rotated.message).toBe(0);
    expect(await balance(a, rotated.data.secret)).toBe(0);
    expect(await balance(a, key.secret)).toBe(0);
    await heard;
    expect(await balance(b, rotated.data.secret)).toBe(0);
    expect(await balance(b, key.secret)).toBe(0);
    // 24 hours on, nothing changed in the database: both refuse the replaced secret at their next call
    clock.advance(24 * 3_600_000 - 1000);
    expect(await balance(a, key.secret)).toBe(0);
    expect(await balance(b, key.secret)).toBe(0);
    clock.advance(1000);
    expect(await balance(a, key.secret)).toBe(ApiKeyErrorCode.KEY_UNKNOWN);
    expect(await balance(b, key.secret)).toBe(ApiKeyErrorCode.KEY_UNKNOWN);
    expect(await balance(b, rotated.data.secret)).toBe(0);
    expect(await balance(a, rotated.data.secret)).toBe(0);
  });

  it('by its expiry, on both at their next call', async () => {
    const { key } = await keptOnBoth(['wallet:read'], { expires_at: new Date(clock.now().getTime() + 10_000).toISOString() });
    clock.advance(10_000 - 1500);
    expect(await balance(a, key.secret)).toBe(0);
    expect(await balance(b, key.secret)).toBe(0);
    clock.advance(1500);
    expect(await balance(a, key.secret)).toBe(ApiKeyErrorCode.KEY_EXPIRED);
    expect(await balance(b, key.secret)).toBe(ApiKeyErrorCode.KEY_EXPIRED);
  });

  it('by an expiry brought forward with SQL, on both', async () => {
    const { who, key } = await keptOnBoth();
    const heard = heardOnB(who.accountId);
    // a statement on a's connections, not a call
    await database.db.execute(sql`update api_keys set expires_at = ${new Date(clock.now().getTime() - 1000).toISOString()}::timestamptz where id = ${key.id}`);
    expect(await balance(a, key.secret)).toBe(ApiKeyErrorCode.KEY_EXPIRED);
    await heard;
    expect(await balance(b, key.secret)).toBe(ApiKeyErrorCode.KEY_EXPIRED);
  });

  it('by its member suspended, then removed, on both', async () => {
    const owner = await withTradePassword(await teamOwner(a));
    await readyForCards(a, owner);
    const admin = await withTradePassword(await joinTeam(a, owner, 'ADMIN'));
    const key = await keyOf(admin, ['wallet:read']);
    expect(await balance(a, key.secret)).toBe(0);
    expect(await balance(b, key.secret)).toBe(0);
    const suspended = heardOnB(owner.accountId);
    expect((await owner.api.put(`/team/members/${admin.memberId}`, { status: 'SUSPENDED' })).code).toBe(0);
    expect(await balance(a, key.secret)).toBe(TeamErrorCode.MEMBER_SUSPENDED);
    await suspended;
    expect(await balance(b, key.secret)).toBe(TeamErrorCode.MEMBER_SUSPENDED);
    // back, then removed
    const restored = heardOnB(owner.accountId);
    expect((await owner.api.put(`/team/members/${admin.memberId}`, { status: 'ACTIVE' })).code).toBe(0);
    await restored;
    expect(await balance(a, key.secret)).toBe(0);
    expect(await balance(b, key.secret)).toBe(0);
    const removed = heardOnB(owner.accountId);
    expect((await owner.api.request('DELETE', `/team/members/${admin.memberId}`, { body: {} })).code).toBe(0);
    expect(await balance(a, key.secret)).toBe(TeamErrorCode.MEMBER_SUSPENDED);
    await removed;
    expect(await balance(b, key.secret)).toBe(TeamErrorCode.MEMBER_SUSPENDED);
  });

  it('by its account disabled with SQL, on both', async () => {
    const { who, key } = await keptOnBoth();
    const heard = heardOnB(who.accountId);
    await database.db.execute(sql`update accounts set status = 'DISABLED' where id = ${who.accountId}`);
    expect(await balance(a, key.secret)).toBe(ErrorCode.ACCOUNT_DISABLED);
    await heard;
    expect(await balance(b, key.secret)).toBe(ErrorCode.ACCOUNT_DISABLED);
  });
});

describe('a key narrowed on one process', () => {
  it('by a change of its scopes, on both', async () => {
    const { who, key } = await keptOnBoth(['wallet:read', 'cards:read']);
    const heard = heardOnB(who.accountId);
    await database.db.execute(sql`update api_keys set scopes = '{cards:read}' where id = ${key.id}`);
    expect(await balance(a, key.secret)).toBe(ApiKeyErrorCode.KEY_SCOPE_MISSING);
    await heard;
    expect(await balance(b, key.secret)).toBe(ApiKeyErrorCode.KEY_SCOPE_MISSING);
    expect((await b.api('localhost', key.secret).get('/card/summary')).code).toBe(0);
  });

  it('by a change of its allow-list, on both', async () => {
    const { who, key } = await keptOnBoth();
    const heard = heardOnB(who.accountId);
    await database.db.execute(sql`update api_keys set ip_allowlist = '{10.9.0.0/16}' where id = ${key.id}`);
    expect(await balance(a, key.secret)).toBe(ApiKeyErrorCode.KEY_IP_REFUSED);
    await heard;
    expect(await balance(b, key.secret)).toBe(ApiKeyErrorCode.KEY_IP_REFUSED);
    expect((await b.api('localhost', key.secret).get('/balance/account-balance', { remoteAddress: '10.9.3.4' })).code).toBe(0);
  });

  it("by a change of its member's role, on both", async () => {
    const owner = await withTradePassword(await teamOwner(a));
    await readyForCards(a, owner);
    const admin = await withTradePassword(await joinTeam(a, owner, 'ADMIN'));
    const key = await keyOf(admin, ['transactions:read']);
    const history = async (t: TestApp) => (await t.api('localhost', key.secret).get('/balance/transactions', { query: { page: 1, page_size: 10 } })).code;
    expect(await history(a)).toBe(0);
    expect(await history(b)).toBe(0);
    const heard = heardOnB(owner.accountId);
    expect((await owner.api.put(`/team/members/${admin.memberId}`, { role: 'MEMBER' })).code).toBe(0);
    expect(await history(a)).toBe(TeamErrorCode.PERMISSION_DENIED);
    await heard;
    expect(await history(b)).toBe(TeamErrorCode.PERMISSION_DENIED);
  });

  it('by moving it to another member with SQL, on both', async () => {
    const owner = await withTradePassword(await teamOwner(a));
    await readyForCards(a, owner);
    const member = await joinTeam(a, owner, 'MEMBER');
    const key = await keyOf(owner, ['transactions:read']);
    const history = async (t: TestApp) => (await t.api('localhost', key.secret).get('/balance/transactions', { query: { page: 1, page_size: 10 } })).code;
    expect(await history(a)).toBe(0);
    expect(await history(b)).toBe(0);
    const heard = heardOnB(owner.accountId);
    await database.db.execute(sql`update api_keys set member_id = ${member.memberId} where id = ${key.id}`);
    expect(await history(a)).toBe(TeamErrorCode.PERMISSION_DENIED);
    await heard;
    expect(await history(b)).toBe(TeamErrorCode.PERMISSION_DENIED);
  });
});

describe("a key's last use", () => {
  it('is written by either process, at most every 5 s a process, the latest use winning', async () => {
    const { key } = await keptOnBoth();
    const lastUse = async () => {
      const [row] = await queryRows<{ at: Date; ip: string }>(database.db, sql`select last_used_at as at, last_used_ip as ip from api_keys where id = ${key.id}`);
      return { at: new Date(String(row?.at)).getTime(), ip: row?.ip };
    };
    const first = await lastUse();
    expect(first.ip).toBe('127.0.0.1');
    // within 5 s: not written again, whichever process answers and from wherever
    clock.advance(2000);
    expect((await b.api('localhost', key.secret).get('/balance/account-balance', { remoteAddress: '198.51.100.4' })).code).toBe(0);
    expect(await lastUse()).toEqual(first);
    // past 5 s: written, time and address
    clock.advance(3000);
    expect((await b.api('localhost', key.secret).get('/balance/account-balance', { remoteAddress: '198.51.100.4' })).code).toBe(0);
    expect(await lastUse()).toEqual({ at: clock.now().getTime(), ip: '198.51.100.4' });
    // a process whose own copy is older writes an earlier use: the later one stays
    const later = await lastUse();
    await database.db.execute(sql`update api_keys set last_used_at = last_used_at + interval '1 hour' where id = ${key.id}`);
    clock.advance(5000);
    expect((await a.api('localhost', key.secret).get('/balance/account-balance', { remoteAddress: '203.0.113.9' })).code).toBe(0);
    expect(await lastUse()).toEqual({ at: later.at + 3_600_000, ip: '198.51.100.4' });
  });
});
