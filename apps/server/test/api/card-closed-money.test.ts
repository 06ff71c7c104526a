import { randomUUID } from 'node:crypto';
import type { CardItem, CardTransactionPage, OpenedAvailableAnswer } from '@portal/contract/cards';
import { ErrorCode } from '@portal/contract/errors';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.ts';
import { CARD_NETWORK, cardAccountOf } from '../../src/modules/ledger/service.ts';
import { HOLD_EXPIRY_QUEUE } from '../../src/modules/spending/service.ts';
import { PASSWORD, signUp } from '../helpers/accounts.ts';
import type { ApiClient } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { scriptedIssuer } from '../helpers/issuer.ts';
import { booksSnapshot, expectSoundBooks } from '../helpers/ledger.ts';
import { runOpsOn } from '../helpers/ops.ts';

// Money that reaches a cancelled card (shared/design/cards.md "Spending", "Cancel"): it never stays there.
// The clock starts at this moment, so `ops ledger:check` (on the system clock) reads the holds as the app made them.
const clock = new ManualClock(new Date());
const issuer = scriptedIssuer();
const EXPIRY_DAYS = 3;
const DAY = 86_400_000;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock, issuer: issuer.port, env: { AUTH_HOLD_EXPIRY_DAYS: String(EXPIRY_DAYS) } });
  issuer.attach(t);
});
afterAll(() => t?.close());

let serial = 0;
const rows = async (query: ReturnType<typeof sql>) => ((await t.database.db.execute(query)) as unknown as { rows: Array<Record<string, unknown>> }).rows;

interface Customer {
  id: string;
  api: ApiClient;
  merchantId: string;
}

async function customer(): Promise<Customer> {
  const who = await signUp(t);
  const api = t.api('localhost', who.token);
  const { id } = await api.data<{ id: string }>('GET', '/account/info');
  const merchantId = String((await rows(sql`select merchant_id from accounts where id = ${id}`))[0]?.merchant_id);
  await api.data('PUT', '/card/verification', { body: { real_name: '张三', id_number: '11010519491231002X' } });
  await t.services.ledger.recharge({ merchantId, accountId: id, currency: 'USD', amount: 100_00n, key: `fund-${id}` });
  return { id, api, merchantId };
}

/** An issued 订阅支付卡 (USD) loaded with `amount`; 100.00 in the wallet before, so the wallet keeps 100 − amount − 2.00 − fee. */
async function issuedCard(who: Customer, amount = '50.00') {
  const { products } = await who.api.data<OpenedAvailableAnswer>('GET', '/card/opened-available');
  const product = products.find((p) => p.name === '订阅支付卡');
  if (!product) throw new Error('no 订阅支付卡');
  const opened = await who.api.post<CardItem>('/card', { product_id: product.id, amount, nickname: '注销卡' }, { headers: { 'idempotency-key': `closed-${++serial}-${randomUUID()}` } });
  expect(opened.code, opened.message).toBe(0);
  expect((await issuer.issue(opened.data.id)).status).toBe(200);
  return who.api.data<CardItem>('GET', `/card/${opened.data.id}`);
}

const authorize = async (cardId: string, amount: string) => {
  clock.advance(1000);
  const id = `auth_${randomUUID()}`;
  const answer = await issuer.send('authorization.request', { id, card_id: cardId, amount, currency: 'USD', merchant_name: 'Meta Ads', mcc: '7311', country: 'US' });
  expect(answer.body).toEqual({ approved: true });
  return id;
};
const settle = (authorizationId: string, amount: string, id = `stl_${randomUUID()}`) => {
  clock.advance(1000);
  return issuer.send('transaction.settled', { id, authorization_id: authorizationId, amount });
};
const reverse = (authorizationId: string, id = `rev_${randomUUID()}`) => {
  clock.advance(1000);
  return issuer.send('authorization.reversed', { id, authorization_id: authorizationId });
};

