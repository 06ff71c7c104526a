/**
 * The open API's keys: made with the trade password, the secret answered once and kept hashed; a key
 * calls what its scopes and its member's role allow, from the addresses its allow-list holds, until it
 * is revoked, expires or its member stops; a rotation keeps the replaced secret for its overlap.
 */
import type { ApiKeyItem, ApiKeySecret } from '@portal/contract/developer';
import { ApiKeyErrorCode } from '@portal/contract/developer-errors';
import { TeamErrorCode } from '@portal/contract/team-errors';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../src/lib/crypto.ts';
import { allowedFrom } from '../../src/modules/api-keys/service.ts';
import { PASSWORD } from '../helpers/accounts.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { queryRows } from '../helpers/sql.ts';
import { joinTeam, readyForCards, type Teammate, teamOwner } from '../helpers/team.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const TRADE = 'Trade123';
let serial = 0;
const key = () => `api-key-test-${Date.now().toString(36)}-${++serial}`;

/** An owner with a trade password, verified and funded. */
async function owner() {
  const who = await teamOwner(t);
  expect((await who.api.put('/account/trx-password', { trx_password: TRADE, password: PASSWORD })).code).toBe(0);
  await readyForCards(t, who);
  return who;
}

async function makeKey(who: Teammate, body: Record<string, unknown>) {
  return who.api.post<ApiKeySecret>('/developer/api-keys', { name: '夜间脚本', trx_password: TRADE, ...body });
}

const withKey = (who: Teammate, secret: string) => who.api.withToken(secret);

describe('making a key', () => {
  it('answers the secret once, keeps only its hash, and lists the key without it', async () => {
    const who = await owner();
    const made = await makeKey(who, { scopes: ['cards:read', 'wallet:read'] });
    expect(made.code, made.message).toBe(0);
    expect(made.data.secret).toMatch(/^sk_[A-Za-z0-9]{12}_[A-Za-z0-9]{40}$/);
    expect(made.data.secret.startsWith(made.data.prefix)).toBe(true);
    expect(made.data).toMatchObject({ name: '夜间脚本', scopes: ['cards:read', 'wallet:read'], status: 'ACTIVE', ip_allowlist: [], member_id: who.memberId });
    const [row] = await queryRows<Record<string, unknown>>(t.database.db, sql`select * from api_keys where id = ${made.data.id}`);
    expect(row?.secret_hash).toBe(sha256(made.data.secret));
    expect(JSON.stringify(row)).not.toContain(made.data.secret.slice(16));
    const listed = await who.api.data<{ items: ApiKeyItem[] }>('GET', '/developer/api-keys');
    expect(listed.items.map((item) => item.id)).toEqual([made.data.id]);
    expect(JSON.stringify(listed)).not.toContain(made.data.secret.slice(16));
    // the activity log names the key and its scopes, never its secret
    const log = await who.api.data<{ items: Array<{ kind: string; summary: string }> }>('GET', '/team/activity', { query: { kind: 'KEY', page: 1, page_size: 10 } });
    expect(log.items.map((item) => item.summary)).toEqual([`创建 API 密钥「夜间脚本」（${made.data.prefix}…），权限范围：cards:read、wallet:read`]);
    expect(JSON.stringify(log)).not.toContain(made.data.secret.slice(16));
  });

  it('asks for the trade password and refuses bad input, making nothing', async () => {
    const who = await owner();
    expect((await makeKey(who, { scopes: ['cards:read'], trx_password: 'Wrong999' })).code).toBe(2102);
    expect((await makeKey(who, { scopes: [] })).code).toBe(1001);
    expect((await makeKey(who, { scopes: ['cards:everything'] })).code).toBe(1001);
    const badRange = await makeKey(who, { scopes: ['cards:read'], ip_allowlist: ['10.0.0.0/33'] });
    expect(badRange.code).toBe(1001);
    expect(badRange.message).toContain('IP');
    expect((await makeKey(who, { scopes: ['cards:read'], expires_at: '2000-01-01T00:00:00Z' })).code).toBe(1001);
    expect((await who.api.data<{ items: ApiKeyItem[] }>('GET', '/developer/api-keys')).items).toEqual([]);
  });

  it('gives FINANCE read keys only, and MEMBER and VIEWER none', async () => {
    const who = await owner();
    const finance = await joinTeam(t, who, 'FINANCE');
    expect((await finance.api.put('/account/trx-password', { trx_password: TRADE, password: PASSWORD })).code).toBe(0);
    const refused = await finance.api.post('/developer/api-keys', { name: 'x', scopes: ['cards:read', 'funds:write'], trx_password: TRADE });
    expect(refused.code).toBe(ApiKeyErrorCode.KEY_SCOPE_NOT_ALLOWED);
    expect(refused.message).toContain('funds:write');
    const read = await finance.api.post<ApiKeySecret>('/developer/api-keys', { name: '对账', scopes: ['transactions:read', 'wallet:read'], trx_password: TRADE });
    expect(read.code, read.message).toBe(0);
    // the owner sees every key of the account; finance its own
    await makeKey(who, { scopes: ['cards:read'] });
    expect((await who.api.data<{ items: ApiKeyItem[] }>('GET', '/developer/api-keys')).items).toHaveLength(2);
    expect((await finance.api.data<{ items: ApiKeyItem[] }>('GET', '/developer/api-keys')).items.map((item) => item.id)).toEqual([read.data.id]);
    for (const role of ['MEMBER', 'VIEWER'] as const) {
      const other = await joinTeam(t, who, role);
      expect((await other.api.get('/developer/api-keys')).code).toBe(TeamErrorCode.PERMISSION_DENIED);
    }
  });
});

