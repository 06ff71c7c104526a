import { randomUUID } from 'node:crypto';
import { CardErrorCode } from '@portal/contract/card-errors';
import type { CardItem, CardPage, OpenedAvailableAnswer } from '@portal/contract/cards';
import { type CardTagsAnswer, cardListMessages } from '@portal/contract/card-list';
import { ErrorCode } from '@portal/contract/errors';
import { toMinorUnits } from '@portal/contract/money';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.ts';
import { signUp } from '../helpers/accounts.ts';
import type { ApiClient } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { scriptedIssuer } from '../helpers/issuer.ts';
import { addMember } from '../helpers/members.ts';

const clock = new ManualClock(new Date('2026-11-24T08:00:00Z'));
const issuer = scriptedIssuer();
let t: TestApp;
let serial = 0;
const key = () => `list-${Date.now().toString(36)}-${++serial}`;
const rows = async (query: ReturnType<typeof sql>) => ((await t.database.db.execute(query)) as unknown as { rows: Array<Record<string, unknown>> }).rows;

interface Team {
  accountId: string;
  owner: ApiClient;
  products: OpenedAvailableAnswer['products'];
}

async function team(): Promise<Team> {
  const who = await signUp(t);
  const owner = t.api('localhost', who.token);
  const { id: accountId } = await owner.data<{ id: string }>('GET', '/account/info');
  await owner.data('PUT', '/card/verification', { body: { real_name: '张三', id_number: '11010519491231002X', latin_name: 'Zhang San', website: 'https://shop.example' } });
  const merchantId = String((await rows(sql`select merchant_id from accounts where id = ${accountId}`))[0]?.merchant_id);
  await t.services.ledger.recharge({ merchantId, accountId, currency: 'USD', amount: 5000_00n, key: `fund-${accountId}` });
  const { products } = await owner.data<OpenedAvailableAnswer>('GET', '/card/opened-available');
  return { accountId, owner, products };
}

const productOf = (who: Team, name: string) => {
  const product = who.products.find((p) => p.name === name);
  if (!product) throw new Error(`no ${name}`);
  return product;
};

async function issued(api: ApiClient, productId: string, amount: string, nickname: string) {
  const opened = await api.post<CardItem>('/card', { product_id: productId, amount, nickname }, { headers: { 'idempotency-key': key() } });
  expect(opened.code, opened.message).toBe(0);
  const { numbers } = await issuer.issue(opened.data.id);
  return { ...opened.data, pan: numbers.pan };
}

const authorize = (cardId: string, amount: string) =>
  issuer.send('authorization.request', { id: `auth_${randomUUID()}`, card_id: cardId, amount, currency: 'USD', merchant_name: 'Meta Ads', mcc: '7311', country: 'US' });

const list = (api: ApiClient, query: Record<string, string>) => api.data<CardPage>('GET', `/card?${new URLSearchParams(query)}`);
const names = (page: CardPage) => page.items.map((item) => item.nickname);

/**
 * One account with four cards whose figures differ on purpose:
 *  甲 (ad card, 42424242…): 100.00, spent 30.00 of two approved, none declined, tags 广告/Meta
 *  乙 (subscription, 55555555…): 300.00, one approved 5.00 and one declined (over balance): rate 0.5, tag 广告
 *  丙 (subscription): 50.00, never used, frozen
 *  丁 (ad card): 200.00, spent 120.00, tags 订阅
 * opened one after another, a minute apart.
 */
let owner: Team;
let cards: Record<'甲' | '乙' | '丙' | '丁', CardItem & { pan: string }>;

beforeAll(async () => {
  t = await createTestApp({ clock, issuer: issuer.port });
  issuer.attach(t);
  owner = await team();
  const ad = productOf(owner, '广告投放卡').id;
  const sub = productOf(owner, '订阅支付卡').id;
  const made: Partial<typeof cards> = {};
  for (const [name, product, amount] of [
    ['甲', ad, '100.00'],
    ['乙', sub, '300.00'],
    ['丙', sub, '50.00'],
    ['丁', ad, '200.00'],
  ] as const) {
    made[name] = await issued(owner.owner, product, amount, `${name}号卡`);
    clock.advance(60_000);
  }
  cards = made as typeof cards;
  expect((await authorize(cards.甲.id, '10.00')).status).toBe(200);
  clock.advance(60_000);
  expect((await authorize(cards.甲.id, '20.00')).status).toBe(200);
  clock.advance(60_000);
  expect((await authorize(cards.乙.id, '5.00')).status).toBe(200);
  clock.advance(60_000);
  const declined = await authorize(cards.乙.id, '9000.00');
  expect((declined.body as unknown as { approved: boolean }).approved).toBe(false);
  clock.advance(60_000);
  expect((await authorize(cards.丁.id, '120.00')).status).toBe(200);
  clock.advance(60_000);
  expect((await owner.owner.put<CardItem>(`/card/${cards.丙.id}/status`, { action: 'FREEZE' })).code).toBe(0);
  await issuer.frozen(cards.丙.id);
  for (const [name, tags] of [
    ['甲', ['广告', 'Meta']],
    ['乙', ['广告']],
    ['丁', ['订阅']],
  ] as const) {
    const tagged = await owner.owner.put<CardItem>(`/card/${cards[name].id}/tags`, { tags });
    expect(tagged.code, tagged.message).toBe(0);
  }
});
afterAll(() => t?.close());

