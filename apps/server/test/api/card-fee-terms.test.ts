/**
 * A card keeps the fee terms it was opened under: a change of its product's top-up fee or decline fee
 * applies to cards opened after it. Every way a card is charged — its own top-up, a bulk top-up, an auto
 * top-up, a declined authorisation — uses the card's terms; opening a card uses the product's terms of
 * the moment, and records them on the card.
 */
import { randomUUID } from 'node:crypto';
import type { BulkActionAnswer } from '@portal/contract/card-bulk';
import type { CardFeeTerms, CardItem, OpenedAvailableAnswer, RechargeAnswer } from '@portal/contract/cards';
import { fromMinorUnits, toMinorUnits } from '@portal/contract/money';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.ts';
import { scriptedIssuerApp } from '../helpers/issuer.ts';
import { expectSoundBooks } from '../helpers/ledger.ts';
import { queryRows } from '../helpers/sql.ts';
import { issuedCard, readyForCards, type Teammate, teamOwner } from '../helpers/team.ts';
import { until } from '../helpers/until.ts';

const clock = new ManualClock(new Date('2026-11-24T08:00:00Z'));
const { t, issuer } = scriptedIssuerApp(clock);

let serial = 0;
const key = (what: string) => `fees-${what}-${Date.now().toString(36)}-${++serial}`;

const walletUsd = async (who: Teammate) =>
  toMinorUnits((await who.api.data<Array<{ currency: string; available: string }>>('GET', '/balance/account-balance')).find((one) => one.currency === 'USD')?.available ?? '0');
/** What leaves the wallet while `act` runs (minor units). */
async function taken(who: Teammate, act: () => Promise<unknown>) {
  const before = await walletUsd(who);
  await act();
  return before - (await walletUsd(who));
}
const cardOf = (who: Teammate, id: string) => who.api.data<CardItem>('GET', `/card/${id}`);
const recharge = async (who: Teammate, id: string, amount: string) => {
  const answer = await who.api.post<RechargeAnswer>(`/card/${id}/recharge`, { amount }, { headers: { 'idempotency-key': key('top-up') } });
  expect(answer.code, answer.message).toBe(0);
  return answer.data;
};
/** A purchase the card network asks to authorise; its decision. */
const purchase = async (cardId: string, amount: string) => {
  clock.advance(1000);
  const answer = await issuer.send('authorization.request', { id: `auth_${randomUUID()}`, card_id: cardId, amount, currency: 'USD', merchant_name: 'Meta Ads', mcc: '7311', country: 'US' });
  return answer.body as unknown as { approved: boolean; decline_code?: string };
};

// 订阅支付卡 as seeded: open fee 2.00, top-up 1 % + 0.30 with no bounds, decline fee 0.30
const SEEDED: CardFeeTerms = { topup_fee_rate: '0.010', topup_fee_fixed: '0.30', topup_fee_min: null, topup_fee_max: null, decline_fee: '0.30' };
// and as changed: open fee 4.00, top-up 5 % + 1.00 but at least 2.00, decline fee 5.00
const CHANGED: CardFeeTerms = { topup_fee_rate: '0.05', topup_fee_fixed: '1.00', topup_fee_min: '2.00', topup_fee_max: null, decline_fee: '5.00' };