describe('calls made with a key', () => {
  it('reads within its scopes, is refused outside them and on calls never open to keys', async () => {
    const who = await owner();
    const { data } = await makeKey(who, { scopes: ['cards:read', 'wallet:read'] });
    const bot = withKey(who, data.secret);
    expect((await bot.get('/card', { query: { page: 1, page_size: 10 } })).code).toBe(0);
    const balances = await bot.get<Array<{ currency: string; available: string }>>('/balance/account-balance');
    expect(balances.code).toBe(0);
    expect(balances.data.find((row) => row.currency === 'USD')?.available).toBe('1000.00');
    const outside = await bot.get('/balance/transactions', { query: { page: 1, page_size: 10 } });
    expect(outside.code).toBe(ApiKeyErrorCode.KEY_SCOPE_MISSING);
    expect(outside.message).toContain('transactions:read');
    for (const path of ['/account/info', '/developer/api-keys', '/team/members', '/account/devices']) {
      expect((await bot.get(path)).code, path).toBe(ApiKeyErrorCode.KEY_CALL_REFUSED);
    }
    // last used: when and from where
    const [listed] = (await who.api.data<{ items: ApiKeyItem[] }>('GET', '/developer/api-keys')).items;
    expect(listed?.last_used_at).not.toBeNull();
    expect(listed?.last_used_ip).toBe('127.0.0.1');
  });

  it('moves money with an Idempotency-Key and without the trade password, once per key', async () => {
    const who = await owner();
    const { data } = await makeKey(who, { scopes: ['cards:read', 'cards:write', 'funds:write'] });
    const bot = withKey(who, data.secret);
    const { products } = await bot.data<{ products: Array<{ id: string; name: string }> }>('GET', '/card/opened-available');
    const product = products.find((p) => p.name === '订阅支付卡');
    const body = { product_id: product?.id, amount: '20.00', nickname: '脚本卡' };
    expect((await bot.post('/card', body)).code).toBe(ApiKeyErrorCode.KEY_IDEMPOTENCY_REQUIRED);
    const once = key();
    const opened = await bot.post<{ id: string }>('/card', body, { headers: { 'idempotency-key': once } });
    expect(opened.code, opened.message).toBe(0);
    const again = await bot.post<{ id: string }>('/card', body, { headers: { 'idempotency-key': once } });
    expect(again.data.id).toBe(opened.data.id);
    const [cards] = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from cards where account_id = ${who.accountId}`);
    expect(Number(cards?.n)).toBe(1);
  });

  it('acts within its member’s role: a MEMBER’s key sees only the cards the member holds', async () => {
    const who = await owner();
    const member = await joinTeam(t, who, 'MEMBER');
    // a MEMBER may not make keys, so the key is written for them as an owner's would be, to test the intersection
    const { data } = await makeKey(who, { scopes: ['cards:read', 'transactions:read'] });
    await t.database.db.execute(sql`update api_keys set member_id = ${member.memberId} where id = ${data.id}`);
    const bot = withKey(who, data.secret);
    // the scope is on the key, the wallet's history is not the role's
    expect((await bot.get('/balance/transactions', { query: { page: 1, page_size: 10 } })).code).toBe(TeamErrorCode.PERMISSION_DENIED);
    const own = await bot.get<{ total: number }>('/card', { query: { page: 1, page_size: 10 } });
    expect(own.code).toBe(0);
    expect(own.data.total).toBe(0);
  });

  it('is refused from outside its allow-list, at another merchant, and with a mistyped secret', async () => {
    const who = await owner();
    const { data } = await makeKey(who, { scopes: ['cards:read'], ip_allowlist: ['10.1.0.0/16', '2001:db8::/32'] });
    const bot = withKey(who, data.secret);
    const outside = await bot.get('/card', { remoteAddress: '192.0.2.7' });
    expect(outside.code).toBe(ApiKeyErrorCode.KEY_IP_REFUSED);
    expect((outside.data as { ip: string }).ip).toBe('192.0.2.7');
    expect((await bot.get('/card', { remoteAddress: '10.1.200.3' })).code).toBe(0);
    expect((await bot.get('/card', { remoteAddress: '2001:db8:1::5' })).code).toBe(0);
    expect((await t.api('orange.localhost', data.secret).get('/card')).code).toBe(ApiKeyErrorCode.KEY_UNKNOWN);
    const wrong = `${data.secret.slice(0, -1)}${data.secret.endsWith('A') ? 'B' : 'A'}`;
    expect((await withKey(who, wrong).get('/card')).code).toBe(ApiKeyErrorCode.KEY_UNKNOWN);
    expect((await withKey(who, 'sk_short').get('/card')).code).toBe(ApiKeyErrorCode.KEY_UNKNOWN);
  });

  it('stops when revoked, when expired, and when its member is suspended', async () => {
    const who = await owner();
    const first = (await makeKey(who, { scopes: ['cards:read'] })).data;
    expect((await withKey(who, first.secret).get('/card')).code).toBe(0);
    const revoked = await who.api.delete<ApiKeyItem>(`/developer/api-keys/${first.id}`);
    expect(revoked.data.status).toBe('REVOKED');
    const log = await who.api.data<{ items: Array<{ summary: string }> }>('GET', '/team/activity', { query: { kind: 'KEY', page: 1, page_size: 10 } });
    expect(log.items[0]?.summary).toBe(`撤销 API 密钥「夜间脚本」（${first.prefix}…）`);
    expect((await withKey(who, first.secret).get('/card')).code).toBe(ApiKeyErrorCode.KEY_REVOKED);

    const second = (await makeKey(who, { scopes: ['cards:read'], expires_at: new Date(Date.now() + 3_600_000).toISOString() })).data;
    await t.database.db.execute(sql`update api_keys set expires_at = now() - interval '1 second' where id = ${second.id}`);
    expect((await withKey(who, second.secret).get('/card')).code).toBe(ApiKeyErrorCode.KEY_EXPIRED);

    const admin = await joinTeam(t, who, 'ADMIN');
    expect((await admin.api.put('/account/trx-password', { trx_password: TRADE, password: PASSWORD })).code).toBe(0);
    const third = (await makeKey(admin, { scopes: ['cards:read'] })).data;
    expect((await withKey(admin, third.secret).get('/card')).code).toBe(0);
    expect((await who.api.put(`/team/members/${admin.memberId}`, { status: 'SUSPENDED' })).code).toBe(0);
    expect((await withKey(admin, third.secret).get('/card')).code).toBe(TeamErrorCode.MEMBER_SUSPENDED);
  });

  it('rotates: the new secret works at once, the replaced one for the overlap only', async () => {
    const who = await owner();
    const made = (await makeKey(who, { scopes: ['cards:read'] })).data;
    const rotated = await who.api.post<ApiKeySecret>(`/developer/api-keys/${made.id}/rotate`);
    expect(rotated.code, rotated.message).toBe(0);
    expect(rotated.data.id).toBe(made.id);
    expect(rotated.data.secret).not.toBe(made.secret);
    expect(rotated.data.previous_secret_until).not.toBeNull();
    expect((await withKey(who, rotated.data.secret).get('/card')).code).toBe(0);
    expect((await withKey(who, made.secret).get('/card')).code).toBe(0);
    await t.database.db.execute(sql`update api_keys set previous_until = now() - interval '1 second' where id = ${made.id}`);
    expect((await withKey(who, made.secret).get('/card')).code).toBe(ApiKeyErrorCode.KEY_UNKNOWN);
    expect((await withKey(who, rotated.data.secret).get('/card')).code).toBe(0);
    // another account's key is no key of this one
    const other = await owner();
    expect((await other.api.post(`/developer/api-keys/${made.id}/rotate`)).code).toBe(ApiKeyErrorCode.KEY_NOT_FOUND);
    expect((await other.api.delete(`/developer/api-keys/${made.id}`)).code).toBe(ApiKeyErrorCode.KEY_NOT_FOUND);
  });
});

describe('the allow-list', () => {
  it('matches addresses and ranges of both families, and an IPv4-mapped address as its IPv4 one', () => {
    expect(allowedFrom([], '198.51.100.1')).toBe(true);
    expect(allowedFrom(['198.51.100.1'], '198.51.100.1')).toBe(true);
    expect(allowedFrom(['198.51.100.1'], '198.51.100.2')).toBe(false);
    expect(allowedFrom(['198.51.100.0/24'], '::ffff:198.51.100.77')).toBe(true);
    expect(allowedFrom(['2001:db8::/48'], '2001:db8:0:1::1')).toBe(true);
    expect(allowedFrom(['2001:db8::/48'], '2001:db8:1::1')).toBe(false);
    expect(allowedFrom(['0.0.0.0/0'], '203.0.113.9')).toBe(true);
  });
});
