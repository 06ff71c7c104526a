import { randomUUID } from 'node:crypto';
import type { CardControls } from '@portal/contract/card-spending';
import { CardErrorCode } from '@portal/contract/card-errors';
import type { CardItem, CardPage, CardTransactionPage, OpenedAvailableAnswer } from '@portal/contract/cards';
import { ErrorCode } from '@portal/contract/errors';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.ts';
import { signUp } from '../helpers/accounts.ts';
import type { ApiClient } from '../helpers/api.ts';
import { createTestApp, logCollector, type TestApp } from '../helpers/app.ts';
import { scriptedIssuer } from '../helpers/issuer.ts';
import { booksSnapshot, expectSoundBooks } from '../helpers/ledger.ts';
import { chinaTimeCell, expectExportLayout } from '../helpers/xlsx.ts';

// 2026-11-24 16:00 China time: the days of the limits are China time (UTC+8)
const clock = new ManualClock(new Date('2026-11-24T08:00:00Z'));
const issuer = scriptedIssuer();
// the server's log lines, to show what is never in them
const log = logCollector();
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock, issuer: issuer.port, logStream: log.stream });
  issuer.attach(t);
});
afterAll(() => t?.close());

let serial = 0;
const rows = async (query: ReturnType<typeof sql>) => ((await t.database.db.execute(query)) as unknown as { rows: Array<Record<string, unknown>> }).rows;

interface Customer {
  id: string;
  token: string;
  host: string;
  api: ApiClient;
  merchantId: string;
}

async function customer(usd = 100_00n, host = 'localhost'): Promise<Customer> {
  const who = await signUp(t, host);
  const api = t.api(host, who.token);
  const { id } = await api.data<{ id: string }>('GET', '/account/info');
  const merchantId = String((await rows(sql`select merchant_id from accounts where id = ${id}`))[0]?.merchant_id);
  await api.data('PUT', '/card/verification', { body: { real_name: '张三', id_number: '11010519491231002X' } });
  if (usd > 0n) await t.services.ledger.recharge({ merchantId, accountId: id, currency: 'USD', amount: usd, key: `fund-${id}` });
  return { id, token: who.token, host, api, merchantId };
}

/** An issued 订阅支付卡 (USD, open fee 2.00, top-up 1 % + 0.30, decline fee 0.30) loaded with `amount`. */
async function issuedCard(who: Customer, amount = '50.00') {
  const { products } = await who.api.data<OpenedAvailableAnswer>('GET', '/card/opened-available');
  const product = products.find((p) => p.name === '订阅支付卡');
  if (!product) throw new Error('no 订阅支付卡');
  const opened = await who.api.post<CardItem>('/card', { product_id: product.id, amount, nickname: '消费卡' }, { headers: { 'idempotency-key': `spend-${++serial}-${Date.now()}` } });
  expect(opened.code, opened.message).toBe(0);
  expect((await issuer.issue(opened.data.id)).status).toBe(200);
  return who.api.data<CardItem>('GET', `/card/${opened.data.id}`);
}

const authorize = (cardId: string, amount: string, more: Record<string, unknown> = {}, options: { id?: string } = {}) => {
  const authorization = { id: `auth_${randomUUID()}`, card_id: cardId, amount, currency: 'USD', merchant_name: 'Meta Ads', mcc: '7311', country: 'US', ...more };
  // each authorisation a second after the one before, so the newest-first lists have one order
  clock.advance(1000);
  return issuer.send('authorization.request', authorization, options).then((answer) => ({ ...answer, authorizationId: authorization.id, decision: answer.body as unknown as { approved: boolean; decline_code?: string } }));
};
const settle = (authorizationId: string, amount: string, options: { id?: string } = {}) => {
  clock.advance(1000);
  return issuer.send('transaction.settled', { id: `stl_${randomUUID()}`, authorization_id: authorizationId, amount }, options);
};
const reverse = (authorizationId: string) => issuer.send('authorization.reversed', { id: `rev_${randomUUID()}`, authorization_id: authorizationId });

const exportOf = (who: Customer, cardId: string, query = '') =>
  t.app.inject({ method: 'GET', url: `/api/v1/card/${cardId}/transactions/export${query}`, headers: { host: who.host, authorization: `Bearer ${who.token}` } });