describe('GET /card sort', () => {
  it('answers the figures the sorts use on every item', async () => {
    const page = await list(owner.owner, { sort: 'created_at' });
    const byName = Object.fromEntries(page.items.map((item) => [item.nickname, item]));
    expect(byName['甲号卡']).toMatchObject({ spent_this_month: '30.00', decline_rate_30d: 0, tags: ['广告', 'Meta'], holder_member_id: expect.any(String) });
    expect(byName['乙号卡']).toMatchObject({ spent_this_month: '5.00', decline_rate_30d: 0.5, tags: ['广告'] });
    expect(byName['丙号卡']).toMatchObject({ spent_this_month: '0.00', last_used_at: null, tags: [] });
    expect(byName['丁号卡']?.last_used_at).not.toBeNull();
  });

  it.each([
    ['created_at', ['甲号卡', '乙号卡', '丙号卡', '丁号卡']],
    ['-created_at', ['丁号卡', '丙号卡', '乙号卡', '甲号卡']],
    // available: what is on the card less what its authorisations hold
    ['balance', ['丙号卡', '甲号卡', '丁号卡', '乙号卡']],
    ['-balance', ['乙号卡', '丁号卡', '甲号卡', '丙号卡']],
    ['-spent_this_month', ['丁号卡', '甲号卡', '乙号卡', '丙号卡']],
    ['spent_this_month', ['丙号卡', '乙号卡', '甲号卡', '丁号卡']],
    ['-last_used_at', ['丁号卡', '乙号卡', '甲号卡', '丙号卡']],
    ['last_used_at', ['丙号卡', '甲号卡', '乙号卡', '丁号卡']],
  ])('sort=%s orders the cards by it', async (sort, expected) => {
    const page = await list(owner.owner, { sort });
    expect(names(page)).toEqual(expected);
    expect(page.total).toBe(4);
  });

  it('breaks ties on the id, the same way round, so pages neither repeat nor skip a card', async () => {
    // 甲, 丙 and 丁 all decline nothing: the id orders them
    const all = await list(owner.owner, { sort: '-decline_rate_30d' });
    expect(all.items[0]?.nickname).toBe('乙号卡');
    const tied = all.items.slice(1).map((item) => item.id);
    expect(tied).toEqual([...tied].sort().reverse());
    const ascending = await list(owner.owner, { sort: 'decline_rate_30d' });
    expect(ascending.items.slice(0, 3).map((item) => item.id)).toEqual([...tied].sort());
    const paged: string[] = [];
    for (let page = 1; page <= 4; page++) paged.push(...(await list(owner.owner, { sort: 'decline_rate_30d', page: String(page), page_size: '1' })).items.map((item) => item.id));
    expect(paged).toEqual(ascending.items.map((item) => item.id));
  });

  it('refuses a sort it does not know, naming the field', async () => {
    const answer = await owner.owner.get(`/card?sort=nickname`);
    expect(answer.code).toBe(ErrorCode.VALIDATION);
    expect(JSON.stringify(answer)).toContain('sort');
  });
});

