import { randomUUID } from 'node:crypto';
import type { CardItem, CardPage, OpenedAvailableAnswer } from '@portal/contract/cards';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.ts';
import { type AcrossFilter, type SpendKey, spendBy } from '../../src/modules/spending/across-store.ts';
import { signUp } from '../helpers/accounts.ts';
import type { ApiClient } from '../helpers/api.ts';
import { scriptedIssuerApp } from '../helpers/issuer.ts';

// The figures card_figures and card_spend_days keep with every write, against the rows they come from:
// a scripted month of authorisations, declines, settlements (lower and higher), reversals, expiries and
// refunds on three cards, across a month's end and past the 30-day window, checked at every step.

// 2026-10-20 12:00 China time
const clock = new ManualClock(new Date('2026-10-20T04:00:00Z'));
const { t, issuer } = scriptedIssuerApp(clock);

const rows = async (query: ReturnType<typeof sql>) => ((await t.database.db.execute(query)) as unknown as { rows: Array<Record<string, unknown>> }).rows;
const DAY_MS = 86_400_000;
const chinaDay = (at: Date) => Math.floor((Math.floor(at.getTime() / 1000) + 28_800) / 86_400);
const monthOfDay = (day: number) => {
  const date = new Date(day * DAY_MS);
  return date.getUTCFullYear() * 12 + date.getUTCMonth();
};

interface Owner {
  id: string;
  merchantId: string;
  api: ApiClient;
}

async function owner(): Promise<Owner> {
  const who = await signUp(t);
  const api = t.api('localhost', who.token);
  const { id } = await api.data<{ id: string }>('GET', '/account/info');
  const merchantId = String((await rows(sql`select merchant_id from accounts where id = ${id}`))[0]?.merchant_id);
  await api.data('PUT', '/card/verification', { body: { real_name: '张三', id_number: '11010519491231002X' } });
  await t.services.ledger.recharge({ merchantId, accountId: id, currency: 'USD', amount: 5000_00n, key: `fund-${id}` });
  return { id, merchantId, api };
}

let serial = 0;
async function issuedCard(who: Owner, nickname: string, tags: string[]) {
  const { products } = await who.api.data<OpenedAvailableAnswer>('GET', '/card/opened-available');
  const product = products.find((p) => p.name === '订阅支付卡');
  if (!product) throw new Error('no 订阅支付卡');
  const opened = await who.api.post<CardItem>('/card', { product_id: product.id, amount: '300.00', nickname }, { headers: { 'idempotency-key': `figures-${++serial}-${Date.now()}` } });
  expect(opened.code, opened.message).toBe(0);
  expect((await issuer.issue(opened.data.id)).status).toBe(200);
  if (tags.length > 0) await t.database.db.execute(sql`update cards set tags = ${`{${tags.join(',')}}`}::text[] where id = ${opened.data.id}`);
  return opened.data.id;
}

/** A small generator of its own seed (mulberry32): the same script every run. */
function script(seed: number) {
  let state = seed >>> 0;
  return (n: number) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = Math.imul(state ^ (state >>> 15), 1 | state);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) % n;
  };
}

interface Row {
  cardId: string;
  type: string;
  status: string;
  amount: bigint;
  authorised: boolean;
  declined: boolean;
  currency: string;
  createdAt: Date;
}

async function rowsOfCards(cardIds: string[]): Promise<Row[]> {
  const found = await rows(sql`select card_id::text as card_id, type, status, amount::text as amount, authorization_id, decline_code, currency,
      (extract(epoch from created_at) * 1000)::float8 as at
    from card_transactions where card_id in (${sql.join(
      cardIds.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})`);
  return found.map((row) => ({
    cardId: String(row.card_id),
    type: String(row.type),
    status: String(row.status),
    amount: BigInt(String(row.amount)),
    authorised: row.authorization_id !== null,
    declined: row.decline_code !== null,
    currency: String(row.currency),
    createdAt: new Date(Number(row.at)),
  }));
}

const spent = (row: Row) => (row.type === 'CONSUME' && (row.status === 'PENDING' || row.status === 'CLOSED') ? row.amount : 0n);

