import { randomUUID } from 'node:crypto';
import type { AcrossTransactionItem, AcrossTransactionPage, SpendingGroupBy, SpendingSummary } from '@portal/contract/card-spending-across';
import { SPENDING_GROUP_BYS } from '@portal/contract/card-spending-across';
import type { CardItem, OpenedAvailableAnswer } from '@portal/contract/cards';
import { ErrorCode } from '@portal/contract/errors';
import { fromMinorUnits, toMinorUnits } from '@portal/contract/money';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.ts';
import { signUp } from '../helpers/accounts.ts';
import type { ApiClient } from '../helpers/api.ts';
import { scriptedIssuerApp } from '../helpers/issuer.ts';
import { addMember } from '../helpers/members.ts';
import { expectExportLayout } from '../helpers/xlsx.ts';

// 2026-11-24 16:00 China time: the summary's default month is November (China time)
const NOW = new Date('2026-11-24T08:00:00Z');
const clock = new ManualClock(NOW);
const { t, issuer } = scriptedIssuerApp(clock);

let serial = 0;
const rows = async (query: ReturnType<typeof sql>) => ((await t.database.db.execute(query)) as unknown as { rows: Array<Record<string, unknown>> }).rows;

interface Account {
  id: string;
  token: string;
  api: ApiClient;
  productId: string;
}

async function account(): Promise<Account> {
  const who = await signUp(t);
  const api = t.api('localhost', who.token);
  const { id } = await api.data<{ id: string }>('GET', '/account/info');
  const merchantId = String((await rows(sql`select merchant_id from accounts where id = ${id}`))[0]?.merchant_id);
  await api.data('PUT', '/card/verification', { body: { real_name: '张三', id_number: '11010519491231002X' } });
  await t.services.ledger.recharge({ merchantId, accountId: id, currency: 'USD', amount: 1000_00n, key: `fund-${id}` });
  const { products } = await api.data<OpenedAvailableAnswer>('GET', '/card/opened-available');
  const product = products.find((p) => p.name === '订阅支付卡');
  if (!product) throw new Error('no 订阅支付卡');
  return { id, token: who.token, api, productId: product.id };
}

async function issuedCard(api: ApiClient, productId: string, nickname: string, tags: string[] = []) {
  const opened = await api.post<CardItem>('/card', { product_id: productId, amount: '20.00', nickname }, { headers: { 'idempotency-key': `across-${++serial}-${Date.now()}` } });
  expect(opened.code, opened.message).toBe(0);
  expect((await issuer.issue(opened.data.id)).status).toBe(200);
  if (tags.length > 0) await t.database.db.execute(sql`update cards set tags = ${`{${tags.join(',')}}`}::text[] where id = ${opened.data.id}`);
  return api.data<CardItem>('GET', `/card/${opened.data.id}`);
}

const authorize = async (cardId: string, amount: string, merchant_name: string, mcc: string) => {
  clock.advance(1000);
  const answer = await issuer.send('authorization.request', { id: `auth_${randomUUID()}`, card_id: cardId, amount, currency: 'USD', merchant_name, mcc, country: 'US' });
  expect(answer.status).toBe(200);
  return (answer.body as unknown as { approved: boolean }).approved;
};

const list = (api: ApiClient, query: Record<string, string> = {}) => api.data<AcrossTransactionPage>('GET', '/card/transactions', { query });
const summary = (api: ApiClient, query: Record<string, string> = {}) => api.data<SpendingSummary>('GET', '/card/spending-summary', { query });

/** Every row the list answers for the query, page by page. */
async function everyRow(api: ApiClient, query: Record<string, string>) {
  const all: AcrossTransactionItem[] = [];
  for (let page = 1; ; page += 1) {
    const answer = await list(api, { ...query, page: String(page), page_size: '100' });
    all.push(...answer.items);
    if (all.length >= answer.total || answer.items.length === 0) return all;
  }
}

/** What the rows come to as the summary counts them: approved and settled spent, every authorisation asked, the declined. */
const figuresOf = (items: AcrossTransactionItem[]) => ({
  amount: fromMinorUnits(items.filter((item) => item.status !== 'FAIL').reduce((sum, item) => sum + toMinorUnits(item.amount), 0n)),
  count: items.length,
  declined: items.filter((item) => item.decline_code !== null).length,
});

let owner: Account;
let member: { id: string; api: ApiClient };
let stranger: Account;
let adsCard: CardItem;
let searchCard: CardItem;
let membersCard: CardItem;
let strangersCard: CardItem;