describe('GET /card filters', () => {
  it('takes several statuses at once', async () => {
    expect(names(await list(owner.owner, { status: 'FREEZE' }))).toEqual(['丙号卡']);
    expect((await list(owner.owner, { status: 'NORMAL,FREEZE' })).total).toBe(4);
    expect((await list(owner.owner, { status: 'NORMAL' })).total).toBe(3);
    expect((await list(owner.owner, { status: 'DELETE,FAIL' })).total).toBe(0);
    const wrong = await owner.owner.get('/card?status=NORMAL,LOST');
    expect(wrong.code).toBe(ErrorCode.VALIDATION);
    expect(wrong.message).toBe(cardListMessages.status);
  });

  it('finds a card by its BIN prefix (6 to 8 digits), its last four, or a part of its nickname', async () => {
    expect(names(await list(owner.owner, { keyword: '424242', sort: 'created_at' }))).toEqual(['甲号卡', '丁号卡']);
    expect(names(await list(owner.owner, { keyword: '55555555', sort: 'created_at' }))).toEqual(['乙号卡', '丙号卡']);
    expect((await list(owner.owner, { keyword: '5555555' })).total).toBe(2);
    expect((await list(owner.owner, { keyword: '424243' })).total).toBe(0);
    expect(names(await list(owner.owner, { keyword: cards.丁.pan.slice(-4) }))).toContain('丁号卡');
    expect(names(await list(owner.owner, { keyword: '乙号' }))).toEqual(['乙号卡']);
    // the LIKE wildcards are plain characters
    expect((await list(owner.owner, { keyword: '%' })).total).toBe(0);
  });

  it('finds a nickname whatever the case of its letters, and digits or 中文 inside it', async () => {
    const before = (await list(owner.owner, { keyword: '乙号' })).items[0]?.nickname;
    await t.database.db.execute(sql`update cards set nickname = 'Shop乙 20245-US' where id = ${cards.乙.id}`);
    try {
      for (const keyword of ['shop乙', 'SHOP', 'p乙 20245-u', '20245', '乙 2']) expect(names(await list(owner.owner, { keyword }))).toEqual(['Shop乙 20245-US']);
      expect((await list(owner.owner, { keyword: 'shop乙 20246' })).total).toBe(0);
    } finally {
      await t.database.db.execute(sql`update cards set nickname = ${before} where id = ${cards.乙.id}`);
    }
  });

  it('filters by a tag, and finds a whole tag typed in the search', async () => {
    expect(names(await list(owner.owner, { tag: '广告', sort: 'created_at' }))).toEqual(['甲号卡', '乙号卡']);
    expect(names(await list(owner.owner, { tag: 'Meta' }))).toEqual(['甲号卡']);
    expect(names(await list(owner.owner, { keyword: '订阅' }))).toEqual(['丁号卡']);
    expect((await list(owner.owner, { tag: '广' })).total).toBe(0);
    // filters add up
    expect(names(await list(owner.owner, { tag: '广告', status: 'NORMAL', keyword: '55555555' }))).toEqual(['乙号卡']);
  });

  it('keeps the BIN of cards opened before it was stored: the migration took their product’s', async () => {
    await t.database.db.execute(sql`update cards set bin = null where id = ${cards.丁.id}`);
    expect((await list(owner.owner, { keyword: '42424242' })).total).toBe(1);
    await t.database.db.execute(sql`update cards set bin = p.bin from card_products p where p.id = cards.product_id and cards.bin is null`);
    expect((await list(owner.owner, { keyword: '42424242' })).total).toBe(2);
  });
});

describe('tags', () => {
  it('counts each tag over the cards the caller sees, most used first', async () => {
    const counts = await owner.owner.data<CardTagsAnswer>('GET', '/card/tags');
    expect(counts.items).toEqual([
      { tag: '广告', count: 2 },
      { tag: 'Meta', count: 1 },
      { tag: '订阅', count: 1 },
    ]);
  });

  it('keeps tags trimmed and refuses more than 10, one over 20 characters, an empty one or one twice, naming the field', async () => {
    const id = cards.丙.id;
    const trimmed = await owner.owner.put<CardItem>(`/card/${id}/tags`, { tags: ['  预算 ', 'TikTok'] });
    expect(trimmed.data.tags).toEqual(['预算', 'TikTok']);
    const refusals: Array<[unknown, string]> = [
      [Array.from({ length: 11 }, (_, i) => `t${i}`), cardListMessages.tags],
      [['a'.repeat(21)], cardListMessages.tag],
      [['  '], cardListMessages.tag],
      [['预算', ' 预算'], cardListMessages.tagRepeated.replace('{tag}', '预算')],
    ];
    for (const [tags, message] of refusals) {
      const answer = await owner.owner.put(`/card/${id}/tags`, { tags });
      expect(answer.code).toBe(ErrorCode.VALIDATION);
      expect(answer.message).toBe(message);
      expect(JSON.stringify(answer.data)).toContain('tags');
    }
    expect((await owner.owner.data<CardItem>('GET', `/card/${id}`)).tags).toEqual(['预算', 'TikTok']);
    expect((await owner.owner.put<CardItem>(`/card/${id}/tags`, { tags: Array.from({ length: 10 }, (_, i) => `标签${i}`) })).code).toBe(0);
    const cleared = await owner.owner.put<CardItem>(`/card/${id}/tags`, { tags: [] });
    expect(cleared.data.tags).toEqual([]);
  });

  it('writes the change in the activity log', async () => {
    clock.advance(60_000);
    await owner.owner.put<CardItem>(`/card/${cards.丙.id}/tags`, { tags: ['暂停'] });
    const log = await owner.owner.data<{ items: Array<{ summary: string; card_id: string | null }> }>('GET', '/team/activity');
    expect(log.items[0]).toMatchObject({ summary: expect.stringContaining('修改卡片标签 丙号卡'), card_id: cards.丙.id });
    expect(log.items[0]?.summary).toContain('暂停');
    await owner.owner.put<CardItem>(`/card/${cards.丙.id}/tags`, { tags: [] });
  });
});