/** card_spend_days and card_figures, each equal to what the rows come to. */
async function expectTablesExact(cardIds: string[]) {
  const all = await rowsOfCards(cardIds);
  const consume = all.filter((row) => row.type === 'CONSUME');
  const days = new Map<string, { amount: bigint; count: number; declined: number }>();
  for (const row of consume) {
    const key = `${row.cardId} ${chinaDay(row.createdAt)} ${row.currency}`;
    const into = days.get(key) ?? { amount: 0n, count: 0, declined: 0 };
    into.amount += spent(row);
    into.count += 1;
    into.declined += row.declined ? 1 : 0;
    days.set(key, into);
  }
  const kept = await rows(sql`select card_id::text as card_id, day, currency, amount::text as amount, count, declined from card_spend_days
    where card_id in (${sql.join(
      cardIds.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})`);
  expect(new Map(kept.map((row) => [`${row.card_id} ${row.day} ${row.currency}`, { amount: BigInt(String(row.amount)), count: Number(row.count), declined: Number(row.declined) }]))).toEqual(days);

  for (const cardId of cardIds) {
    const mine = consume.filter((row) => row.cardId === cardId);
    const [figures] = await rows(sql`select spent_month, spent::text as spent, window_day, authorised, declined, authorised_before, declined_before,
        last_used_at::text as last_used, (select max(created_at)::text from card_transactions where card_id = ${cardId} and type = 'CONSUME') as newest
      from card_figures where card_id = ${cardId}`);
    if (mine.length === 0) {
      expect(figures).toBeUndefined();
      continue;
    }
    if (!figures) throw new Error(`no figures for ${cardId}`);
    const lastDay = Math.max(...mine.map((row) => chinaDay(row.createdAt)));
    const month = Math.max(...mine.map((row) => monthOfDay(chinaDay(row.createdAt))));
    expect(figures.last_used).toBe(figures.newest);
    expect(Number(figures.spent_month)).toBe(month);
    expect(BigInt(String(figures.spent))).toBe(mine.filter((row) => monthOfDay(chinaDay(row.createdAt)) === month).reduce((sum, row) => sum + spent(row), 0n));
    expect(Number(figures.window_day)).toBe(lastDay);
    const before = (counts: unknown) => counts as number[];
    for (let day = lastDay - 29; day <= lastDay; day += 1) {
      const since = mine.filter((row) => chinaDay(row.createdAt) >= day);
      const slot = day % 30;
      expect(Number(figures.authorised) - (before(figures.authorised_before)[slot] ?? Number.NaN), `authorised since day ${day}`).toBe(since.filter((row) => row.authorised).length);
      expect(Number(figures.declined) - (before(figures.declined_before)[slot] ?? Number.NaN), `declined since day ${day}`).toBe(since.filter((row) => row.declined).length);
    }
  }
}

/** What GET /card shows of each card now, and the order each figure sorts in, as counted from the rows. */
async function expectListExact(who: Owner, cardIds: string[]) {
  const now = clock.now();
  const today = chinaDay(now);
  const monthStart = Date.UTC(new Date(today * DAY_MS).getUTCFullYear(), new Date(today * DAY_MS).getUTCMonth(), 1) - 8 * 3_600_000;
  const windowStart = (today - 29) * DAY_MS - 8 * 3_600_000;
  const all = (await rowsOfCards(cardIds)).filter((row) => row.type === 'CONSUME');
  const expected = new Map(
    cardIds.map((id) => {
      const mine = all.filter((row) => row.cardId === id);
      const inWindow = mine.filter((row) => row.createdAt.getTime() >= windowStart);
      const total = inWindow.filter((row) => row.authorised).length;
      const declined = inWindow.filter((row) => row.declined).length;
      const newest = mine.reduce<Date | null>((latest, row) => (latest === null || row.createdAt > latest ? row.createdAt : latest), null);
      return [
        id,
        {
          spent: mine.filter((row) => row.createdAt.getTime() >= monthStart).reduce((sum, row) => sum + spent(row), 0n),
          rate: total === 0 ? 0 : declined / total,
          lastUsed: newest?.toISOString() ?? null,
        },
      ];
    }),
  );
  const page = await who.api.data<CardPage>('GET', '/card', { query: { page_size: '100' } });
  for (const id of cardIds) {
    const item = page.items.find((card) => card.id === id);
    const figures = expected.get(id);
    expect(item && figures, id).toBeTruthy();
    if (!item || !figures) continue;
    expect({ spent: item.spent_this_month, rate: item.decline_rate_30d, lastUsed: item.last_used_at }, `card ${id} at ${now.toISOString()}`).toEqual({
      spent: (Number(figures.spent) / 100).toFixed(2),
      rate: figures.rate,
      lastUsed: figures.lastUsed,
    });
  }
  const byFigure = (value: (id: string) => number) => [...cardIds].sort((a, b) => value(b) - value(a) || (a < b ? 1 : a > b ? -1 : 0));
  const sortedBy = async (sort: string) => (await who.api.data<CardPage>('GET', '/card', { query: { sort, page_size: '100' } })).items.map((item) => item.id);
  const of = (id: string) => expected.get(id) as { spent: bigint; rate: number; lastUsed: string | null };
  expect(await sortedBy('-spent_this_month'), 'sorted by spent this month').toEqual(byFigure((id) => Number(of(id).spent)));
  expect(await sortedBy('-decline_rate_30d'), 'sorted by the decline rate').toEqual(byFigure((id) => of(id).rate));
  expect(await sortedBy('-last_used_at'), 'sorted by last used').toEqual(byFigure((id) => (of(id).lastUsed ? Date.parse(of(id).lastUsed as string) : Number.NEGATIVE_INFINITY)));
}