const cardOf = (who: Customer, id: string) => who.api.data<CardItem>('GET', `/card/${id}`);
const transactions = (who: Customer, id: string, query: Record<string, string> = {}) => who.api.data<CardTransactionPage>('GET', `/card/${id}/transactions`, { query });
const walletOf = async (who: Customer) => {
  const items = await who.api.data<Array<{ currency: string; available: string }>>('GET', '/balance/account-balance');
  return items.find((item) => item.currency === 'USD')?.available ?? '0.00';
};
const setControls = (who: Customer, id: string, body: Partial<Record<string, unknown>>) =>
  who.api.put<CardControls>(`/card/${id}/controls`, { single_limit: null, daily_limit: null, monthly_limit: null, blocked_categories: [], allowed_countries: [], ...body });

describe('authorization.request', () => {
  it('approves from the card: the amount held (PENDING CONSUME) and answered {approved: true} in the response', async () => {
    const who = await customer();
    const card = await issuedCard(who);
    const answer = await authorize(card.id, '12.34');
    expect(answer.status).toBe(200);
    expect(answer.decision).toEqual({ approved: true });
    expect(await cardOf(who, card.id)).toMatchObject({ balance: '37.66', held: '12.34' });
    const { items } = await transactions(who, card.id, { type: 'CONSUME' });
    expect(items).toEqual([
      expect.objectContaining({ type: 'CONSUME', status: 'PENDING', amount: '12.34', merchant_name: 'Meta Ads', mcc: '7311', country: 'US', authorization_id: answer.authorizationId, decline_code: null, decline_fix: null }),
    ]);
    await expectSoundBooks(t.database.db);
  });

  it('declines for each reason with its 中文 reason and fix, a station message, and the decline fee once per authorisation', async () => {
    const who = await customer();
    const card = await issuedCard(who, '20.00');
    const unknownCard = await authorize(randomUUID(), '1.00');
    expect(unknownCard.decision).toEqual({ approved: false, decline_code: 'ISSUER_DECLINED' });

    const cases: Array<[string, () => Promise<unknown>, Record<string, unknown>, string]> = [
      ['INSUFFICIENT_FUNDS', async () => {}, { amount: '20.01' }, '卡片余额不足'],
      ['CURRENCY_MISMATCH', async () => {}, { currency: 'CNY' }, '交易币种与卡片币种不符'],
      ['OVER_SINGLE_LIMIT', () => setControls(who, card.id, { single_limit: '5.00' }), { amount: '5.01' }, '超出单笔限额'],
      ['CATEGORY_BLOCKED', () => setControls(who, card.id, { blocked_categories: ['GAMBLING'] }), { mcc: '7995' }, '商户类别受限'],
      ['COUNTRY_BLOCKED', () => setControls(who, card.id, { allowed_countries: ['US', 'GB'] }), { country: 'CN' }, '交易地区受限'],
    ];
    let fees = 0;
    for (const [code, prepare, more, reason] of cases) {
      await prepare();
      const before = await walletOf(who);
      const answer = await authorize(card.id, '1.00', more);
      expect(answer.decision, code).toEqual({ approved: false, decline_code: code });
      fees += 1;
      expect(Number(before) - Number(await walletOf(who))).toBeCloseTo(0.3, 6);
      const [row] = (await transactions(who, card.id, { status: 'FAIL' })).items;
      expect(row).toMatchObject({ status: 'FAIL', decline_code: code, decline_reason: reason, authorization_id: answer.authorizationId });
      expect(row?.decline_fix).toMatch(/./);
      await setControls(who, card.id, {});
    }
    const messages = await rows(sql`select title, content from station_messages where account_id = ${who.id} and type = 'CARD_DECLINED'`);
    expect(messages).toHaveLength(fees);
    expect(JSON.stringify(messages)).toContain('超出单笔限额');
    expect(JSON.stringify(messages)).toContain('Meta Ads');
    expect(JSON.stringify(messages)).toContain('调整卡片的单笔限额');

    // frozen, then closed
    expect((await who.api.put(`/card/${card.id}/status`, { action: 'FREEZE' })).code).toBe(0);
    expect((await authorize(card.id, '1.00')).decision).toEqual({ approved: false, decline_code: 'CARD_FROZEN' });
    await issuer.frozen(card.id);
    expect((await authorize(card.id, '1.00')).decision).toEqual({ approved: false, decline_code: 'CARD_FROZEN' });
    expect((await who.api.delete(`/card/${card.id}`)).code).toBe(0);
    expect((await authorize(card.id, '1.00')).decision).toEqual({ approved: false, decline_code: 'CARD_CLOSED' });
    await expectSoundBooks(t.database.db);
  });

  it('a repeated event id, or the same authorisation under another id, answers the first decision and moves nothing', async () => {
    const who = await customer();
    const card = await issuedCard(who, '20.00');
    const eventId = `evt_${randomUUID()}`;
    const first = await authorize(card.id, '15.00', { id: 'auth_same' }, { id: eventId });
    expect(first.decision).toEqual({ approved: true });
    const again = await issuer.send('authorization.request', JSON.parse(first.raw).data, { id: eventId });
    expect(again.body).toEqual({ approved: true });
    const otherEvent = await authorize(card.id, '15.00', { id: 'auth_same' });
    expect(otherEvent.decision).toEqual({ approved: true });
    expect(await cardOf(who, card.id)).toMatchObject({ balance: '5.00', held: '15.00' });

    const declined = await authorize(card.id, '6.00', { id: 'auth_declined' });
    expect(declined.decision).toEqual({ approved: false, decline_code: 'INSUFFICIENT_FUNDS' });
    const wallet = await walletOf(who);
    expect((await authorize(card.id, '6.00', { id: 'auth_declined' })).decision).toEqual({ approved: false, decline_code: 'INSUFFICIENT_FUNDS' });
    expect(await walletOf(who)).toBe(wallet);
    expect((await transactions(who, card.id, { type: 'CONSUME' })).total).toBe(2);
    // a declined one's event id again: the same decline, no second fee, no second row
    const declinedAgain = await issuer.send('authorization.request', JSON.parse(declined.raw).data, { id: JSON.parse(declined.raw).id });
    expect(declinedAgain.body).toEqual({ approved: false, decline_code: 'INSUFFICIENT_FUNDS' });
    expect(await walletOf(who)).toBe(wallet);
    expect((await transactions(who, card.id, { type: 'CONSUME' })).total).toBe(2);
    await expectSoundBooks(t.database.db);
  });

  it('a card that is not ours (no such id, or not an id at all) is declined, its event id recorded once, again the same', async () => {
    for (const cardId of [randomUUID(), 'card-that-is-not-an-id']) {
      const eventId = `evt_${randomUUID()}`;
      const first = await authorize(cardId, '1.00', {}, { id: eventId });
      expect(first.decision).toEqual({ approved: false, decline_code: 'ISSUER_DECLINED' });
      const again = await issuer.send('authorization.request', JSON.parse(first.raw).data, { id: eventId });
      expect(again.body).toEqual({ approved: false, decline_code: 'ISSUER_DECLINED' });
      expect(await rows(sql`select type, outcome from issuer_events where id = ${eventId}`)).toEqual([{ type: 'authorization.request', outcome: 'processed' }]);
      expect(await rows(sql`select count(*)::int as n from card_transactions where authorization_id = ${first.authorizationId}`)).toEqual([{ n: 0 }]);
    }
  });

  it('charges what the wallet holds of the decline fee and records the rest as owed, never below zero', async () => {
    const who = await customer(100_00n);
    const card = await issuedCard(who, '20.00');
    // 100.00 − 2.00 − 20.00 − 0.50 = 77.50; leave 0.10 in the wallet
    await t.services.ledger.deduct({ merchantId: who.merchantId, accountId: who.id, currency: 'USD', amount: 77_40n, key: `drain-${who.id}` });
    expect(await walletOf(who)).toBe('0.10');
    const answer = await authorize(card.id, '25.00');
    expect(answer.decision).toEqual({ approved: false, decline_code: 'INSUFFICIENT_FUNDS' });
    expect(await walletOf(who)).toBe('0.00');
    expect(await rows(sql`select kind, amount::text as amount, authorization_id from charges_owed where account_id = ${who.id}`)).toEqual([
      { kind: 'DECLINED_FEE', amount: '20', authorization_id: answer.authorizationId },
    ]);
    // the same authorisation again: no second fee, no second debt
    await authorize(card.id, '25.00', { id: answer.authorizationId });
    expect((await rows(sql`select 1 from charges_owed where account_id = ${who.id}`)).length).toBe(1);
    // an empty wallet: the whole fee owed
    const next = await authorize(card.id, '25.00');
    expect(await rows(sql`select amount::text as amount from charges_owed where authorization_id = ${next.authorizationId}`)).toEqual([{ amount: '30' }]);
    expect(await walletOf(who)).toBe('0.00');
    await expectSoundBooks(t.database.db);
  });
});

