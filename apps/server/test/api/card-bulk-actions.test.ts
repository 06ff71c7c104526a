import { randomUUID } from 'node:crypto';
import { CardBatchErrorCode } from '@portal/contract/card-batches';
import { type BulkActionAnswer, type BulkReview, bulkRechargeCost } from '@portal/contract/card-bulk';
import { CardErrorCode } from '@portal/contract/card-errors';
import { type CardItem, type CardProduct, cardTagRules, type OpenedAvailableAnswer } from '@portal/contract/cards';
import { ErrorCode } from '@portal/contract/errors';
import { errorCatalogue } from '@portal/contract/error-catalogue';
import { fromMinorUnits, toMinorUnits } from '@portal/contract/money';
import { TeamErrorCode } from '@portal/contract/team-errors';
import type { WalletTransactionItem, WalletTransactionPage } from '@portal/contract/wallet';
import { walletRowLabel } from '@portal/contract/wallet-groups';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.ts';
import type { ApiClient } from '../helpers/api.ts';
import { scriptedIssuerApp } from '../helpers/issuer.ts';
import { expectSoundBooks } from '../helpers/ledger.ts';
import { addMember } from '../helpers/members.ts';
import { queryRows } from '../helpers/sql.ts';
import { issuedCard, readyForCards, type Teammate, teamOwner } from '../helpers/team.ts';
import { until } from '../helpers/until.ts';

const clock = new ManualClock(new Date('2026-11-24T08:00:00Z'));
const { t, issuer } = scriptedIssuerApp(clock);

let serial = 0;
const key = () => `bulk-${Date.now().toString(36)}-${++serial}`;
const message = (code: number) => errorCatalogue[code]?.message ?? '';

interface Team {
  owner: Teammate;
  merchantId: string;
  product: CardProduct;
}

async function team(): Promise<Team> {
  const owner = await teamOwner(t);
  await readyForCards(t, owner);
  const [row] = await queryRows<{ merchant_id: string }>(t.database.db, sql`select merchant_id from accounts where id = ${owner.accountId}`);
  const { products } = await owner.api.data<OpenedAvailableAnswer>('GET', '/card/opened-available');
  const product = products.find((p) => p.name === '订阅支付卡') as CardProduct;
  return { owner, merchantId: String(row?.merchant_id), product };
}

async function cardsOf(who: Teammate, n: number) {
  const made: CardItem[] = [];
  for (let i = 0; i < n; i += 1) made.push(await issuedCard(who, issuer, `批量${i + 1}`));
  return made;
}

const start = (api: ApiClient, body: Record<string, unknown>, idempotency = key()) =>
  api.post<{ id: string }>('/card/bulk-actions', body, { headers: { 'idempotency-key': idempotency } });

/** Starts a bulk action and waits for its end. */
async function run(api: ApiClient, body: Record<string, unknown>) {
  const started = await start(api, body);
  expect(started.code, started.message).toBe(0);
  return ended(api, started.data.id);
}

const ended = (api: ApiClient, id: string) =>
  until(`bulk action ${id} done`, async () => {
    const now = await api.data<BulkActionAnswer>('GET', `/card/bulk-actions/${id}`);
    return now.status === 'DONE' ? now : undefined;
  });

const wallet = async (who: Teammate) => {
  const items = await who.api.data<Array<{ currency: string; available: string; anew: string }>>('GET', '/balance/account-balance');
  const usd = items.find((i) => i.currency === 'USD');
  return { available: usd?.available ?? '0.00', held: usd?.anew ?? '0.00' };
};
const card = (who: Teammate, id: string) => who.api.data<CardItem>('GET', `/card/${id}`);
const resultOf = (answer: BulkActionAnswer, id: string) => answer.items.find((item) => item.card_id === id);
const bulkRows = (accountId: string) => queryRows<{ id: string }>(t.database.db, sql`select id from card_bulk_actions where account_id = ${accountId}`);