/** The summary's sums from card_spend_days and from the rows, for filters each reading the days. */
async function expectRollUpMatchesRows(who: Owner, cardIds: string[]) {
  const day = (text: string) => new Date(`${text}T00:00:00+08:00`);
  const base: AcrossFilter = { merchantId: who.merchantId, accountId: who.id, ranges: [] };
  const filters: AcrossFilter[] = [
    { ...base, currency: 'USD', ranges: [{ from: day('2026-10-01'), before: day('2026-12-01') }] },
    { ...base, currency: 'USD', ranges: [{ from: day('2026-11-01'), before: day('2026-12-01') }] },
    { ...base, currency: 'USD', ranges: [{ from: day('2026-10-31'), before: day('2026-11-01') }] },
    { ...base, currency: 'CNY', ranges: [{ from: day('2026-10-01'), before: day('2026-12-01') }] },
    { ...base, ranges: [{ from: null, before: null }] },
    { ...base, currency: 'USD', tag: '广告', ranges: [{ from: day('2026-10-01'), before: day('2026-12-01') }] },
    { ...base, currency: 'USD', holderMemberId: who.id, ranges: [{ from: day('2026-10-01'), before: day('2026-12-01') }] },
    { ...base, currency: 'USD', heldBy: who.id, cardId: cardIds[1], ranges: [{ from: day('2026-10-15'), before: day('2026-11-20') }] },
  ];
  const sortedFigures = (figures: Awaited<ReturnType<typeof spendBy>>) => [...figures].sort((a, b) => a.key.localeCompare(b.key));
  let groups = 0;
  for (const filter of filters) {
    for (const key of ['day', 'card'] as SpendKey[]) {
      const rolledUp = await spendBy(t.database.db, filter, key);
      const fromRows = await spendBy(t.database.db, filter, key, { rows: true });
      expect(sortedFigures(rolledUp), `${key} ${JSON.stringify(filter)}`).toEqual(sortedFigures(fromRows));
      groups += fromRows.length;
    }
  }
  expect(groups).toBeGreaterThan(0);
}