const cardOf = (who: Customer, id: string) => who.api.data<CardItem>('GET', `/card/${id}`);
const walletOf = async (who: Customer) => {
  const items = await who.api.data<Array<{ currency: string; available: string }>>('GET', '/balance/account-balance');
  return items.find((item) => item.currency === 'USD')?.available ?? '0.00';
};
const consumeOf = async (who: Customer, cardId: string, authorizationId: string) =>
  (await who.api.data<CardTransactionPage>('GET', `/card/${cardId}/transactions`, { query: { type: 'CONSUME' } })).items.find((item) => item.authorization_id === authorizationId);
const returnedMessages = (who: Customer) => rows(sql`select title, content from station_messages where account_id = ${who.id} and type = 'CARD_FUNDS_RETURNED' order by created_at`);
/** Cancelled cards the ledger check would report, of this customer. */
const strandedOf = async (who: Customer) => {
  const own = new Set((await rows(sql`select id from cards where account_id = ${who.id}`)).map((row) => String(row.id)));
  return (await t.services.cards.closedCardsHoldingMoney(new Date(clock.now().getTime() - EXPIRY_DAYS * DAY))).filter((card) => own.has(card.cardId));
};

/** Cancels the card (no trade password set) and has the issuer confirm it. */
async function cancel(who: Customer, cardId: string) {
  const answer = await who.api.delete<CardItem>(`/card/${cardId}`);
  expect(answer.code, answer.message).toBe(0);
  expect(answer.data.status).toBe('DELETING');
  expect((await issuer.closed(cardId)).status).toBe(200);
}

