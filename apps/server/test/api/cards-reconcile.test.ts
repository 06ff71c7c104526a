import type { CardItem, OpenedAvailableAnswer } from '@portal/contract/cards';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.ts';
import { signUp } from '../helpers/accounts.ts';
import { scriptedIssuerApp } from '../helpers/issuer.ts';
import { expectSoundBooks } from '../helpers/ledger.ts';

// The issuer as the test plays it (helpers/issuer.ts): its status query answers what the test says,
// and its events arrive only when the test sends them, so each answer can be met with the card in
// each waiting status.
const clock = new ManualClock();
const { t, issuer } = scriptedIssuerApp(clock);

let serial = 0;
const rows = async (query: ReturnType<typeof sql>) => ((await t.database.db.execute(query)) as unknown as { rows: Array<Record<string, unknown>> }).rows;

async function customer() {
  const who = await signUp(t);
  const api = t.api('localhost', who.token);
  const { id } = await api.data<{ id: string }>('GET', '/account/info');
  await api.data('PUT', '/card/verification', { body: { real_name: '张三', id_number: '11010519491231002X' } });
  const merchant = await t.services.merchants.findByHost('localhost');
  if (!merchant) throw new Error('no blue merchant');
  await t.services.ledger.recharge({ merchantId: merchant.id, accountId: id, currency: 'USD', amount: 100_00n, key: `fund-${id}` });
  const { products } = await api.data<OpenedAvailableAnswer>('GET', '/card/opened-available');
  const product = products.find((p) => p.name === '订阅支付卡');
  if (!product) throw new Error('no 订阅支付卡');
  const open = async () => {
    const opened = await api.post<CardItem>('/card', { product_id: product.id, amount: '20.00', nickname: '对账卡' }, { headers: { 'idempotency-key': `reconcile-card-${++serial}-${Date.now()}` } });
    expect(opened.code, opened.message).toBe(0);
    return opened.data;
  };
  const wallet = async () => (await api.data<Array<{ currency: string; available: string; anew: string }>>('GET', '/balance/account-balance')).find((b) => b.currency === 'USD');
  const card = (cardId: string) => api.data<CardItem>('GET', `/card/${cardId}`);
  return { id, api, open, wallet, card };
}

/** Asks the issuer about every waiting card; answers what became of this one. */
async function reconcile(cardId: string) {
  const report = await t.services.cardReconciler.reconcile({ olderThanSeconds: null });
  return report.cards.find((card) => card.card_id === cardId);
}

const postingsOf = async (cardId: string) =>
  (await rows(sql`select type, count(*)::int as n from ledger_transactions where reference = ${`card:${cardId}`} group by type order by type`)).map((row) => [row.type, row.n]);

