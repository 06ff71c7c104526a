/**
 * What holds a key's calls beyond its scopes: 20 calls a second a key (a session is not limited), the
 * 21st refused with 1211, 429 and Retry-After; and a key's write answered once under its
 * Idempotency-Key: the same request again answers the first answer and changes nothing, another
 * request under the key is refused as the money calls refuse it.
 */
import type { CardItem } from '@portal/contract/cards';
import type { ApiKeySecret } from '@portal/contract/developer';
import { API_KEY_RATE_LEASE, API_KEY_RATE_PER_SECOND } from '@portal/contract/developer';
import { ApiKeyErrorCode } from '@portal/contract/developer-errors';
import { ErrorCode } from '@portal/contract/errors';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.ts';
import { fingerprintOf } from '../../src/lib/keyed-call.ts';
import { PASSWORD } from '../helpers/accounts.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { scriptedIssuer } from '../helpers/issuer.ts';
import { queryRows } from '../helpers/sql.ts';
import { issuedCard, readyForCards, type Teammate, teamOwner } from '../helpers/team.ts';

const clock = new ManualClock(new Date('2026-12-02T08:00:00.250Z'));
const issuer = scriptedIssuer();
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock, issuer: issuer.port, logStream: { write: (line) => (line.includes('"level":50') ? process.stderr.write(line) : true) } });
  issuer.attach(t);
});
afterAll(() => t?.close());

const TRADE = 'Trade123';
let serial = 0;
const idem = () => `key-limits-${Date.now().toString(36)}-${++serial}`;

/** An owner with a trade password, verified and funded; with an issued card when a nickname is given. */
async function owner(cardName?: string) {
  const who = await teamOwner(t);
  await readyForCards(t, who);
  const card = cardName ? await issuedCard(who, issuer, cardName) : undefined;
  expect((await who.api.put('/account/trx-password', { trx_password: TRADE, password: PASSWORD })).code).toBe(0);
  return { who, card: card as CardItem };
}

async function keyOf(who: Teammate, scopes: string[]) {
  const made = await who.api.post<ApiKeySecret>('/developer/api-keys', { name: '脚本', scopes, trx_password: TRADE });
  expect(made.code, made.message).toBe(0);
  return made.data;
}

describe('the rate limit', () => {
  it(`takes ${API_KEY_RATE_PER_SECOND} calls a second a key, refuses the next with 1211, 429 and Retry-After, and takes calls again the next second`, async () => {
    const { who } = await owner();
    const key = await keyOf(who, ['cards:read']);
    const other = await keyOf(who, ['cards:read']);
    const bot = who.api.withToken(key.secret);
    for (let call = 1; call <= API_KEY_RATE_PER_SECOND; call++) {
      const answer = await bot.get('/card/summary');
      expect(answer.code, `call ${call}`).toBe(0);
      expect(answer.headers['x-ratelimit-remaining']).toBe(String(API_KEY_RATE_PER_SECOND - call));
    }
    const refused = await bot.get('/card/summary');
    expect(refused.status).toBe(429);
    expect(refused.code).toBe(ApiKeyErrorCode.KEY_RATE_LIMITED);
    expect(refused.message).toBe(`API 密钥请求过于频繁（每秒最多 ${API_KEY_RATE_PER_SECOND} 次），请 1 秒后重试`);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.data).toEqual({ retry_after: 1 });
    // a call of another path counts against the same key
    expect((await bot.get('/card', { query: { page: 1, page_size: 10 } })).code).toBe(ApiKeyErrorCode.KEY_RATE_LIMITED);
    // another key of the account has its own count, and the member's session none
    expect((await who.api.withToken(other.secret).get('/card/summary')).code).toBe(0);
    for (let call = 0; call < API_KEY_RATE_PER_SECOND + 5; call++) expect((await who.api.get('/card/summary')).code).toBe(0);
    // the next second: the shared count holds the one lease this process took for its first call
    clock.advance(1000);
    expect((await bot.get('/card/summary')).code).toBe(0);
    const [row] = await queryRows<{ calls: number }>(t.database.db, sql`select calls from api_key_rate where key_id = ${key.id}`);
    expect(Number(row?.calls)).toBe(API_KEY_RATE_LEASE);
  });

  it('keeps its counts in an unlogged table, one row a key', async () => {
    const [table] = await queryRows<{ persistence: string }>(t.database.db, sql`select relpersistence as persistence from pg_class where relname = 'api_key_rate'`);
    expect(table?.persistence).toBe('u');
  });
});