/** A card frozen by its holder, landed. */
async function frozen(who: Teammate, id: string) {
  expect((await who.api.put(`/card/${id}/status`, { action: 'FREEZE' })).code).toBe(0);
  await issuer.frozen(id);
}

/** A card cancelled, landed (what it held back in the wallet). */
async function cancelled(who: Teammate, id: string) {
  const answer = await who.api.request('DELETE', `/card/${id}`, { body: {} });
  expect(answer.code, answer.message).toBe(0);
  await issuer.closed(id);
}

describe('POST /card/bulk-actions: status actions', () => {
  it('freezes every card it may, fails the one that changed state with its reason, answers the same id for a replay and starts nothing again', async () => {
    const { owner } = await team();
    const [a, b, c] = await cardsOf(owner, 3);
    await frozen(owner, (c as CardItem).id);
    const ids = [a, b, c].map((one) => (one as CardItem).id);
    const idempotency = key();
    const freezes = () => issuer.requests.filter((r) => r.kind === 'freeze' && ids.includes(r.cardId)).length;
    const before = freezes();
    const started = await start(owner.api, { action: 'FREEZE', card_ids: ids }, idempotency);
    expect(started.code, started.message).toBe(0);
    const done = await ended(owner.api, started.data.id);
    expect(done).toMatchObject({ id: started.data.id, action: 'FREEZE', status: 'DONE', total: 3, succeeded: 2, failed: 1 });
    expect(resultOf(done, ids[2] as string)?.reason).toContain('冻结');
    expect(resultOf(done, ids[0] as string)).toEqual({ card_id: ids[0], status: 'SUCCEEDED', reason: null });
    expect((await card(owner, ids[0] as string)).status).toBe('FREEZING');
    const asked = freezes();
    expect(asked - before).toBe(2);

    const again = await start(owner.api, { action: 'FREEZE', card_ids: ids }, idempotency);
    expect(again.data.id).toBe(started.data.id);
    expect(await bulkRows(owner.accountId)).toHaveLength(1);
    expect(freezes()).toBe(asked);
    expect((await start(owner.api, { action: 'UNFREEZE', card_ids: ids }, idempotency)).code).toBe(ErrorCode.IDEMPOTENCY_CONFLICT);

    // one message at the end, to who started it, with the counts
    const messages = await queryRows<{ title: string; member_id: string }>(
      t.database.db,
      sql`select title, member_id from station_messages where account_id = ${owner.accountId} and type = 'BULK_ACTION_RESULT'`,
    );
    expect(messages).toEqual([{ title: '批量冻结完成：成功 2 张，失败 1 张', member_id: owner.memberId }]);
    // the call is in the activity log
    const log = await queryRows<{ summary: string }>(t.database.db, sql`select summary from activity_log where account_id = ${owner.accountId} and action = 'CARD_BULK_FREEZE'`);
    expect(log).toEqual([{ summary: '批量冻结 3 张卡片' }]);
  });

  it('unfreezes the frozen cards and fails the one in use; cancels with one the issuer would not take failing', async () => {
    const { owner } = await team();
    const [a, b, c] = await cardsOf(owner, 3);
    const ids = [a, b, c].map((one) => (one as CardItem).id) as [string, string, string];
    await frozen(owner, ids[0]);
    await frozen(owner, ids[1]);
    const unfrozen = await run(owner.api, { action: 'UNFREEZE', card_ids: ids });
    expect(unfrozen).toMatchObject({ succeeded: 2, failed: 1 });
    expect(resultOf(unfrozen, ids[2])?.reason).toContain('解冻');

    await issuer.unfrozen(ids[0]);
    await issuer.unfrozen(ids[1]);
    issuer.state.refusing.add(ids[1]);
    const before = await wallet(owner);
    const gone = await run(owner.api, { action: 'CANCEL', card_ids: ids, trx_password: undefined });
    issuer.state.refusing.delete(ids[1]);
    expect(gone).toMatchObject({ succeeded: 2, failed: 1 });
    expect(resultOf(gone, ids[1])?.reason).toBe(message(CardErrorCode.ISSUER_UNAVAILABLE));
    expect((await card(owner, ids[1])).status).toBe('NORMAL');
    await issuer.closed(ids[0]);
    await issuer.closed(ids[2]);
    // the two cancelled cards' 20.00 each came back
    expect(toMinorUnits((await wallet(owner)).available) - toMinorUnits(before.available)).toBe(40_00n);
    await expectSoundBooks(t.database.db);
  });
});