describe('settlement, reversal, refund and adjustment', () => {
  it('settles equal, less (the rest released) and more within 15 % (the extra from the card); above 15 % is refused', async () => {
    const who = await customer();
    const card = await issuedCard(who, '50.00');
    const equal = await authorize(card.id, '10.00');
    expect((await settle(equal.authorizationId, '10.00')).status).toBe(200);
    expect(await cardOf(who, card.id)).toMatchObject({ balance: '40.00', held: '0.00' });

    const less = await authorize(card.id, '10.00');
    await settle(less.authorizationId, '8.00');
    expect(await cardOf(who, card.id)).toMatchObject({ balance: '32.00', held: '0.00' });

    const more = await authorize(card.id, '10.00');
    const tooMuch = await settle(more.authorizationId, '11.51');
    expect(tooMuch.status).toBe(400);
    expect(await cardOf(who, card.id)).toMatchObject({ balance: '22.00', held: '10.00' });
    await settle(more.authorizationId, '11.50');
    expect(await cardOf(who, card.id)).toMatchObject({ balance: '20.50', held: '0.00' });

    const { items } = await transactions(who, card.id, { type: 'CONSUME' });
    expect(items.map((item) => [item.status, item.amount])).toEqual([
      ['CLOSED', '11.50'],
      ['CLOSED', '8.00'],
      ['CLOSED', '10.00'],
    ]);
    const network = await rows(sql`select sum(p.amount)::text as total from ledger_postings p join ledger_transactions x on x.id = p.transaction_id where x.type = 'CARD_CONSUME' and x.holder_id = ${who.id} and p.amount > 0`);
    expect(network).toEqual([{ total: '2950' }]);
    await expectSoundBooks(t.database.db);
  });

  it('a settlement above what the card holds takes what is there and records the rest owed', async () => {
    const who = await customer();
    const card = await issuedCard(who, '10.00');
    const auth = await authorize(card.id, '10.00');
    await settle(auth.authorizationId, '11.00');
    expect(await cardOf(who, card.id)).toMatchObject({ balance: '0.00', held: '0.00' });
    expect(await rows(sql`select kind, amount::text as amount from charges_owed where authorization_id = ${auth.authorizationId}`)).toEqual([{ kind: 'SETTLEMENT_OVER', amount: '100' }]);
    await expectSoundBooks(t.database.db);
  });

  it('reverses: the hold released, the authorisation FAIL without a decline code; a later reversal or settlement repeat changes nothing', async () => {
    const who = await customer();
    const card = await issuedCard(who, '30.00');
    const auth = await authorize(card.id, '12.00');
    expect((await reverse(auth.authorizationId)).status).toBe(200);
    expect(await cardOf(who, card.id)).toMatchObject({ balance: '30.00', held: '0.00' });
    const [row] = (await transactions(who, card.id, { type: 'CONSUME' })).items;
    expect(row).toMatchObject({ status: 'FAIL', decline_code: null, decline_reason: '商户已撤销该笔授权，预留金额已退回卡片' });
    expect((await reverse(auth.authorizationId)).status).toBe(200);
    expect(await cardOf(who, card.id)).toMatchObject({ balance: '30.00', held: '0.00' });

    const settled = await authorize(card.id, '5.00');
    const settlement = await settle(settled.authorizationId, '5.00');
    const before = await booksSnapshot(t.database.db);
    expect((await issuer.send('transaction.settled', JSON.parse(settlement.raw).data, { id: JSON.parse(settlement.raw).id })).status).toBe(200);
    expect((await settle(settled.authorizationId, '5.00')).status).toBe(200);
    expect((await reverse(settled.authorizationId)).status).toBe(200);
    expect(await booksSnapshot(t.database.db)).toBe(before);
    expect(await cardOf(who, card.id)).toMatchObject({ balance: '25.00', held: '0.00' });
    await expectSoundBooks(t.database.db);
  });

  it('a settlement or reversal before its authorisation is refused (409) and applied in full when the issuer sends it again', async () => {
    const who = await customer();
    const card = await issuedCard(who, '30.00');
    const authorizationId = `auth_${randomUUID()}`;
    const eventId = `stl_${randomUUID()}`;
    const early = await settle(authorizationId, '7.00', { id: eventId });
    expect(early.status).toBe(409);
    expect(early.body.code).toBe(CardErrorCode.AUTHORIZATION_NOT_YET);
    expect((await reverse(authorizationId)).status).toBe(409);
    expect((await rows(sql`select 1 from issuer_events where id = ${eventId}`)).length).toBe(0);
    expect((await authorize(card.id, '7.00', { id: authorizationId })).decision).toEqual({ approved: true });
    expect((await settle(authorizationId, '7.00', { id: eventId })).status).toBe(200);
    expect(await cardOf(who, card.id)).toMatchObject({ balance: '23.00', held: '0.00' });
    await expectSoundBooks(t.database.db);
  });

  it('refunds and adjusts the card from CARD_NETWORK, once per event id', async () => {
    const who = await customer();
    const card = await issuedCard(who, '30.00');
    const auth = await authorize(card.id, '10.00');
    await settle(auth.authorizationId, '10.00');
    const refund = { id: `rf_${randomUUID()}`, card_id: card.id, amount: '4.00', merchant_name: 'Meta Ads', original_id: auth.authorizationId };
    const eventId = `evt_${randomUUID()}`;
    expect((await issuer.send('transaction.refund', refund, { id: eventId })).status).toBe(200);
    expect((await issuer.send('transaction.refund', refund, { id: eventId })).status).toBe(200);
    // a later moment: the list is newest first, and two rows of one moment have no order of their own
    clock.advance(1000);
    expect((await issuer.send('transaction.adjust', { id: `adj_${randomUUID()}`, card_id: card.id, amount: '1.50', memo: '汇率差额返还' })).status).toBe(200);
    expect(await cardOf(who, card.id)).toMatchObject({ balance: '25.50', held: '0.00' });
    const { items } = await transactions(who, card.id);
    expect(items.slice(0, 2).map((item) => [item.type, item.status, item.amount, item.authorization_id])).toEqual([
      ['ADJUST_IN', 'CLOSED', '1.50', null],
      ['REFUND', 'CLOSED', '4.00', auth.authorizationId],
    ]);
    await expectSoundBooks(t.database.db);
  });

  it('a forged signature is refused (401) and changes nothing', async () => {
    const who = await customer();
    const card = await issuedCard(who, '30.00');
    const before = await booksSnapshot(t.database.db);
    const forgedSecret = { secret: 'not-the-secret-0123456789abcdef0123456789' };
    const bad = await issuer.send('authorization.request', { id: `auth_${randomUUID()}`, card_id: card.id, amount: '5.00', currency: 'USD', merchant_name: 'x', mcc: '7311', country: 'US' }, forgedSecret);
    expect(bad.status).toBe(401);
    expect((await issuer.send('transaction.refund', { id: 'x', card_id: card.id, amount: '500.00', merchant_name: 'x' }, forgedSecret)).status).toBe(401);
    expect((await issuer.send('transaction.adjust', { id: 'y', card_id: card.id, amount: '500.00', memo: 'x' }, forgedSecret)).status).toBe(401);
    expect(await booksSnapshot(t.database.db)).toBe(before);
    expect(await cardOf(who, card.id)).toMatchObject({ balance: '30.00', held: '0.00' });
    expect((await transactions(who, card.id)).total).toBe(1);
  });
});

