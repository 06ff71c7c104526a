import type { CardItem, CardPage, OpenedAvailableAnswer } from '@portal/contract/cards';
import { CARD_SORTS, type CardSort, parseCardSort } from '@portal/contract/card-list';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { figureMoment } from '../../src/db/card-figures.ts';
import { ManualClock } from '../../src/lib/clock.ts';
import { signUp } from '../helpers/accounts.ts';
import type { ApiClient } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { scriptedIssuer } from '../helpers/issuer.ts';

// Far pages of GET /card are read from the other end of the sort and turned round (cards/store.ts
// pageCards): every page of every sort, joined, must be the one order the figures answered say, with
// no card twice and none left out.
const clock = new ManualClock(new Date('2026-11-24T08:00:00Z'));
const issuer = scriptedIssuer();
const CARDS = 263;
const PAGE_SIZE = 20;
let t: TestApp;
let owner: ApiClient;

beforeAll(async () => {
  t = await createTestApp({ clock, issuer: issuer.port });
  issuer.attach(t);
  const who = await signUp(t);
  owner = t.api('localhost', who.token);
  const { id: accountId } = await owner.data<{ id: string }>('GET', '/account/info');
  await owner.data('PUT', '/card/verification', { body: { real_name: '张三', id_number: '11010519491231002X', latin_name: 'Zhang San', website: 'https://shop.example' } });
  const exec = async (query: ReturnType<typeof sql>) => ((await t.database.db.execute(query)) as unknown as { rows: Array<Record<string, unknown>> }).rows;
  const merchantId = String((await exec(sql`select merchant_id from accounts where id = ${accountId}`))[0]?.merchant_id);
  await t.services.ledger.recharge({ merchantId, accountId, currency: 'USD', amount: 1000_00n, key: `fund-${accountId}` });
  const { products } = await owner.data<OpenedAvailableAnswer>('GET', '/card/opened-available');
  const product = products[0];
  if (!product) throw new Error('no product');
  for (const amount of ['30.00', '10.00']) {
    const opened = await owner.post<CardItem>('/card', { product_id: product.id, amount, nickname: `卡${amount}` }, { headers: { 'idempotency-key': randomUUID() } });
    expect(opened.code, opened.message).toBe(0);
    await issuer.issue(opened.data.id);
  }
  const spent = await issuer.send('authorization.request', {
    id: `auth_${randomUUID()}`,
    card_id: (await owner.data<CardPage>('GET', '/card')).items[0]?.id,
    amount: '4.00',
    currency: 'USD',
    merchant_name: 'Meta Ads',
    mcc: '7311',
    country: 'US',
  });
  expect(spent.status).toBe(200);
  // the rest written straight into the tables: copies of the first card, a second apart, every third
  // with figures of its own (spent this month, the window's counts, a last use), the others with none
  const at = figureMoment(clock.now());
  await exec(sql`
    insert into cards (merchant_id, account_id, product_id, holder_member_id, nickname, brand, bin, currency, status, last4,
      open_key, open_fingerprint, first_load, open_fee, topup_fee, topup_fee_rate, topup_fee_fixed, topup_fee_min, topup_fee_max, decline_fee, created_at, updated_at)
    select c.merchant_id, c.account_id, c.product_id, c.holder_member_id, '副本' || n, c.brand, c.bin, c.currency, c.status, lpad(n::text, 4, '0'),
      'copy-' || n, c.open_fingerprint, c.first_load, c.open_fee, c.topup_fee,
      c.topup_fee_rate, c.topup_fee_fixed, c.topup_fee_min, c.topup_fee_max, c.decline_fee, c.created_at - n * interval '1 second', c.created_at
    from (select * from cards where account_id = ${accountId} order by created_at limit 1) c, generate_series(1, ${CARDS - 2}) n`);
  await exec(sql`
    insert into card_figures (card_id, account_id, spent_month, spent, window_day, authorised, declined, authorised_before, declined_before, last_used_at)
    select c.id, c.account_id, ${at.month}, (n % 7) * 150, ${at.firstDay + 29}, n % 5, least(n % 3, n % 5),
      array_fill(0, array[30]), array_fill(0, array[30]), ${clock.now().toISOString()}::timestamptz - (n % 11) * interval '1 minute'
    from (select id, account_id, row_number() over (order by id) as n from cards where account_id = ${accountId} and open_key like 'copy-%') c
    where c.n % 3 = 0`);
});
afterAll(() => t?.close());

const figureOf = (item: CardItem, key: ReturnType<typeof parseCardSort>['key']): number | null => {
  if (key === 'balance') return Number(item.balance);
  if (key === 'spent_this_month') return Number(item.spent_this_month);
  if (key === 'decline_rate_30d') return item.decline_rate_30d;
  if (key === 'created_at') return Date.parse(item.created_at);
  return item.last_used_at === null ? null : Date.parse(item.last_used_at);
};

/** The order a sort promises: the figure (a card without one first going up, last going down), then the id the same way. */
function expectedOrder(items: CardItem[], sort: CardSort): string[] {
  const { key, descending } = parseCardSort(sort);
  const sign = descending ? -1 : 1;
  return [...items]
    .sort((a, b) => {
      const x = figureOf(a, key);
      const y = figureOf(b, key);
      if (x !== y) {
        if (x === null) return -sign;
        if (y === null) return sign;
        return sign * (x - y);
      }
      return sign * (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
    })
    .map((item) => item.id);
}

describe('GET /card, every page of every sort', () => {
  it.each(CARD_SORTS.map((sort) => [sort]))('sort=%s joins into one order, far pages included', async (sort) => {
    const pages: CardPage[] = [];
    for (let page = 1; page <= Math.ceil(CARDS / PAGE_SIZE); page++) {
      pages.push(await owner.data<CardPage>('GET', `/card?${new URLSearchParams({ sort, page: String(page), page_size: String(PAGE_SIZE) })}`));
    }
    const items = pages.flatMap((page) => page.items);
    expect(pages.every((page) => page.total === CARDS)).toBe(true);
    expect(new Set(items.map((item) => item.id)).size).toBe(CARDS);
    expect(items.map((item) => item.id)).toEqual(expectedOrder(items, sort));
    // the last page is short, and a page past the end is empty with the total still right
    expect(pages.at(-1)?.items).toHaveLength(CARDS % PAGE_SIZE);
    const past = await owner.data<CardPage>('GET', `/card?${new URLSearchParams({ sort, page: '99', page_size: String(PAGE_SIZE) })}`);
    expect(past).toMatchObject({ items: [], total: CARDS });
  });

  it('reads a far page of a filter from its end as well', async () => {
    const filter = { keyword: '副本', sort: '-spent_this_month', page_size: '10' };
    const all: CardItem[] = [];
    for (let page = 1; page <= 27; page++) all.push(...(await owner.data<CardPage>('GET', `/card?${new URLSearchParams({ ...filter, page: String(page) })}`)).items);
    expect(all).toHaveLength(CARDS - 2);
    expect(all.map((item) => item.id)).toEqual(expectedOrder(all, '-spent_this_month'));
  });
});