describe('POST /card/bulk-actions: money', () => {
  it('holds the whole top-up cost first, draws each card from it, releases what a failed card did not use, to the cent', async () => {
    const { owner, product } = await team();
    const [a, b, c] = await cardsOf(owner, 3);
    const ids = [a, b, c].map((one) => (one as CardItem).id) as [string, string, string];
    await cancelled(owner, ids[2]);
    const before = await wallet(owner);
    expect(before.held).toBe('0.00');

    const body = { action: 'RECHARGE', card_ids: ids, params: { amount: '15.00' } };
    const review = await owner.api.data<BulkReview>('POST', '/card/bulk-actions/review', { body });
    const each = bulkRechargeCost([{ currency: 'USD', product, amount: 15_00n }]).byCurrency.get('USD');
    const fee = each?.fee ?? 0n;
    expect(review).toEqual({
      action: 'RECHARGE',
      total: 3,
      money: [
        {
          currency: 'USD',
          cards: 3,
          amount: '45.00',
          fee: fromMinorUnits(fee * 3n),
          total: fromMinorUnits(45_00n + fee * 3n),
          wallet_available: before.available,
          wallet_after: fromMinorUnits(toMinorUnits(before.available) - 45_00n - fee * 3n),
        },
      ],
    });

    const done = await run(owner.api, body);
    expect(done).toMatchObject({ succeeded: 2, failed: 1 });
    expect(resultOf(done, ids[2])?.reason).toContain('充值');
    const after = await wallet(owner);
    expect(after.held).toBe('0.00');
    expect(toMinorUnits(before.available) - toMinorUnits(after.available)).toBe(2n * (15_00n + fee));
    expect((await card(owner, ids[0])).balance).toBe('35.00');
    // one hold per card, the failed card's released
    const holds = await queryRows<{ status: string; n: number }>(
      t.database.db,
      sql`select h.status, count(*)::int as n from ledger_holds h join card_bulk_items i on i.hold_id = h.id where i.card_id in (${sql.join(ids.map((id) => sql`${id}::uuid`), sql`, `)}) group by h.status order by h.status`,
    );
    expect(holds).toEqual([
      { status: 'POSTED', n: 2 },
      { status: 'RELEASED', n: 1 },
    ]);
    // the wallet's list: the top-ups are one row, 批量充值 2 张, that opens to each card's
    const list = await owner.api.data<WalletTransactionPage>('GET', '/balance/transactions', { query: { page_size: '5' } });
    const [row] = list.items;
    expect(row).toMatchObject({ type: 'TRANSFER_OUT_TO_CARD', amount: fromMinorUnits(-2n * (15_00n + fee)), group: { kind: 'CARD_BULK_RECHARGE', id: done.id, count: 2, parts: 2 } });
    expect(walletRowLabel(row as WalletTransactionItem)).toBe('批量充值 2 张');
    const parts = await owner.api.data<WalletTransactionPage>('GET', '/balance/transactions', { query: { group_kind: 'CARD_BULK_RECHARGE', group_id: done.id } });
    expect(parts.items.map((part) => part.amount)).toEqual([fromMinorUnits(-(15_00n + fee)), fromMinorUnits(-(15_00n + fee))]);
    await expectSoundBooks(t.database.db);
  });

  it('tops up to a target balance, failing a card already there, and withdraws an amount or everything', async () => {
    const { owner } = await team();
    const [a, b] = await cardsOf(owner, 2);
    const ids = [a, b].map((one) => (one as CardItem).id) as [string, string];
    await run(owner.api, { action: 'RECHARGE', card_ids: [ids[1]], params: { amount: '40.00' } });
    expect((await card(owner, ids[1])).balance).toBe('60.00');
    const target = await run(owner.api, { action: 'RECHARGE', card_ids: ids, params: { target_balance: '50.00' } });
    expect(target).toMatchObject({ succeeded: 1, failed: 1 });
    expect(resultOf(target, ids[1])?.reason).toBe(message(CardBatchErrorCode.BULK_TARGET_REACHED));
    expect((await card(owner, ids[0])).balance).toBe('50.00');
    expect((await wallet(owner)).held).toBe('0.00');

    const some = await run(owner.api, { action: 'WITHDRAW', card_ids: ids, params: { amount: '55.00' } });
    expect(some).toMatchObject({ succeeded: 1, failed: 1 });
    expect((await card(owner, ids[1])).balance).toBe('5.00');
    const before = await wallet(owner);
    const all = await run(owner.api, { action: 'WITHDRAW', card_ids: ids, params: { all: true } });
    expect(all).toMatchObject({ succeeded: 2, failed: 0 });
    expect((await card(owner, ids[0])).balance).toBe('0.00');
    expect(toMinorUnits((await wallet(owner)).available) - toMinorUnits(before.available)).toBe(55_00n);
    const nothing = await run(owner.api, { action: 'WITHDRAW', card_ids: ids, params: { all: true } });
    expect(nothing).toMatchObject({ succeeded: 0, failed: 2 });
    expect(resultOf(nothing, ids[0])?.reason).toBe(message(CardBatchErrorCode.BULK_NOTHING_TO_WITHDRAW));
    await expectSoundBooks(t.database.db);
  });

  it('tries a card again after an error no rule names, ends it failed after three tries, and releases its hold: the action still ends', async () => {
    const { owner } = await team();
    const [a, b] = await cardsOf(owner, 2);
    const ids = [a, b].map((one) => (one as CardItem).id) as [string, string];
    const before = await wallet(owner);
    const recharge = t.services.cards.recharge;
    const tries = new Map<string, number>();
    // a fault of the top-up itself (not a refusal by the card's rules): the first card's first try, and every try of the second
    t.services.cards.recharge = async (...args: Parameters<typeof recharge>) => {
      const id = args[2];
      tries.set(id, (tries.get(id) ?? 0) + 1);
      if (id === ids[1] || tries.get(id) === 1) throw new Error('the connection was lost');
      return recharge(...args);
    };
    try {
      const done = await run(owner.api, { action: 'RECHARGE', card_ids: ids, params: { amount: '10.00' } });
      expect(done).toMatchObject({ status: 'DONE', succeeded: 1, failed: 1 });
      expect(resultOf(done, ids[0])).toEqual({ card_id: ids[0], status: 'SUCCEEDED', reason: null });
      expect(resultOf(done, ids[1])?.reason).toBe('操作未能完成，请稍后单独处理此卡');
      expect(tries.get(ids[0])).toBe(2);
      expect(tries.get(ids[1])).toBe(3);
    } finally {
      t.services.cards.recharge = recharge;
    }
    expect((await card(owner, ids[0])).balance).toBe('30.00');
    expect((await card(owner, ids[1])).balance).toBe('20.00');
    // the wallet paid one top-up and its fee; the failed card's share is back, nothing left held
    const after = await wallet(owner);
    expect(after.held).toBe(before.held);
    const fee = toMinorUnits((await card(owner, ids[0])).balance) - 20_00n;
    expect(toMinorUnits(before.available) - toMinorUnits(after.available)).toBeGreaterThanOrEqual(fee);
    expect(toMinorUnits(before.available) - toMinorUnits(after.available)).toBeLessThan(20_00n);
    await expectSoundBooks(t.database.db);
  });

  it('refuses a top-up the wallet cannot pay whole, holding nothing and starting nothing', async () => {
    const { owner } = await team();
    const cards = await cardsOf(owner, 2);
    const before = await wallet(owner);
    const refused = await start(owner.api, { action: 'RECHARGE', card_ids: cards.map((one) => one.id), params: { amount: '900.00' } });
    expect(refused.code).toBe(ErrorCode.INSUFFICIENT_FUNDS);
    expect(await wallet(owner)).toEqual(before);
    expect(await bulkRows(owner.accountId)).toHaveLength(0);
  });
});