beforeAll(async () => {
  owner = await account();
  const added = await addMember(t.database.db, t.services.sessions, owner.id, 'MEMBER');
  member = { id: added.id, api: t.api('localhost', added.token) };
  stranger = await account();
  // October first: a month before the one the summary reads unless told
  clock.set(new Date('2026-10-15T04:00:00Z'));
  adsCard = await issuedCard(owner.api, owner.productId, '广告卡', ['广告', '北美']);
  searchCard = await issuedCard(owner.api, owner.productId, '搜索卡', ['广告']);
  membersCard = await issuedCard(member.api, owner.productId, '成员卡');
  strangersCard = await issuedCard(stranger.api, stranger.productId, '别人的卡', ['广告']);
  expect(await authorize(adsCard.id, '4.00', 'Meta Ads', '7311')).toBe(true);
  clock.set(NOW);
  expect(await authorize(adsCard.id, '10.00', 'Meta Ads', '7311')).toBe(true);
  expect(await authorize(adsCard.id, '2.50', 'Google Ads', '7311')).toBe(true);
  // more than the card holds: declined
  expect(await authorize(adsCard.id, '500.00', 'Meta Ads', '7311')).toBe(false);
  expect(await authorize(searchCard.id, '3.25', 'Amazon', '5942')).toBe(true);
  expect(await authorize(membersCard.id, '7.00', 'Meta Ads', '7311')).toBe(true);
  expect(await authorize(membersCard.id, '900.00', 'Shopify', '5734')).toBe(false);
  expect(await authorize(strangersCard.id, '6.00', 'Meta Ads', '7311')).toBe(true);
  // the next China-time day (25 November, 00:00:01)
  clock.set(new Date('2026-11-24T16:00:00Z'));
  expect(await authorize(searchCard.id, '1.75', 'Meta Ads', '7311')).toBe(true);
  clock.set(NOW);
});