describe('money reaching a cancelled card goes to the wallet', () => {
  it('a reversal after card.closed: the held 50.00 goes to the wallet with a station message; the card holds nothing', async () => {
    const who = await customer();
    const card = await issuedCard(who, '50.00');
    const authorizationId = await authorize(card.id, '50.00');
    const walletBefore = await walletOf(who);
    await cancel(who, card.id);
    expect(await cardOf(who, card.id)).toMatchObject({ status: 'DELETE', balance: '0.00', held: '50.00' });

    expect((await reverse(authorizationId)).status).toBe(200);
    expect(await cardOf(who, card.id)).toMatchObject({ status: 'DELETE', balance: '0.00', held: '0.00' });
    expect(Number(await walletOf(who)) - Number(walletBefore)).toBeCloseTo(50, 6);
    expect(await consumeOf(who, card.id, authorizationId)).toMatchObject({ status: 'FAIL', decline_code: null, decline_reason: '商户已撤销该笔授权，卡片已注销，预留金额已退回钱包' });
    const messages = await returnedMessages(who);
    expect(messages).toHaveLength(1);
    expect(messages[0]?.content).toContain('50.00 USD');

    // the same reversal again, under its id or another: nothing more
    const before = await booksSnapshot(t.database.db);
    expect((await reverse(authorizationId)).status).toBe(200);
    expect(await booksSnapshot(t.database.db)).toBe(before);
    expect(await returnedMessages(who)).toHaveLength(1);
    expect(await strandedOf(who)).toEqual([]);
    await expectSoundBooks(t.database.db);
  });

  it('a settlement for a cancelled card is still taken from its hold; what it leaves goes to the wallet', async () => {
    const who = await customer();
    const card = await issuedCard(who, '50.00');
    const less = await authorize(card.id, '30.00');
    const more = await authorize(card.id, '10.00');
    await cancel(who, card.id);
    const walletAfterCancel = await walletOf(who);
    expect(await cardOf(who, card.id)).toMatchObject({ balance: '0.00', held: '40.00' });

    expect((await settle(less, '20.00')).status).toBe(200);
    expect(await cardOf(who, card.id)).toMatchObject({ balance: '0.00', held: '10.00' });
    expect(Number(await walletOf(who)) - Number(walletAfterCancel)).toBeCloseTo(10, 6);
    expect(await consumeOf(who, card.id, less)).toMatchObject({ status: 'CLOSED', amount: '20.00' });

    // above its hold (within 15 %): the hold taken, the extra owed (the card has nothing more)
    expect((await settle(more, '11.00')).status).toBe(200);
    expect(await cardOf(who, card.id)).toMatchObject({ balance: '0.00', held: '0.00' });
    expect(Number(await walletOf(who)) - Number(walletAfterCancel)).toBeCloseTo(10, 6);
    expect(await rows(sql`select kind, amount::text as amount from charges_owed where authorization_id = ${more}`)).toEqual([{ kind: 'SETTLEMENT_OVER', amount: '100' }]);
    const network = await rows(sql`select sum(p.amount)::text as total from ledger_postings p join ledger_transactions x on x.id = p.transaction_id
      where x.type = 'CARD_CONSUME' and x.holder_id = ${who.id} and p.amount > 0`);
    expect(network).toEqual([{ total: '3000' }]);
    expect(await strandedOf(who)).toEqual([]);
    await expectSoundBooks(t.database.db);
  });

  it('a refund or an adjustment to a cancelled card goes to the wallet, each with a message', async () => {
    const who = await customer();
    const card = await issuedCard(who, '20.00');
    const authorizationId = await authorize(card.id, '10.00');
    await settle(authorizationId, '10.00');
    await cancel(who, card.id);
    const walletAfterCancel = await walletOf(who);
    clock.advance(1000);
    const refund = await issuer.send('transaction.refund', { id: `rf_${randomUUID()}`, card_id: card.id, amount: '4.00', merchant_name: 'Meta Ads', original_id: authorizationId });
    expect(refund.status).toBe(200);
    clock.advance(1000);
    const adjust = await issuer.send('transaction.adjust', { id: `adj_${randomUUID()}`, card_id: card.id, amount: '1.25', memo: '汇率差额返还' });
    expect(adjust.status).toBe(200);
    expect(await cardOf(who, card.id)).toMatchObject({ status: 'DELETE', balance: '0.00', held: '0.00' });
    expect(Number(await walletOf(who)) - Number(walletAfterCancel)).toBeCloseTo(5.25, 6);
    const messages = await returnedMessages(who);
    expect(messages.map((m) => String(m.content).match(/收到(\S+) ([\d.]+) USD/)?.slice(1))).toEqual([
      ['退款', '4.00'],
      ['调整转入', '1.25'],
    ]);
    expect(await strandedOf(who)).toEqual([]);
    await expectSoundBooks(t.database.db);
  });

  it('a reversal that lands while the card is DELETING stays on the card until card.closed returns it all', async () => {
    const who = await customer();
    const card = await issuedCard(who, '50.00');
    const authorizationId = await authorize(card.id, '50.00');
    const walletBefore = await walletOf(who);
    expect((await who.api.delete(`/card/${card.id}`)).code).toBe(0);
    expect((await reverse(authorizationId)).status).toBe(200);
    expect(await cardOf(who, card.id)).toMatchObject({ status: 'DELETING', balance: '50.00', held: '0.00' });
    expect((await issuer.closed(card.id)).status).toBe(200);
    expect(await cardOf(who, card.id)).toMatchObject({ status: 'DELETE', balance: '0.00', held: '0.00' });
    expect(Number(await walletOf(who)) - Number(walletBefore)).toBeCloseTo(50, 6);
    await expectSoundBooks(t.database.db);
  });
});

describe('cancelling a card whose money is held asks the trade password', () => {
  it('a card with 0.00 available and 50.00 held: without the password 2101 and nothing changes; with it, DELETING', async () => {
    const who = await customer();
    const card = await issuedCard(who, '50.00');
    await authorize(card.id, '50.00');
    expect((await who.api.put('/account/trx-password', { trx_password: 'Abc123', password: PASSWORD })).code).toBe(0);
    expect(await cardOf(who, card.id)).toMatchObject({ balance: '0.00', held: '50.00' });
    const refused = await who.api.delete(`/card/${card.id}`);
    expect(refused.code).toBe(ErrorCode.TRX_PASSWORD_REQUIRED);
    expect(await cardOf(who, card.id)).toMatchObject({ status: 'NORMAL' });
    expect(issuer.requests.filter((r) => r.kind === 'close' && r.cardId === card.id)).toHaveLength(0);
    const wrong = await who.api.delete(`/card/${card.id}`, { body: { trx_password: 'Wrong123' } });
    expect(wrong.code).toBe(ErrorCode.TRX_PASSWORD_WRONG);
    const accepted = await who.api.delete<CardItem>(`/card/${card.id}`, { body: { trx_password: 'Abc123' } });
    expect(accepted.code, accepted.message).toBe(0);
    expect(accepted.data.status).toBe('DELETING');
  });
});

