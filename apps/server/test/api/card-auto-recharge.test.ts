import { randomUUID } from 'node:crypto';
import type { CardItem, CardTransactionPage } from '@portal/contract/cards';
import { CardErrorCode } from '@portal/contract/card-errors';
import { ErrorCode } from '@portal/contract/errors';
import type { AlertsAnswer, AutoRechargeRule } from '@portal/contract/balance-rules';
import { BalanceRuleErrorCode } from '@portal/contract/balance-rules-errors';
import type { MessagePage } from '@portal/contract/messages';
import { TeamErrorCode } from '@portal/contract/team-errors';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.ts';
import { scriptedIssuerApp } from '../helpers/issuer.ts';
import { expectSoundBooks } from '../helpers/ledger.ts';
import { runOpsOn } from '../helpers/ops.ts';
import { queryRows } from '../helpers/sql.ts';
import { issuedCard, joinTeam, readyForCards, type Teammate, teamOwner } from '../helpers/team.ts';
import { until } from '../helpers/until.ts';

const clock = new ManualClock(new Date('2026-11-24T08:00:00Z'));
const { t, issuer } = scriptedIssuerApp(clock);

const merchantOf = async (who: Teammate) =>
  String((await queryRows<{ merchant_id: string }>(t.database.db, sql`select merchant_id from accounts where id = ${who.accountId}`))[0]?.merchant_id);

async function owner() {
  const who = await teamOwner(t);
  await readyForCards(t, who);
  return who;
}

/** A purchase the simulated card network asks to authorise. */
const purchase = (cardId: string, amount: string) => {
  clock.advance(1000);
  const id = `auth_${randomUUID()}`;
  return issuer
    .send('authorization.request', { id, card_id: cardId, amount, currency: 'USD', merchant_name: 'Meta Ads', mcc: '7311', country: 'US' })
    .then((answer) => ({ id, approved: (answer.body as unknown as { approved: boolean }).approved }));
};
const reverse = (authorizationId: string) => issuer.send('authorization.reversed', { id: `rev_${randomUUID()}`, authorization_id: authorizationId });

const setRule = (who: Teammate, cardId: string, body: Record<string, unknown>) =>
  who.api.put<AutoRechargeRule>(`/card/${cardId}/auto-recharge`, { enabled: true, threshold: '10.00', target: '50.00', daily_max: '100.00', ...body });
const ruleOf = (who: Teammate, cardId: string) => who.api.data<AutoRechargeRule>('GET', `/card/${cardId}/auto-recharge`);
const cardOf = (who: Teammate, cardId: string) => who.api.data<CardItem>('GET', `/card/${cardId}`);
const walletUsd = async (who: Teammate) =>
  (await who.api.data<Array<{ currency: string; available: string }>>('GET', '/balance/account-balance')).find((one) => one.currency === 'USD')?.available;
const runs = (cardId: string) =>
  queryRows<{ status: string; amount: string | null; reason: string | null }>(t.database.db, sql`select status, amount::text as amount, reason from auto_recharge_runs where card_id = ${cardId} order by created_at`);
const settled = (cardId: string, n: number) =>
  until(`${n} ended auto top-up runs of ${cardId}`, async () => {
    const all = await runs(cardId);
    return all.length === n && all.every((run) => run.status !== 'PENDING') && all;
  });
const titles = async (who: Teammate) => (await who.api.data<MessagePage>('GET', '/msg-center/station-msg/list', { query: { page_size: '50' } })).items.map((item) => item.title);
const mailTo = (email: string | null, subject: string) =>
  queryRows<{ text: string }>(t.database.db, sql`select text from dev_outbox where channel = 'email' and "to" = ${email ?? ''} and subject = ${subject}`);