describe("a product's fee change", () => {
  it('leaves the cards opened before it on their own terms, and charges cards opened after it the new ones', async () => {
    const who = await teamOwner(t);
    await readyForCards(t, who);
    const [row] = await queryRows<{ merchant_id: string }>(t.database.db, sql`select merchant_id from accounts where id = ${who.accountId}`);
    const merchantId = String(row?.merchant_id);
    const { products } = await who.api.data<OpenedAvailableAnswer>('GET', '/card/opened-available');
    const product = products.find((p) => p.name === '订阅支付卡');
    if (!product) throw new Error('no 订阅支付卡');
    expect(product).toMatchObject({ ...SEEDED, open_fee: '2.00' });

    const old = await issuedCard(who, issuer, '旧卡');
    expect(old.fees).toEqual(SEEDED);

    await t.services.products.update(merchantId, { id: product.id }, { openFee: 4_00n, topupFeeRate: '0.05', topupFeeFixed: 1_00n, topupFeeMin: 2_00n, declineFee: 5_00n });

    // opening now costs the product's new terms: 4.00 + 20.00 + max(5 % of 20.00 + 1.00, 2.00)
    let opened: CardItem | undefined;
    expect(await taken(who, async () => (opened = await issuedCard(who, issuer, '新卡')))).toBe(4_00n + 20_00n + 2_00n);
    if (!opened) throw new Error('no new card');
    const fresh = opened;
    expect(fresh.fees).toEqual(CHANGED);
    // the card opened before keeps its terms, in its answer as in what it is charged
    expect((await cardOf(who, old.id)).fees).toEqual(SEEDED);
    const listed = await who.api.data<{ items: CardItem[] }>('GET', '/card');
    expect(listed.items.find((item) => item.id === old.id)?.fees).toEqual(SEEDED);

    // its own top-up
    let answer: RechargeAnswer | undefined;
    expect(await taken(who, async () => (answer = await recharge(who, old.id, '100.00')))).toBe(101_30n);
    expect(answer).toMatchObject({ fee: '1.30', total: '101.30' });
    expect(await taken(who, async () => (answer = await recharge(who, fresh.id, '100.00')))).toBe(106_00n);
    expect(answer).toMatchObject({ fee: '6.00', total: '106.00' });

    // a bulk top-up, held and charged card by card at each card's terms:
    // 10.00 + 0.40 on the old card, 10.00 + 2.00 (the new minimum) on the new one
    const bulkTaken = await taken(who, async () => {
      const started = await who.api.post<{ id: string }>(
        '/card/bulk-actions',
        { action: 'RECHARGE', card_ids: [old.id, fresh.id], params: { amount: '10.00' } },
        { headers: { 'idempotency-key': key('bulk') } },
      );
      expect(started.code, started.message).toBe(0);
      const done = await until('the bulk top-up done', async () => {
        const now = await who.api.data<BulkActionAnswer>('GET', `/card/bulk-actions/${started.data.id}`);
        return now.status === 'DONE' && now;
      });
      expect(done).toMatchObject({ succeeded: 2, failed: 0 });
    });
    expect(fromMinorUnits(bulkTaken)).toBe('22.40');
    expect((await cardOf(who, old.id)).balance).toBe('130.00');
    expect((await cardOf(who, fresh.id)).balance).toBe('130.00');

    // a declined authorisation: each card's decline fee from the wallet
    expect(await taken(who, async () => expect(await purchase(old.id, '9999.00')).toMatchObject({ approved: false, decline_code: 'INSUFFICIENT_FUNDS' }))).toBe(30n);
    expect(await taken(who, async () => expect(await purchase(fresh.id, '9999.00')).toMatchObject({ approved: false, decline_code: 'INSUFFICIENT_FUNDS' }))).toBe(5_00n);

    // an auto top-up: the card already below the threshold is topped up to 250.00 at its next movement
    const rule = await who.api.put(`/card/${old.id}/auto-recharge`, { enabled: true, threshold: '200.00', target: '250.00', daily_max: '500.00' });
    expect(rule.code, rule.message).toBe(0);
    const beforeRun = await walletUsd(who);
    expect((await purchase(old.id, '1.00')).approved).toBe(true);
    await until('the auto top-up ran', async () => {
      const runs = await queryRows<{ status: string }>(t.database.db, sql`select status from auto_recharge_runs where card_id = ${old.id}`);
      return runs.length === 1 && runs[0]?.status === 'DONE';
    });
    // 121.00 (129.00 available after the purchase's hold) and 1 % + 0.30 of it
    expect(beforeRun - (await walletUsd(who))).toBe(121_00n + 1_51n);
    await expectSoundBooks(t.database.db);
  });
});