describe('GET /card/transactions: every card of the account, one set of filters', () => {
  it('lists every card’s rows newest first, each naming its card, and never another account’s', async () => {
    const page = await list(owner.api, { page_size: '100' });
    // three first loads and eight authorisations
    expect(page.total).toBe(11);
    expect(page.items.map((item) => item.card_id)).not.toContain(strangersCard.id);
    const times = page.items.map((item) => item.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    const adsRow = page.items.find((item) => item.card_id === adsCard.id && item.type === 'CONSUME');
    expect(adsRow).toMatchObject({ card_last4: adsCard.last4, card_nickname: '广告卡', currency: 'USD' });
    expect((await list(owner.api, { card_id: strangersCard.id })).total).toBe(0);
    expect((await list(stranger.api, { page_size: '100' })).items.every((item) => item.card_id === strangersCard.id)).toBe(true);
  });

  it('filters by type, status, card, tag, holder, merchant, category and days', async () => {
    const consume = { type: 'CONSUME' };
    expect((await list(owner.api, consume)).total).toBe(8);
    expect((await list(owner.api, { ...consume, status: 'FAIL' })).total).toBe(2);
    expect((await everyRow(owner.api, { ...consume, card_id: searchCard.id })).map((item) => item.amount).sort()).toEqual(['1.75', '3.25']);
    // 北美 is on the ads card only; 广告 on both of the owner's
    expect((await everyRow(owner.api, { ...consume, tag: '北美' })).every((item) => item.card_id === adsCard.id)).toBe(true);
    expect((await list(owner.api, { ...consume, tag: '北美' })).total).toBe(4);
    expect((await list(owner.api, { ...consume, tag: '广告' })).total).toBe(6);
    expect((await everyRow(owner.api, { holder_member_id: member.id })).every((item) => item.card_id === membersCard.id)).toBe(true);
    expect((await list(owner.api, { ...consume, holder_member_id: member.id })).total).toBe(2);
    // a part of the name, any case
    expect((await list(owner.api, { merchant: 'meta' })).total).toBe(5);
    expect((await list(owner.api, { merchant: '%' })).total).toBe(0);
    expect((await list(owner.api, { category: '5942' })).items.map((item) => item.merchant_name)).toEqual(['Amazon']);
    expect((await list(owner.api, { ...consume, from: '2026-11-01', to: '2026-11-24' })).total).toBe(6);
    expect((await list(owner.api, { ...consume, from: '2026-11-25', to: '2026-11-25' })).items.map((item) => item.amount)).toEqual(['1.75']);
    expect((await list(owner.api, { ...consume, date_from: '2026-10-01', date_to: '2026-10-31' })).items.map((item) => item.amount)).toEqual(['4.00']);
    expect((await list(owner.api, { currency: 'CNY' })).total).toBe(0);
  });

  it('refuses filters that are no filters, with the catalogue’s code', async () => {
    for (const query of [{ from: '2026-11-30', to: '2026-11-01' }, { card_id: 'not-a-card' }, { category: 'abc' }, { holder_member_id: '42' }, { group: 'x', page_size: '1000' }]) {
      expect((await owner.api.get('/card/transactions', { query })).code, JSON.stringify(query)).toBe(ErrorCode.VALIDATION);
    }
  });

  it('shows a MEMBER only the rows of the cards they hold', async () => {
    const theirs = await everyRow(member.api, {});
    expect(theirs.length).toBe(3);
    expect(theirs.every((item) => item.card_id === membersCard.id)).toBe(true);
    expect((await list(member.api, { card_id: adsCard.id })).total).toBe(0);
    expect((await list(member.api, { holder_member_id: owner.id })).total).toBe(0);
  });

  it('exports the filtered rows as a spreadsheet: frozen header, a filter, real times and numbers', async () => {
    const exported = await t.app.inject({
      method: 'GET',
      url: '/api/v1/card/transactions/export?merchant=Meta&type=CONSUME',
      headers: { host: 'localhost', authorization: `Bearer ${owner.token}` },
    });
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-type']).toContain('spreadsheetml');
    const { default: ExcelJS } = await import('exceljs');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(exported.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    if (!sheet) throw new Error('no sheet');
    expectExportLayout(sheet, { times: ['时间'], amounts: ['金额'] });
    const headers = (sheet.getRow(1).values as unknown[]).slice(1).map(String);
    expect(headers).toEqual(expect.arrayContaining(['时间', '卡片', '类型', '状态', '金额', '商户', '商户类别']));
    expect(sheet.rowCount - 1).toBe((await list(owner.api, { merchant: 'Meta', type: 'CONSUME' })).total);
    const amounts = Array.from({ length: sheet.rowCount - 1 }, (_, index) => sheet.getRow(index + 2).getCell(headers.indexOf('金额') + 1).value);
    expect(amounts).toEqual([1.75, 7, 500, 10, 4]);
    const cards = Array.from({ length: sheet.rowCount - 1 }, (_, index) => String(sheet.getRow(index + 2).getCell(headers.indexOf('卡片') + 1).value));
    expect(cards[0]).toBe(`搜索卡（尾号 ${searchCard.last4}）`);
  }, 90_000);
});

describe('GET /card/spending-summary', () => {
  it('reads the current China-time month unless told: spend, count, declines and the rate', async () => {
    const november = await summary(owner.api);
    expect(november).toMatchObject({ from: '2026-11-01', to: '2026-11-30', currency: 'USD', group_by: 'day' });
    // approved: 10.00 + 2.50 + 3.25 + 7.00 + 1.75; declined: 500.00 and 900.00
    expect(november.total).toEqual({ amount: '24.50', count: 7, declined: 2, decline_rate: 0.2857 });
    expect(november.groups).toEqual([
      { key: '2026-11-24', label: '2026-11-24', amount: '22.75', count: 6, declined: 2 },
      { key: '2026-11-25', label: '2026-11-25', amount: '1.75', count: 1, declined: 0 },
    ]);
    const october = await summary(owner.api, { from: '2026-10-01', to: '2026-10-31' });
    expect(october.total).toEqual({ amount: '4.00', count: 1, declined: 0, decline_rate: 0 });
    // only the end given: that month from its 1st
    expect(await summary(owner.api, { to: '2026-10-20' })).toMatchObject({ from: '2026-10-01', to: '2026-10-20', total: { amount: '4.00' } });
    expect((await summary(owner.api, { currency: 'CNY' })).total).toEqual({ amount: '0.00', count: 0, declined: 0, decline_rate: 0 });
  });

  it.each(SPENDING_GROUP_BYS)('grouped by %s, each group equals the sum of its rows', async (groupBy: SpendingGroupBy) => {
    const range = { from: '2026-10-01', to: '2026-11-30' };
    const answer = await summary(owner.api, { ...range, group_by: groupBy });
    const rowsOfRange = await everyRow(owner.api, { ...range, type: 'CONSUME', currency: 'USD' });
    expect(answer.total).toMatchObject(figuresOf(rowsOfRange));
    expect(answer.groups.length).toBeGreaterThan(1);
    for (const group of answer.groups) {
      const filter: Record<string, string> =
        groupBy === 'day'
          ? { from: group.key, to: group.key }
          : groupBy === 'card'
            ? { card_id: group.key }
            : groupBy === 'holder'
              ? { holder_member_id: group.key }
              : groupBy === 'category'
                ? { category: group.key }
                : groupBy === 'merchant'
                  ? { merchant: group.key }
                  : group.key === ''
                    ? {}
                    : { tag: group.key };
      const matching =
        groupBy === 'tag' && group.key === ''
          ? rowsOfRange.filter((item) => item.card_id === membersCard.id)
          : groupBy === 'merchant'
            ? (await everyRow(owner.api, { ...range, ...filter, type: 'CONSUME' })).filter((item) => item.merchant_name === group.key)
            : await everyRow(owner.api, { ...range, ...filter, type: 'CONSUME' });
      expect({ amount: group.amount, count: group.count, declined: group.declined }, `${groupBy} ${group.key}`).toEqual(figuresOf(matching));
    }
    if (groupBy !== 'tag') {
      // every authorisation in exactly one group
      const sum = answer.groups.reduce((total, group) => total + toMinorUnits(group.amount), 0n);
      expect(fromMinorUnits(sum)).toBe(answer.total.amount);
      expect(answer.groups.reduce((total, group) => total + group.count, 0)).toBe(answer.total.count);
    }
  });

  it('names each group: cards with their last 4, members, tags, merchants and categories in 中文', async () => {
    const range = { from: '2026-10-01', to: '2026-11-30' };
    const byCard = await summary(owner.api, { ...range, group_by: 'card' });
    expect(byCard.groups[0]).toMatchObject({ key: adsCard.id, label: `广告卡（尾号 ${adsCard.last4}）`, amount: '16.50', declined: 1 });
    const byTag = await summary(owner.api, { ...range, group_by: 'tag' });
    expect(byTag.groups.map((group) => [group.label, group.amount])).toEqual([
      ['广告', '21.50'],
      ['北美', '16.50'],
      ['未加标签', '7.00'],
    ]);
    const byHolder = await summary(owner.api, { ...range, group_by: 'holder' });
    expect(byHolder.groups.map((group) => group.key)).toEqual([owner.id, member.id]);
    expect(byHolder.groups[1]?.label).toMatch(/^\d{3}\*{4}\d{4}（成员）$/);
    const byCategory = await summary(owner.api, { ...range, group_by: 'category' });
    expect(byCategory.groups.find((group) => group.key === '5942')?.label).not.toMatch(/\d/);
    expect(byCategory.groups.every((group) => group.label !== group.key)).toBe(true);
    const byMerchant = await summary(owner.api, { ...range, group_by: 'merchant' });
    expect(byMerchant.groups[0]).toMatchObject({ key: 'Meta Ads', amount: '22.75', count: 5, declined: 1 });
  });

  it('takes the list’s filters: a tag, a card, a holder', async () => {
    expect((await summary(owner.api, { tag: '北美' })).total).toEqual({ amount: '12.50', count: 3, declined: 1, decline_rate: 0.3333 });
    expect((await summary(owner.api, { card_id: searchCard.id })).total.amount).toBe('5.00');
    expect((await summary(owner.api, { holder_member_id: member.id })).total).toMatchObject({ amount: '7.00', count: 2, declined: 1 });
  });

  it('shows a MEMBER only what the cards they hold spent; another account never sees the first', async () => {
    expect((await summary(member.api)).total).toMatchObject({ amount: '7.00', count: 2, declined: 1 });
    expect((await summary(member.api, { group_by: 'card' })).groups.map((group) => group.key)).toEqual([membersCard.id]);
    expect((await summary(member.api, { holder_member_id: owner.id })).total.count).toBe(0);
    const theirs = await summary(stranger.api, { group_by: 'merchant' });
    expect(theirs.total).toMatchObject({ amount: '6.00', count: 1 });
    expect((await summary(stranger.api, { card_id: adsCard.id })).total.count).toBe(0);
  });

  it('refuses a group it does not know and a range out of order', async () => {
    expect((await owner.api.get('/card/spending-summary', { query: { group_by: 'week' } })).code).toBe(ErrorCode.VALIDATION);
    expect((await owner.api.get('/card/spending-summary', { query: { from: '2026-11-02', to: '2026-11-01' } })).code).toBe(ErrorCode.VALIDATION);
  });
});