describe('who sees what', () => {
  it('shows a MEMBER only the cards they hold, in the list, the search and the tag counts, and refuses their tags on another card', async () => {
    const member = await addMember(t.database.db, t.services.sessions, owner.accountId, 'MEMBER', { budget: toMinorUnits('1000.00') });
    const api = t.api('localhost', member.token);
    const own = await issued(api, productOf(owner, '订阅支付卡').id, '20.00', '成员的卡');
    expect((await api.put<CardItem>(`/card/${own.id}/tags`, { tags: ['广告', '成员'] })).code).toBe(0);
    expect(names(await list(api, {}))).toEqual(['成员的卡']);
    expect(names(await list(api, { keyword: '55555555' }))).toEqual(['成员的卡']);
    expect(names(await list(api, { tag: '广告', sort: '-balance' }))).toEqual(['成员的卡']);
    expect((await list(api, { holder_member_id: String((await rows(sql`select holder_member_id from cards where id = ${cards.甲.id}`))[0]?.holder_member_id) })).total).toBe(0);
    expect((await api.data<CardTagsAnswer>('GET', '/card/tags')).items).toEqual([
      { tag: '广告', count: 1 },
      { tag: '成员', count: 1 },
    ]);
    expect((await api.put(`/card/${cards.甲.id}/tags`, { tags: ['x'] })).code).toBe(CardErrorCode.CARD_NOT_FOUND);
    // the owner sees it among the team's, and counts it
    expect((await list(owner.owner, { tag: '广告' })).total).toBe(3);
    await api.put<CardItem>(`/card/${own.id}/tags`, { tags: [] });
  });

  it('refuses a VIEWER the tags (权限不足) and changes nothing', async () => {
    const viewer = await addMember(t.database.db, t.services.sessions, owner.accountId, 'VIEWER', {});
    const api = t.api('localhost', viewer.token);
    const answer = await api.put(`/card/${cards.甲.id}/tags`, { tags: ['x'] });
    expect(answer.code).not.toBe(0);
    expect(answer.message).toContain('权限不足');
    expect((await owner.owner.data<CardItem>('GET', `/card/${cards.甲.id}`)).tags).toEqual(['广告', 'Meta']);
    expect((await list(api, { tag: '广告' })).total).toBe(2);
  });

  it("never shows another account's cards: not in the list, the search, the tags, nor by id", async () => {
    const other = await team();
    const theirs = await issued(other.owner, productOf(other, '广告投放卡').id, '50.00', '别家的卡');
    await other.owner.put(`/card/${theirs.id}/tags`, { tags: ['广告'] });
    expect(names(await list(owner.owner, { keyword: '别家' }))).toEqual([]);
    expect((await list(owner.owner, { tag: '广告' })).total).toBe(2);
    expect((await list(owner.owner, { keyword: theirs.pan.slice(-4) })).items.map((item) => item.id)).not.toContain(theirs.id);
    for (const sort of ['-balance', '-spent_this_month', '-decline_rate_30d', '-last_used_at']) {
      expect((await list(owner.owner, { sort })).items.map((item) => item.id)).not.toContain(theirs.id);
    }
    expect((await owner.owner.put(`/card/${theirs.id}/tags`, { tags: ['x'] })).code).toBe(CardErrorCode.CARD_NOT_FOUND);
    expect((await other.owner.data<CardTagsAnswer>('GET', '/card/tags')).items).toEqual([{ tag: '广告', count: 1 }]);
    expect((await other.owner.data<CardItem>('GET', `/card/${theirs.id}`)).tags).toEqual(['广告']);
  });
});