describe('auto top-up of a card', () => {
  it('tops a card up to its target from the wallet, with the top-up fee, after the purchase that crossed the threshold, once', async () => {
    const who = await owner();
    const card = await issuedCard(who, issuer, '广告卡');
    const set = await setRule(who, card.id, {});
    expect(set.code, set.message).toBe(0);
    expect(set.data).toMatchObject({ enabled: true, threshold: '10.00', target: '50.00', daily_max: '100.00', status: 'ACTIVE', used_today: '0.00', last_run: null });
    const logged = await queryRows<{ summary: string }>(t.database.db, sql`select summary from activity_log where card_id = ${card.id} and action = 'CARD_AUTO_RECHARGE'`);
    expect(logged.map((row) => row.summary)).toEqual(['设置自动充值：低于 10.00 时充至 50.00，每日上限 100.00']);
    const walletBefore = await walletUsd(who);

    expect((await purchase(card.id, '5.00')).approved).toBe(true);
    expect(await runs(card.id)).toEqual([]);
    expect((await purchase(card.id, '7.00')).approved).toBe(true);
    await settled(card.id, 1);
    expect(await runs(card.id)).toEqual([{ status: 'DONE', amount: '4200', reason: null }]);
    expect(await cardOf(who, card.id)).toMatchObject({ balance: '50.00', held: '12.00' });
    // 42.00 and its fee (1 % + 0.30)
    expect(Number(walletBefore) - Number(await walletUsd(who))).toBeCloseTo(42.72, 6);
    const { items } = await who.api.data<CardTransactionPage>('GET', `/card/${card.id}/transactions`, { query: { type: 'TRANSFER_IN' } });
    expect(items.map((item) => item.amount)).toContain('42.00');

    // the card and the list say the rule is on
    expect((await cardOf(who, card.id)).auto_recharge).toEqual({ threshold: '10.00', target: '50.00', status: 'ACTIVE' });
    const list = await who.api.data<{ items: CardItem[] }>('GET', '/card');
    expect(list.items.find((item) => item.id === card.id)?.auto_recharge).toEqual({ threshold: '10.00', target: '50.00', status: 'ACTIVE' });
    // still above the threshold: nothing more
    await purchase(card.id, '1.00');
    expect(await ruleOf(who, card.id)).toMatchObject({ used_today: '42.00', last_run: { status: 'DONE', amount: '42.00' } });
    expect((await runs(card.id)).length).toBe(1);
    await expectSoundBooks(t.database.db);
  });

  it('keeps within the daily maximum, and skips a crossing once the day has none left', async () => {
    const who = await owner();
    const card = await issuedCard(who, issuer);
    expect((await setRule(who, card.id, { daily_max: '60.00' })).code).toBe(0);
    await purchase(card.id, '12.00');
    await settled(card.id, 1);
    // 50.00 available: a purchase of 45.00 crosses again; 18.00 of the day's 60.00 are left
    await purchase(card.id, '45.00');
    await settled(card.id, 2);
    expect((await cardOf(who, card.id)).balance).toBe('23.00');
    await purchase(card.id, '14.00');
    const all = await settled(card.id, 3);
    expect(all.map((run) => [run.status, run.amount])).toEqual([
      ['DONE', '4200'],
      ['DONE', '1800'],
      ['SKIPPED', null],
    ]);
    expect(all[2]?.reason).toBe('今日自动充值已达每日上限');
    expect((await ruleOf(who, card.id)).used_today).toBe('60.00');
  });

  it('counts a card already below the threshold when the rule is set as one crossing at its next movement', async () => {
    const who = await owner();
    const card = await issuedCard(who, issuer);
    expect((await setRule(who, card.id, { threshold: '30.00' })).code).toBe(0);
    expect(await runs(card.id)).toEqual([]);
    await purchase(card.id, '1.00');
    await settled(card.id, 1);
    expect((await cardOf(who, card.id)).balance).toBe('50.00');
  });

  it('pauses when the wallet cannot pay, tells the team by message and e-mail, and goes on once the wallet is funded', async () => {
    const who = await owner();
    const card = await issuedCard(who, issuer);
    const merchantId = await merchantOf(who);
    const left = Number(await walletUsd(who));
    await t.services.ledger.deduct({ merchantId, accountId: who.accountId, currency: 'USD', amount: BigInt(Math.round((left - 5) * 100)), key: `drain-${who.accountId}` });
    expect((await setRule(who, card.id, {})).code).toBe(0);
    await purchase(card.id, '15.00');
    const [run] = await settled(card.id, 1);
    expect(run).toMatchObject({ status: 'FAILED' });
    expect(run?.reason).toContain('钱包可用余额不足');
    expect(await ruleOf(who, card.id)).toMatchObject({ status: 'PAUSED', paused_reason: run?.reason });
    expect(await walletUsd(who)).toBe('5.00');
    expect(await titles(who)).toContain('自动充值已暂停');
    await until('the pause e-mail', async () => (await mailTo(who.email, '自动充值已暂停')).length === 1);
    expect(await queryRows(t.database.db, sql`select id from auto_recharge_pause_mails where card_id = ${card.id} and mailed_at is null`)).toEqual([]);
    // a further purchase below the threshold starts nothing while paused
    await purchase(card.id, '1.00');
    expect((await runs(card.id)).length).toBe(1);

    await t.services.ledger.recharge({ merchantId, accountId: who.accountId, currency: 'USD', amount: 100_00n, key: `refund-${who.accountId}` });
    await settled(card.id, 2);
    expect(await ruleOf(who, card.id)).toMatchObject({ status: 'ACTIVE', paused_reason: null });
    expect((await cardOf(who, card.id)).balance).toBe('50.00');
    await expectSoundBooks(t.database.db);
  });

  it('refuses a target not above the threshold, a closed card and a target above the card product’s maximum, changing nothing', async () => {
    const who = await owner();
    const card = await issuedCard(who, issuer);
    const same = await setRule(who, card.id, { threshold: '50.00', target: '50.00' });
    expect(same.code).toBe(ErrorCode.VALIDATION);
    expect(JSON.stringify(same)).toContain('目标余额须高于触发余额');
    const huge = await setRule(who, card.id, { target: '900000.00' });
    expect(huge.code).toBe(BalanceRuleErrorCode.AUTO_RECHARGE_TARGET_ABOVE_MAX);
    expect((await ruleOf(who, card.id)).enabled).toBe(false);
    await t.database.db.execute(sql`update cards set status = 'DELETE' where id = ${card.id}`);
    expect((await setRule(who, card.id, {})).code).toBe(BalanceRuleErrorCode.AUTO_RECHARGE_CARD_CLOSED);
  });
});