describe('POST /card/bulk-actions: settings', () => {
  it('sets controls, tags and the holder on every card still open, failing the cancelled one with its reason', async () => {
    const { owner } = await team();
    const made = await cardsOf(owner, 3);
    const ids = made.map((one) => one.id) as [string, string, string];
    await cancelled(owner, ids[2]);
    const ended = message(CardBatchErrorCode.BULK_CARD_ENDED);

    const controls = { single_limit: '50.00', daily_limit: '100.00', monthly_limit: null, blocked_categories: [], allowed_countries: ['US'] };
    const set = await run(owner.api, { action: 'SET_CONTROLS', card_ids: ids, params: controls });
    expect(set).toMatchObject({ succeeded: 2, failed: 1 });
    expect(resultOf(set, ids[2])?.reason).toBe(ended);
    expect(await owner.api.data('GET', `/card/${ids[0]}/controls`)).toMatchObject({ single_limit: '50.00', allowed_countries: ['US'] });

    const added = await run(owner.api, { action: 'ADD_TAGS', card_ids: ids, params: { tags: ['广告', '美国'] } });
    expect(added).toMatchObject({ succeeded: 2, failed: 1 });
    const tagsOf = async (id: string) => (await queryRows<{ tags: string[] }>(t.database.db, sql`select tags from cards where id = ${id}`))[0]?.tags;
    expect(await tagsOf(ids[0])).toEqual(['广告', '美国']);
    const many = Array.from({ length: cardTagRules.perCard - 1 }, (_, i) => `标签${i}`);
    const full = await run(owner.api, { action: 'ADD_TAGS', card_ids: [ids[0], ids[1]], params: { tags: many } });
    expect(full).toMatchObject({ succeeded: 0, failed: 2 });
    expect(resultOf(full, ids[0])?.reason).toBe(`每张卡片最多${cardTagRules.perCard}个标签`);
    const removed = await run(owner.api, { action: 'REMOVE_TAGS', card_ids: ids, params: { tags: ['广告'] } });
    expect(removed).toMatchObject({ succeeded: 2, failed: 1 });
    expect(await tagsOf(ids[1])).toEqual(['美国']);

    const mate = await addMember(t.database.db, t.services.sessions, owner.accountId, 'MEMBER');
    const given = await run(owner.api, { action: 'SET_HOLDER', card_ids: ids, params: { holder_member_id: mate.id } });
    expect(given).toMatchObject({ succeeded: 2, failed: 1 });
    expect((await card(owner, ids[0])).holder_member_id).toBe(mate.id);
    const nobody = await start(owner.api, { action: 'SET_HOLDER', card_ids: ids, params: { holder_member_id: randomUUID() } });
    expect(nobody.code).toBe(TeamErrorCode.HOLDER_INVALID);
  });
});