describe('controls', () => {
  it('obeys the single limit at its exact boundary', async () => {
    const who = await customer();
    const card = await issuedCard(who, '50.00');
    expect((await setControls(who, card.id, { single_limit: '10.00' })).code).toBe(0);
    expect((await authorize(card.id, '9.99')).decision).toEqual({ approved: true });
    expect((await authorize(card.id, '10.00')).decision).toEqual({ approved: true });
    expect((await authorize(card.id, '10.01')).decision).toEqual({ approved: false, decline_code: 'OVER_SINGLE_LIMIT' });
    await expectSoundBooks(t.database.db);
  });

  it('counts a day and a month in China time: 23:59 belongs to the day, 00:00 begins the next', async () => {
    const who = await customer(500_00n);
    const card = await issuedCard(who, '200.00');
    clock.set(new Date('2026-11-30T15:59:00Z')); // 23:59 on the 30th, China time
    expect((await setControls(who, card.id, { daily_limit: '20.00', monthly_limit: '30.00' })).code).toBe(0);
    expect((await authorize(card.id, '15.00')).decision).toEqual({ approved: true });
    expect((await authorize(card.id, '5.01')).decision).toEqual({ approved: false, decline_code: 'OVER_DAILY_LIMIT' });
    expect((await authorize(card.id, '4.99')).decision).toEqual({ approved: true });
    const controls = await who.api.data<CardControls>('GET', `/card/${card.id}/controls`);
    expect(controls).toMatchObject({ daily_limit: '20.00', spent_today: '19.99', spent_this_month: '19.99' });
    clock.set(new Date('2026-11-30T16:00:00Z')); // 00:00 on 1 December, China time: a new day and month
    expect((await authorize(card.id, '20.00')).decision).toEqual({ approved: true });
    expect((await authorize(card.id, '0.01')).decision).toEqual({ approved: false, decline_code: 'OVER_DAILY_LIMIT' });
    clock.set(new Date('2026-12-01T16:00:00Z'));
    expect((await authorize(card.id, '10.01')).decision).toEqual({ approved: false, decline_code: 'OVER_MONTHLY_LIMIT' });
    expect((await authorize(card.id, '10.00')).decision).toEqual({ approved: true });
    clock.set(new Date('2026-11-24T08:00:00Z'));
    await expectSoundBooks(t.database.db);
  });

  it('answers and replaces the controls; refusals are 中文 field errors', async () => {
    const who = await customer();
    const card = await issuedCard(who);
    expect(await who.api.data<CardControls>('GET', `/card/${card.id}/controls`)).toEqual({
      card_id: card.id,
      currency: 'USD',
      single_limit: null,
      daily_limit: null,
      monthly_limit: null,
      blocked_categories: [],
      allowed_countries: [],
      spent_today: '0.00',
      spent_this_month: '0.00',
    });
    const saved = await setControls(who, card.id, { single_limit: '50', daily_limit: '100.00', blocked_categories: ['CRYPTO', 'GAMBLING'], allowed_countries: ['US'] });
    expect(saved.data).toMatchObject({ single_limit: '50.00', daily_limit: '100.00', monthly_limit: null, blocked_categories: ['CRYPTO', 'GAMBLING'], allowed_countries: ['US'] });
    const wrong = await setControls(who, card.id, { single_limit: '200.00', daily_limit: '100.00' });
    expect(wrong.code).toBe(ErrorCode.VALIDATION);
    expect(wrong.message).toBe('单笔限额不能高于单日限额');
    expect(JSON.stringify(wrong.data)).toContain('single_limit');
    expect((await setControls(who, card.id, { single_limit: '0' })).message).toBe('请输入正确的限额（大于0，最多两位小数），不限请留空');
    expect((await setControls(who, card.id, { allowed_countries: ['usa'] })).message).toBe('请选择正确的国家或地区');
    expect((await who.api.data<CardControls>('GET', `/card/${card.id}/controls`)).single_limit).toBe('50.00');
  });

  it("another account or another merchant's account cannot read or set a card's controls or transactions", async () => {
    const who = await customer();
    const card = await issuedCard(who);
    await setControls(who, card.id, { single_limit: '5.00' });
    for (const other of [await customer(0n), await customer(0n, 'orange.localhost')]) {
      expect((await other.api.get(`/card/${card.id}/controls`)).code).toBe(CardErrorCode.CARD_NOT_FOUND);
      expect((await setControls(other, card.id, {})).code).toBe(CardErrorCode.CARD_NOT_FOUND);
      expect((await other.api.get(`/card/${card.id}/transactions`)).code).toBe(CardErrorCode.CARD_NOT_FOUND);
      const exported = await exportOf(other, card.id);
      expect(exported.statusCode).toBe(404);
      expect(exported.json()).toMatchObject({ code: CardErrorCode.CARD_NOT_FOUND });
    }
    expect((await who.api.data<CardControls>('GET', `/card/${card.id}/controls`)).single_limit).toBe('5.00');
  });
});