describe('low-balance alerts', () => {
  it('alert a card once per crossing, again only after it went back above, by station message and e-mail', async () => {
    const who = await owner();
    const card = await issuedCard(who, issuer, '提醒卡');
    const set = await who.api.put<AlertsAnswer>('/account/alerts', { wallet: [], card_default_threshold: '15.00' });
    expect(set.code, set.message).toBe(0);
    expect(set.data).toEqual({ wallet: [], card_default_threshold: '15.00' });
    const first = await purchase(card.id, '6.00');
    await purchase(card.id, '1.00');
    const cardAlerts = async () => (await titles(who)).filter((title) => title === '卡片余额不足提醒').length;
    await until('one card alert', async () => (await cardAlerts()) === 1);
    await until('its e-mail', async () => (await mailTo(who.email, '卡片余额不足提醒')).length === 1);
    await reverse(first.id);
    expect((await cardOf(who, card.id)).balance).toBe('19.00');
    await purchase(card.id, '5.00');
    await until('a second card alert', async () => (await cardAlerts()) === 2);
    expect((await mailTo(who.email, '卡片余额不足提醒'))[0]?.text).toContain('提醒卡');
  });

  it('alert the wallet at the next movement when the threshold is set above its balance, and only once', async () => {
    const who = await owner();
    const card = await issuedCard(who, issuer);
    const set = await who.api.put<AlertsAnswer>('/account/alerts', { wallet: [{ currency: 'USD', threshold: '5000.00' }] });
    expect(set.data).toEqual({ wallet: [{ currency: 'USD', threshold: '5000.00' }], card_default_threshold: null });
    // saving the same again marks nothing more
    await who.api.put('/account/alerts', { wallet: [{ currency: 'USD', threshold: '5000.00' }] });
    const walletAlerts = async () => (await titles(who)).filter((title) => title === '余额不足提醒').length;
    expect(await walletAlerts()).toBe(0);
    const top = (key: string) => who.api.post(`/card/${card.id}/recharge`, { amount: '1.00' }, { headers: { 'idempotency-key': key } });
    expect((await top(`a-${card.id}`)).code).toBe(0);
    await until('one wallet alert', async () => (await walletAlerts()) === 1);
    expect((await top(`b-${card.id}`)).code).toBe(0);
    expect(await who.api.data<AlertsAnswer>('GET', '/account/alerts')).toEqual(set.data);
    await until('its e-mail', async () => (await mailTo(who.email, '余额不足提醒')).length === 1);
    expect(await walletAlerts()).toBe(1);
    // the second movement, still below, wrote no alert at all
    expect(await queryRows(t.database.db, sql`select id from balance_alerts where account_id = ${who.accountId} and card_id is null`)).toHaveLength(1);
  });

  it('alert after money an operator command moved: the command sends the job within its movement, a server runs it', async () => {
    const who = await owner();
    await who.api.put('/account/alerts', { wallet: [{ currency: 'USD', threshold: '5000.00' }] });
    const run = await runOpsOn(t.database, ['wallet:recharge', '--host', who.host, '--account', who.phone, '--amount', '10', '--currency', 'USD']);
    expect(run.code, run.stderr).toBe(0);
    await until('the wallet alert', async () => (await titles(who)).filter((title) => title === '余额不足提醒').length === 1);
    expect(await walletUsd(who)).toBe('1010.00');
  });

  it('refuses a currency twice and a threshold that is not an amount', async () => {
    const who = await owner();
    const twice = await who.api.put('/account/alerts', { wallet: [{ currency: 'USD', threshold: '1.00' }, { currency: 'USD', threshold: '2.00' }] });
    expect(twice.code).toBe(ErrorCode.VALIDATION);
    const bad = await who.api.put('/account/alerts', { wallet: [{ currency: 'USD', threshold: '-1' }] });
    expect(bad.code).toBe(ErrorCode.VALIDATION);
    expect((await who.api.data<AlertsAnswer>('GET', '/account/alerts')).wallet).toEqual([]);
  });
});