describe('POST /card/bulk-actions: who and how many', () => {
  it("refuses a MEMBER's call naming others' cards in the review, whole, with how many and why; acts on their own", async () => {
    const { owner } = await team();
    const added = await addMember(t.database.db, t.services.sessions, owner.accountId, 'MEMBER');
    const mate: Teammate = { ...owner, api: t.api('localhost', added.token), memberId: added.id, role: 'MEMBER', token: added.token, phone: added.phone };
    const own = await cardsOf(mate, 1);
    const others = await cardsOf(owner, 2);
    const before = await wallet(owner);
    const refused = await start(mate.api, { action: 'RECHARGE', card_ids: [...own, ...others].map((one) => one.id), params: { amount: '5.00' } });
    expect(refused.code).toBe(CardBatchErrorCode.BULK_CARDS_REFUSED);
    expect(refused.message).toBe('其中2张卡片由其他成员持有，您只能操作自己持有的卡片，本次批量操作未执行');
    expect(await wallet(owner)).toEqual(before);
    expect(await bulkRows(owner.accountId)).toHaveLength(0);
    // a role without the action is refused whole
    expect((await start(mate.api, { action: 'SET_HOLDER', card_ids: [own[0]?.id], params: { holder_member_id: mate.memberId } })).code).toBe(TeamErrorCode.PERMISSION_DENIED);
    // by the filter, a MEMBER's own cards only
    const frozenAll = await run(mate.api, { action: 'FREEZE', filter: {} });
    expect(frozenAll).toMatchObject({ total: 1, succeeded: 1 });
    expect(frozenAll.items.map((item) => item.card_id)).toEqual([own[0]?.id]);
    // another member's bulk action is not theirs to read
    const ownerRun = await run(owner.api, { action: 'ADD_TAGS', card_ids: [others[0]?.id], params: { tags: ['x'] } });
    expect((await mate.api.get(`/card/bulk-actions/${ownerRun.id}`)).code).toBe(CardBatchErrorCode.BULK_NOT_FOUND);
  });

  it("never touches another account's cards: refused in the review, and absent from a filter", async () => {
    const first = await team();
    const second = await team();
    const mine = await cardsOf(first.owner, 1);
    const theirs = await cardsOf(second.owner, 1);
    const refused = await start(first.owner.api, { action: 'FREEZE', card_ids: [mine[0]?.id, theirs[0]?.id] });
    expect(refused.code).toBe(CardBatchErrorCode.BULK_CARDS_REFUSED);
    expect(refused.message).toContain('1张卡片不存在或不属于本账户');
    const byFilter = await run(first.owner.api, { action: 'FREEZE', filter: { status: 'NORMAL' } });
    expect(byFilter.items.map((item) => item.card_id)).toEqual([mine[0]?.id]);
    expect((await card(second.owner, theirs[0]?.id as string)).status).toBe('NORMAL');
    expect((await second.owner.api.get(`/card/bulk-actions/${byFilter.id}`)).code).toBe(CardBatchErrorCode.BULK_NOT_FOUND);
  });

  it('refuses a filter matching more than 1,000 cards with the count, and more than 1,000 ids', async () => {
    const { owner } = await team();
    const [one] = await cardsOf(owner, 1);
    // cards as many as the limit allows and one more, made straight in the table: only their count matters here
    await t.database.db.execute(sql`
      insert into cards (merchant_id, account_id, product_id, holder_member_id, nickname, brand, currency, status, open_key, open_fingerprint, first_load, open_fee, topup_fee,
        topup_fee_rate, topup_fee_fixed, topup_fee_min, topup_fee_max, decline_fee)
      select merchant_id, account_id, product_id, holder_member_id, 'many-' || n, brand, currency, 'NORMAL', 'many-' || n, 'x', 0, 0, 0,
        topup_fee_rate, topup_fee_fixed, topup_fee_min, topup_fee_max, decline_fee
      from cards, generate_series(1, 1000) as n where id = ${one?.id}`);
    const refused = await start(owner.api, { action: 'FREEZE', filter: { status: 'NORMAL' } });
    expect(refused.code).toBe(CardBatchErrorCode.BULK_TOO_MANY_CARDS);
    expect(refused.message).toBe('所选卡片共1001张，单次批量操作最多1000张，请缩小筛选范围');
    expect(refused.data).toEqual({ count: 1001, max: 1000 });
    const tooMany = await start(owner.api, { action: 'FREEZE', card_ids: Array.from({ length: 1001 }, (_, i) => `id-${i}`) });
    expect(tooMany.code).toBe(ErrorCode.VALIDATION);
    expect(await bulkRows(owner.accountId)).toHaveLength(0);
  });
});