describe('card figures, filters, export and 3-D Secure', () => {
  it('GET /card shows spent this month, the 30-day decline rate and 风险偏高 above 20 % of at least 10 authorisations', async () => {
    const who = await customer();
    const card = await issuedCard(who, '50.00');
    for (let i = 0; i < 8; i += 1) await authorize(card.id, '1.00');
    await authorize(card.id, '100.00');
    let item = (await who.api.data<CardPage>('GET', '/card')).items.find((c) => c.id === card.id);
    expect(item).toMatchObject({ spent_this_month: '8.00', risk: 'NORMAL', risk_reason: null });
    expect(item?.decline_rate_30d).toBeCloseTo(1 / 9, 6);
    await authorize(card.id, '100.00');
    await authorize(card.id, '100.00');
    item = await cardOf(who, card.id);
    expect(item).toMatchObject({ spent_this_month: '8.00', risk: 'HIGH' });
    expect(item.decline_rate_30d).toBeCloseTo(3 / 11, 6);
    expect(item.risk_reason).toContain('风险偏高');
  });

  it('filters transactions by China-time day and exports them as .xlsx with 中文 headers, names and China-time date cells', async () => {
    const who = await customer();
    const card = await issuedCard(who, '50.00');
    clock.set(new Date('2026-11-25T15:59:58Z')); // 25th, 23:59:59 China time once the helper moves the clock a second
    await authorize(card.id, '1.00');
    clock.set(new Date('2026-11-25T16:00:00Z')); // 26th, 00:00 China time
    await authorize(card.id, '2.00');
    clock.set(new Date('2026-11-24T08:00:00Z'));
    const day25 = await transactions(who, card.id, { type: 'CONSUME', date_from: '2026-11-25', date_to: '2026-11-25' });
    expect(day25.items.map((item) => item.amount)).toEqual(['1.00']);
    const day26 = await transactions(who, card.id, { type: 'CONSUME', date_from: '2026-11-26' });
    expect(day26.items.map((item) => item.amount)).toEqual(['2.00']);
    expect((await who.api.get(`/card/${card.id}/transactions`, { query: { date_from: '2026-11-27', date_to: '2026-11-26' } })).code).toBe(ErrorCode.VALIDATION);

    const exported = await exportOf(who, card.id, '?type=CONSUME');
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-type']).toContain('spreadsheetml');
    const { default: ExcelJS } = await import('exceljs');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(exported.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    expect(sheet?.getRow(1).values).toEqual(expect.arrayContaining(['时间', '类型', '状态', '金额', '商户', '拒绝原因', '处理建议']));
    expect(sheet?.rowCount).toBe(3);
    expect(sheet?.getRow(2).getCell(2).value).toBe('消费');
    if (!sheet) throw new Error('no sheet');
    expectExportLayout(sheet, { times: ['时间'], amounts: ['金额'] });
    // newest first: the 26th's 00:00:01 and the 25th's 23:59:59, China time
    expect(sheet.getRow(2).getCell(1).value).toEqual(chinaTimeCell('2026-11-26 00:00:01'));
    expect(sheet.getRow(3).getCell(1).value).toEqual(chinaTimeCell('2026-11-25 23:59:59'));
    expect(sheet.getRow(2).getCell(5).value).toBe(2);
    const headers = (sheet.getRow(1).values as unknown[]).map(String);
    const category = headers.indexOf('商户类别');
    const country = headers.indexOf('国家或地区');
    expect([sheet.getRow(2).getCell(category).value, sheet.getRow(2).getCell(country).value]).toEqual(['广告服务', '美国']);
  });

  it('3ds.otp: a station message with the code, masked once it expires; nothing of it in the event log or the server log', async () => {
    const who = await customer();
    const card = await issuedCard(who);
    const expiresAt = new Date(clock.now().getTime() + 5 * 60_000).toISOString();
    const sent = await issuer.send('3ds.otp', { id: `otp_${randomUUID()}`, card_id: card.id, code: '493817', merchant_name: 'Meta Ads', amount: '12.34', currency: 'USD', expires_at: expiresAt });
    expect(sent.status).toBe(200);
    const list = async () => (await who.api.data<{ items: Array<{ type: string; content: string }> }>('GET', '/msg-center/station-msg/list', { query: { kind: 'message' } })).items.filter((m) => m.type === 'CARD_3DS');
    expect((await list())[0]?.content).toContain('493817');
    clock.advance(5 * 60_000 + 1);
    const [masked] = await list();
    expect(masked?.content).not.toContain('493817');
    expect(masked?.content).toContain('••••••');
    expect(JSON.stringify(await rows(sql`select * from issuer_events`))).not.toContain('493817');
    // the server logged the webhook's request, and nothing of the code
    expect(log.records().some((record) => JSON.stringify(record).includes('/api/v1/issuer/webhook'))).toBe(true);
    expect(log.text()).not.toContain('493817');
    clock.set(new Date('2026-11-24T08:00:00Z'));
  });
});