describe('card figures kept with the writes', () => {
  it('equal what the rows come to after every authorisation, decline, settlement, reversal, expiry and refund, across a month and past the window', async () => {
    const who = await owner();
    const cardIds = [await issuedCard(who, '广告一号', ['广告']), await issuedCard(who, '广告二号', ['广告', '北美']), await issuedCard(who, '订阅卡', [])];
    await expectTablesExact(cardIds);
    const next = script(20261020);
    const pending: Array<{ authorizationId: string; amount: number }> = [];
    const settled: Array<{ authorizationId: string; cardId: string }> = [];
    const actions: string[] = [];
    for (let step = 0; step < 60; step += 1) {
      // hours to days between steps: from 20 October to about mid-December, China time
      clock.advance((1 + next(30)) * 3_600_000 + next(3_600) * 1000);
      const cardId = cardIds[next(cardIds.length)] as string;
      const choice = next(10);
      if (choice <= 3 || pending.length === 0) {
        const cents = 100 + next(2_000);
        const authorizationId = `auth_${randomUUID()}`;
        const answer = await issuer.send('authorization.request', {
          id: authorizationId,
          card_id: cardId,
          amount: (cents / 100).toFixed(2),
          currency: 'USD',
          merchant_name: 'Meta Ads',
          mcc: '7311',
          country: 'US',
        });
        expect(answer.status).toBe(200);
        if ((answer.body as unknown as { approved: boolean }).approved) pending.push({ authorizationId, amount: cents });
        actions.push('authorise');
      } else if (choice === 4) {
        // more than any card holds: declined
        const answer = await issuer.send('authorization.request', { id: `auth_${randomUUID()}`, card_id: cardId, amount: '9000.00', currency: 'USD', merchant_name: 'Shopify', mcc: '5734', country: 'US' });
        expect((answer.body as unknown as { approved: boolean }).approved).toBe(false);
        actions.push('decline');
      } else if (choice <= 6) {
        const auth = pending.splice(next(pending.length), 1)[0] as { authorizationId: string; amount: number };
        // lower, or up to 10 % higher
        const final = choice === 5 ? Math.max(1, auth.amount - 1 - next(50)) : Math.floor((auth.amount * (100 + next(11))) / 100);
        const answer = await issuer.send('transaction.settled', { id: `stl_${randomUUID()}`, authorization_id: auth.authorizationId, amount: (final / 100).toFixed(2) });
        expect(answer.status).toBe(200);
        const [row] = await rows(sql`select card_id::text as card_id from card_transactions where authorization_id = ${auth.authorizationId} and type = 'CONSUME'`);
        settled.push({ authorizationId: auth.authorizationId, cardId: String(row?.card_id) });
        actions.push(choice === 5 ? 'settle lower' : 'settle higher');
      } else if (choice === 7) {
        const auth = pending.splice(next(pending.length), 1)[0] as { authorizationId: string };
        expect((await issuer.send('authorization.reversed', { id: `rev_${randomUUID()}`, authorization_id: auth.authorizationId })).status).toBe(200);
        actions.push('reverse');
      } else if (choice === 8) {
        // the holds left pending more than two days are released
        const released = await t.services.spending.expireHolds(2);
        const still = new Set((await rows(sql`select authorization_id from card_transactions where type = 'CONSUME' and status = 'PENDING'`)).map((row) => String(row.authorization_id)));
        pending.splice(0, pending.length, ...pending.filter((auth) => still.has(auth.authorizationId)));
        actions.push(`expire ${released}`);
      } else if (settled.length > 0) {
        const original = settled[next(settled.length)] as { authorizationId: string; cardId: string };
        const refund = { id: `rf_${randomUUID()}`, card_id: original.cardId, amount: '0.50', merchant_name: 'Meta Ads', original_id: original.authorizationId };
        expect((await issuer.send('transaction.refund', refund)).status).toBe(200);
        actions.push('refund');
      }
      await expectTablesExact(cardIds);
      if (step % 6 === 5) {
        await expectListExact(who, cardIds);
        await expectRollUpMatchesRows(who, cardIds);
      }
    }
    // the script went through each kind of change, and past November's end and a whole window
    for (const kind of ['authorise', 'decline', 'settle lower', 'settle higher', 'reverse', 'refund']) expect(actions, kind).toContain(kind);
    expect(actions.some((action) => /^expire [1-9]/.test(action))).toBe(true);
    expect(chinaDay(clock.now()) - chinaDay(new Date('2026-10-20T04:00:00Z'))).toBeGreaterThan(30);

    // nothing for weeks: the month and the window pass without a write
    for (let hop = 0; hop < 9; hop += 1) {
      clock.advance(5 * DAY_MS);
      // the session kept in use (one idle for a week ends)
      await who.api.data('GET', '/account/info');
    }
    await expectListExact(who, cardIds);
    // a clock that reads before the newest authorisations: figures counted from the rows, the same way
    clock.set(new Date('2026-11-10T04:00:00Z'));
    await expectListExact(who, cardIds);
    await expectRollUpMatchesRows(who, cardIds);
  });
});