describe('who may set them', () => {
  it('lets the owner, finance and a member (own cards) set a rule, finance set alerts; refuses a viewer and a member elsewhere', async () => {
    const boss = await owner();
    const finance = await joinTeam(t, boss, 'FINANCE');
    const viewer = await joinTeam(t, boss, 'VIEWER');
    const member = await joinTeam(t, boss, 'MEMBER');
    const bossCard = await issuedCard(boss, issuer);
    const memberCard = await issuedCard(member, issuer);
    expect((await setRule(finance, bossCard.id, {})).code).toBe(0);
    expect((await setRule(member, memberCard.id, {})).code).toBe(0);
    expect((await setRule(member, bossCard.id, {})).code).toBe(CardErrorCode.CARD_NOT_FOUND);
    expect((await setRule(viewer, bossCard.id, {})).code).toBe(TeamErrorCode.PERMISSION_DENIED);
    expect((await ruleOf(viewer, bossCard.id)).enabled).toBe(true);
    const alerts = { wallet: [{ currency: 'USD', threshold: '10.00' }] };
    expect((await finance.api.put('/account/alerts', alerts)).code).toBe(0);
    expect((await viewer.api.put('/account/alerts', alerts)).code).toBe(TeamErrorCode.PERMISSION_DENIED);
    expect((await member.api.put('/account/alerts', alerts)).code).toBe(TeamErrorCode.PERMISSION_DENIED);
    expect((await viewer.api.data<AlertsAnswer>('GET', '/account/alerts')).wallet).toEqual([{ currency: 'USD', threshold: '10.00' }]);
  });

  it("never shows or changes another account's rule or alerts", async () => {
    const one = await owner();
    const other = await owner();
    const card = await issuedCard(one, issuer);
    expect((await setRule(one, card.id, {})).code).toBe(0);
    await one.api.put('/account/alerts', { wallet: [{ currency: 'USD', threshold: '10.00' }] });
    expect((await other.api.get(`/card/${card.id}/auto-recharge`)).code).toBe(CardErrorCode.CARD_NOT_FOUND);
    expect((await setRule(other, card.id, { enabled: false })).code).toBe(CardErrorCode.CARD_NOT_FOUND);
    expect(await other.api.data<AlertsAnswer>('GET', '/account/alerts')).toEqual({ wallet: [], card_default_threshold: null });
    expect((await ruleOf(one, card.id)).enabled).toBe(true);
  });
});