describe("a key's writes under their Idempotency-Key", () => {
  it('answer the first answer to the same request again and change nothing', async () => {
    const { who, card } = await owner('脚本卡');
    const key = await keyOf(who, ['cards:read', 'cards:write']);
    const bot = who.api.withToken(key.secret);
    const once = idem();
    const renamed = await bot.request<CardItem>('PATCH', `/card/${card.id}`, { body: { nickname: '脚本改名' }, headers: { 'idempotency-key': once } });
    expect(renamed.code, renamed.message).toBe(0);
    expect(renamed.data.nickname).toBe('脚本改名');
    // a member renames it; the script's request, sent again, answers what it answered and renames nothing
    expect((await who.api.request<CardItem>('PATCH', `/card/${card.id}`, { body: { nickname: '人工改名' } })).data.nickname).toBe('人工改名');
    const again = await bot.request<CardItem>('PATCH', `/card/${card.id}`, { body: { nickname: '脚本改名' }, headers: { 'idempotency-key': once } });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(renamed.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect((await who.api.data<CardItem>('GET', `/card/${card.id}`)).nickname).toBe('人工改名');
    // a freeze sent twice asks the issuer once
    const freeze = idem();
    const asked = issuer.requests.length;
    const first = await bot.request<CardItem>('PUT', `/card/${card.id}/status`, { body: { action: 'FREEZE' }, headers: { 'idempotency-key': freeze } });
    expect(first.code, first.message).toBe(0);
    const second = await bot.request<CardItem>('PUT', `/card/${card.id}/status`, { body: { action: 'FREEZE' }, headers: { 'idempotency-key': freeze } });
    expect(second.body).toEqual(first.body);
    expect(issuer.requests.slice(asked).filter((request) => request.kind === 'freeze')).toHaveLength(1);
  });

  it('refuse another request under the same key as the money calls do (1006), changing nothing', async () => {
    const { who, card } = await owner('改名卡');
    const bot = who.api.withToken((await keyOf(who, ['cards:write'])).secret);
    const once = idem();
    const renamed = await bot.request<CardItem>('PATCH', `/card/${card.id}`, { body: { nickname: '第一次' }, headers: { 'idempotency-key': once } });
    expect(renamed.code, renamed.message).toBe(0);
    const otherBody = await bot.request('PATCH', `/card/${card.id}`, { body: { nickname: '第二次' }, headers: { 'idempotency-key': once } });
    expect(otherBody.status).toBe(409);
    expect(otherBody.code).toBe(ErrorCode.IDEMPOTENCY_CONFLICT);
    expect(otherBody.data).toEqual({ key: once });
    const otherCall = await bot.request('PUT', `/card/${card.id}/tags`, { body: { tags: ['夜间'] }, headers: { 'idempotency-key': once } });
    expect(otherCall.code).toBe(ErrorCode.IDEMPOTENCY_CONFLICT);
    const now = await who.api.data<CardItem>('GET', `/card/${card.id}`);
    expect(now.nickname).toBe('第一次');
    expect(now.tags).toEqual([]);
  });

  it('keep nothing of a refused request: the key may be used again', async () => {
    const { who, card } = await owner('重试卡');
    const bot = who.api.withToken((await keyOf(who, ['cards:write'])).secret);
    const once = idem();
    const refused = await bot.request('PUT', '/card/00000000-0000-4000-8000-000000000000/status', { body: { action: 'FREEZE' }, headers: { 'idempotency-key': once } });
    expect(refused.code).not.toBe(0);
    const [kept] = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from api_key_replays where account_id = ${who.accountId}`);
    expect(Number(kept?.n)).toBe(0);
    const done = await bot.request<CardItem>('PUT', `/card/${card.id}/status`, { body: { action: 'FREEZE' }, headers: { 'idempotency-key': once } });
    expect(done.code, done.message).toBe(0);
    expect(done.data.status).toBe('FREEZING');
  });

  it('tell a request to wait while the first under its key runs, and take over one that never answered', async () => {
    const { who, card } = await owner('等待卡');
    const key = await keyOf(who, ['cards:write']);
    const bot = who.api.withToken(key.secret);
    const once = idem();
    const body = { action: 'FREEZE' };
    // the first request's claim, as the process answering it holds it
    const fingerprint = fingerprintOf({ call: 'PUT /api/v1/card/:id/status', params: { id: card.id }, body });
    expect(await t.services.apiKeys.claimWrite(who.accountId, key.id, once, fingerprint)).toBeUndefined();
    const waiting = await bot.request('PUT', `/card/${card.id}/status`, { body, headers: { 'idempotency-key': once } });
    expect(waiting.status).toBe(409);
    expect(waiting.code).toBe(ApiKeyErrorCode.KEY_REQUEST_IN_PROGRESS);
    expect((await who.api.data<CardItem>('GET', `/card/${card.id}`)).status).toBe('NORMAL');
    // past any request's time, the claim never answered (its process stopped): the request again takes it over
    clock.advance(3 * 60_000);
    const done = await bot.request<CardItem>('PUT', `/card/${card.id}/status`, { body, headers: { 'idempotency-key': once } });
    expect(done.code, done.message).toBe(0);
    expect(done.data.status).toBe('FREEZING');
    const [kept] = await queryRows<{ status: number }>(t.database.db, sql`select status from api_key_replays where key = ${once}`);
    expect(Number(kept?.status)).toBe(200);
  });

  it('leave reads alone and a session’s writes as they were', async () => {
    const { who, card } = await owner('会话卡');
    const once = idem();
    expect((await who.api.request('PATCH', `/card/${card.id}`, { body: { nickname: '甲' }, headers: { 'idempotency-key': once } })).code).toBe(0);
    expect((await who.api.request('PATCH', `/card/${card.id}`, { body: { nickname: '乙' }, headers: { 'idempotency-key': once } })).code).toBe(0);
    expect((await who.api.data<CardItem>('GET', `/card/${card.id}`)).nickname).toBe('乙');
    const [kept] = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from api_key_replays where account_id = ${who.accountId}`);
    expect(Number(kept?.n)).toBe(0);
  });
});