describe("the issuer's money events apply once per object", () => {
  it('a refund, adjustment, settlement or reversal naming one applied before, under a new event id, answers 200 and changes nothing', async () => {
    const who = await customer();
    const card = await issuedCard(who, '30.00');
    const settled = await authorize(card.id, '10.00');
    const settlementId = `stl_${randomUUID()}`;
    await settle(settled, '10.00', settlementId);
    const reversed = await authorize(card.id, '5.00');
    const reversalId = `rev_${randomUUID()}`;
    await reverse(reversed, reversalId);
    const refund = { id: `rf_${randomUUID()}`, card_id: card.id, amount: '4.00', merchant_name: 'Meta Ads', original_id: settled };
    const adjust = { id: `adj_${randomUUID()}`, card_id: card.id, amount: '1.50', memo: '汇率差额返还' };
    expect((await issuer.send('transaction.refund', refund)).status).toBe(200);
    expect((await issuer.send('transaction.adjust', adjust)).status).toBe(200);
    expect(await cardOf(who, card.id)).toMatchObject({ balance: '25.50', held: '0.00' });

    const before = await booksSnapshot(t.database.db);
    const rowsBefore = await rows(sql`select count(*)::int as n from card_transactions where card_id = ${card.id}`);
    const again = [
      await issuer.send('transaction.refund', refund),
      await issuer.send('transaction.refund', { ...refund, amount: '9.00' }),
      await issuer.send('transaction.adjust', adjust),
      await issuer.send('transaction.adjust', { ...adjust, amount: '2.00' }),
      await issuer.send('transaction.settled', { id: settlementId, authorization_id: settled, amount: '10.00' }),
      await issuer.send('transaction.settled', { id: `stl_${randomUUID()}`, authorization_id: settled, amount: '11.00' }),
      await issuer.send('authorization.reversed', { id: reversalId, authorization_id: reversed }),
    ];
    expect(again.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200, 200]);
    expect(await booksSnapshot(t.database.db)).toBe(before);
    expect(await rows(sql`select count(*)::int as n from card_transactions where card_id = ${card.id}`)).toEqual(rowsBefore);
    expect(await cardOf(who, card.id)).toMatchObject({ balance: '25.50', held: '0.00' });
    await expectSoundBooks(t.database.db);
  });
});