describe('asking the issuer about a waiting card', () => {
  it('asks the issuer to open again, under the same card id, a card it does not know; the card opens when that answer comes, charged once', async () => {
    const who = await customer();
    const card = await who.open();
    issuer.statuses.set(card.id, { status: 'UNKNOWN' });
    expect(await reconcile(card.id)).toMatchObject({ issuer: 'UNKNOWN', before: 'CARD_STATUS_INIT', after: 'CARD_STATUS_INIT', outcome: 'asked-again' });
    const opens = issuer.requests.filter((request) => request.kind === 'open' && request.cardId === card.id);
    expect(opens).toHaveLength(2);
    expect(opens[1]?.request).toEqual(opens[0]?.request);

    // the issuer took it this time and answers it: the card opens, and no longer waits to be asked about
    const { numbers } = await issuer.issue(card.id);
    expect(await who.card(card.id)).toMatchObject({ status: 'NORMAL', last4: numbers.pan.slice(-4) });
    issuer.statuses.set(card.id, { status: 'ISSUED', ...numbers, state: 'ACTIVE' });
    expect(await reconcile(card.id)).toBeUndefined();
    expect(await postingsOf(card.id)).toEqual([
      ['OPEN_CARD', 1],
      ['TRANSFER_OUT_TO_CARD', 1],
    ]);
    await expectSoundBooks(t.database.db);
  });

  it('opens a card the issuer issued and fails one it failed, as their events would, and leaves a PENDING one waiting', async () => {
    const who = await customer();
    const [issued, failed, pending] = [await who.open(), await who.open(), await who.open()];
    // 订阅支付卡 with 20.00 loaded: 2.00 + 20.00 + 0.50 each
    expect(await who.wallet()).toEqual({ currency: 'USD', available: '32.50', anew: '67.50' });
    issuer.statuses.set(issued.id, { status: 'ISSUED', pan: '5555555555554444', cvv: '123', exp_month: '07', exp_year: '2029', state: 'ACTIVE' });
    issuer.statuses.set(failed.id, { status: 'FAILED', reason: '持卡人信息未通过核验' });
    expect(await reconcile(issued.id)).toMatchObject({ outcome: 'settled', before: 'CARD_STATUS_INIT', after: 'NORMAL', issuer: 'ISSUED', issuer_state: 'ACTIVE' });
    expect(await reconcile(failed.id)).toBeUndefined();
    expect(await reconcile(pending.id)).toMatchObject({ outcome: 'waiting', issuer: 'PENDING', after: 'CARD_STATUS_INIT' });
    expect(await who.card(issued.id)).toMatchObject({ status: 'NORMAL', last4: '4444', balance: '20.00' });
    expect(await who.card(failed.id)).toMatchObject({ status: 'FAIL', failure_reason: '持卡人信息未通过核验' });
    // one opening charged, one released, one still held
    expect(await who.wallet()).toEqual({ currency: 'USD', available: '55.00', anew: '22.50' });

    // the events arriving late change nothing
    expect((await issuer.issue(issued.id)).status).toBe(200);
    expect((await issuer.fail(failed.id, '另一个原因')).status).toBe(200);
    expect(await who.card(issued.id)).toMatchObject({ status: 'NORMAL', last4: '4444' });
    expect(await who.card(failed.id)).toMatchObject({ status: 'FAIL', failure_reason: '持卡人信息未通过核验' });
    expect(await who.wallet()).toEqual({ currency: 'USD', available: '55.00', anew: '22.50' });
    await expectSoundBooks(t.database.db);
  });

  it("refuses an answer whose numbers are not a card's, as the webhook refuses such an event: nothing changes", async () => {
    const who = await customer();
    const card = await who.open();
    issuer.statuses.set(card.id, { status: 'ISSUED', pan: '4242424242424241', cvv: '123', exp_month: '07', exp_year: '2029', state: 'ACTIVE' });
    expect(await reconcile(card.id)).toMatchObject({ outcome: 'refused', before: 'CARD_STATUS_INIT', after: 'CARD_STATUS_INIT' });
    expect((await who.card(card.id)).status).toBe('CARD_STATUS_INIT');
    expect(await who.wallet()).toEqual({ currency: 'USD', available: '77.50', anew: '22.50' });
    expect(await postingsOf(card.id)).toEqual([]);
  });

  it('lands a freeze, an unfreeze and a cancel whose events were lost; the cancelled card pays back once; a late event changes nothing', async () => {
    const who = await customer();
    const card = await who.open();
    const { numbers } = await issuer.issue(card.id);
    const issuedAs = (state: 'ACTIVE' | 'FROZEN' | 'CLOSED') => issuer.statuses.set(card.id, { status: 'ISSUED', ...numbers, state });

    expect((await who.api.put(`/card/${card.id}/status`, { action: 'FREEZE' })).code).toBe(0);
    issuedAs('FROZEN');
    expect(await reconcile(card.id)).toMatchObject({ before: 'FREEZING', after: 'FREEZE', outcome: 'settled' });
    expect((await issuer.frozen(card.id)).status).toBe(200);
    expect(await who.card(card.id)).toMatchObject({ status: 'FREEZE', frozen_by: 'CUSTOMER' });

    expect((await who.api.put(`/card/${card.id}/status`, { action: 'UNFREEZE' })).code).toBe(0);
    issuedAs('ACTIVE');
    expect(await reconcile(card.id)).toMatchObject({ before: 'UNFREEZING', after: 'NORMAL', outcome: 'settled' });

    expect((await who.api.delete(`/card/${card.id}`)).code).toBe(0);
    expect((await who.card(card.id)).status).toBe('DELETING');
    issuedAs('CLOSED');
    expect(await reconcile(card.id)).toMatchObject({ before: 'DELETING', after: 'DELETE', outcome: 'settled' });
    expect(await who.wallet()).toEqual({ currency: 'USD', available: '97.50', anew: '0.00' });
    expect((await issuer.closed(card.id)).status).toBe(200);
    expect(await who.card(card.id)).toMatchObject({ status: 'DELETE', balance: '0.00' });
    expect(await who.wallet()).toEqual({ currency: 'USD', available: '97.50', anew: '0.00' });
    await expectSoundBooks(t.database.db);
  });

  it('asks again for a freeze the issuer has not made, and changes nothing while the issuer does not answer', async () => {
    const who = await customer();
    const card = await who.open();
    const { numbers } = await issuer.issue(card.id);
    expect((await who.api.put(`/card/${card.id}/status`, { action: 'FREEZE' })).code).toBe(0);
    issuer.statuses.set(card.id, { status: 'ISSUED', ...numbers, state: 'ACTIVE' });
    expect(await reconcile(card.id)).toMatchObject({ before: 'FREEZING', after: 'FREEZING', outcome: 'asked-again' });
    expect(issuer.requests.filter((request) => request.kind === 'freeze' && request.cardId === card.id)).toHaveLength(2);

    issuer.state.down = true;
    try {
      expect(await reconcile(card.id)).toMatchObject({ before: 'FREEZING', after: 'FREEZING', outcome: 'unavailable', issuer: null });
    } finally {
      issuer.state.down = false;
    }
    expect((await who.card(card.id)).status).toBe('FREEZING');
  });
});