describe('holds the issuer never settles or reverses expire (AUTH_HOLD_EXPIRY_DAYS)', () => {
  it('after the days: back to the available balance of an open card, to the wallet from a cancelled one; a later settlement is still charged', async () => {
    const who = await customer();
    const open = await issuedCard(who, '30.00');
    const closed = await issuedCard(who, '20.00');
    const onOpen = await authorize(open.id, '12.00');
    const onClosed = await authorize(closed.id, '20.00');
    await cancel(who, closed.id);
    const walletBefore = await walletOf(who);

    // not yet: a second short of the days
    clock.advance(EXPIRY_DAYS * DAY - 5000);
    await t.services.cardHolds.expire();
    expect(await cardOf(who, open.id)).toMatchObject({ balance: '18.00', held: '12.00' });
    expect(await cardOf(who, closed.id)).toMatchObject({ balance: '0.00', held: '20.00' });

    clock.advance(10_000);
    expect(await t.services.cardHolds.expire()).toBeGreaterThanOrEqual(2);
    expect(await cardOf(who, open.id)).toMatchObject({ status: 'NORMAL', balance: '30.00', held: '0.00' });
    expect(await cardOf(who, closed.id)).toMatchObject({ status: 'DELETE', balance: '0.00', held: '0.00' });
    expect(Number(await walletOf(who)) - Number(walletBefore)).toBeCloseTo(20, 6);
    expect(await consumeOf(who, open.id, onOpen)).toMatchObject({ status: 'FAIL', decline_reason: `授权超过 ${EXPIRY_DAYS} 天未结算，预留金额已退回卡片` });
    expect(await consumeOf(who, closed.id, onClosed)).toMatchObject({ status: 'FAIL', decline_reason: `授权超过 ${EXPIRY_DAYS} 天未结算，预留金额已退回钱包（卡片已注销）` });
    expect(await rows(sql`select type from station_messages where account_id = ${who.id} and type in ('CARD_HOLD_EXPIRED', 'CARD_FUNDS_RETURNED') order by type`)).toEqual([
      { type: 'CARD_FUNDS_RETURNED' },
      { type: 'CARD_HOLD_EXPIRED' },
    ]);
    // run again: nothing more
    const before = await booksSnapshot(t.database.db);
    await t.services.cardHolds.expire();
    expect(await booksSnapshot(t.database.db)).toBe(before);

    // the issuer settles after all: charged from the open card; owed for the cancelled one, whose money went to the wallet
    expect((await settle(onOpen, '12.00')).status).toBe(200);
    expect(await cardOf(who, open.id)).toMatchObject({ balance: '18.00', held: '0.00' });
    expect((await settle(onClosed, '20.00')).status).toBe(200);
    expect(await rows(sql`select kind, amount::text as amount from charges_owed where authorization_id = ${onClosed}`)).toEqual([{ kind: 'SETTLEMENT_OVER', amount: '2000' }]);
    expect(Number(await walletOf(who)) - Number(walletBefore)).toBeCloseTo(20, 6);
    expect(await strandedOf(who)).toEqual([]);
    await expectSoundBooks(t.database.db);
  });

  it('is a scheduled pg-boss job: one sent to its queue releases an overdue hold', async () => {
    expect((await t.services.jobs.boss.getSchedules()).map((s) => s.name)).toContain(HOLD_EXPIRY_QUEUE);
    const who = await customer();
    const card = await issuedCard(who, '10.00');
    await authorize(card.id, '10.00');
    clock.advance(EXPIRY_DAYS * DAY + 1000);
    await t.services.jobs.send(HOLD_EXPIRY_QUEUE, {});
    const deadline = Date.now() + 25_000;
    while ((await cardOf(who, card.id)).held !== '0.00') {
      if (Date.now() > deadline) throw new Error('the job did not release the hold');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await cardOf(who, card.id)).toMatchObject({ balance: '10.00', held: '0.00' });
    await expectSoundBooks(t.database.db);
  });
});

describe('ops ledger:check', () => {
  it('reports a cancelled card holding money (exit 1), and is sound once the money has gone to the wallet', async () => {
    const who = await customer();
    const card = await issuedCard(who, '10.00');
    await cancel(who, card.id);
    // money left on a cancelled card by an older release, put there directly
    await t.services.ledger.transfer({
      merchantId: who.merchantId,
      key: `stranded-${card.id}`,
      currency: 'USD',
      type: 'CARD_REFUND',
      holderId: who.id,
      lines: [
        { account: CARD_NETWORK, amount: -7_00n },
        { account: cardAccountOf(card.id, who.id), amount: 7_00n },
      ],
      reference: `card:${card.id}`,
      memo: 'stranded',
    });
    const found = await runOpsOn(t.database, ['ledger:check']);
    expect(found.code).toBe(1);
    expect(found.stderr).toContain(`no cancelled card holds money (available, or held past AUTH_HOLD_EXPIRY_DAYS): card ${card.id}`);
    expect(found.stderr).toContain('7.00 USD available');

    await t.services.ledger.transferFromCard({ merchantId: who.merchantId, accountId: who.id, cardId: card.id, currency: 'USD', amount: 7_00n, key: `unstranded-${card.id}` });
    const sound = await runOpsOn(t.database, ['ledger:check']);
    expect(sound.code, sound.stderr).toBe(0);
    expect(sound.stdout).toContain('ok  no cancelled card holds money');
    await expectSoundBooks(t.database.db);
  });
});
