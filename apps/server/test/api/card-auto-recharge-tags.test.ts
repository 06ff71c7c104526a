import { randomUUID } from 'node:crypto';
import type { AutoRechargeRule, TagAutoRechargeList, TagAutoRechargeRule } from '@portal/contract/balance-rules';
import { BalanceRuleErrorCode } from '@portal/contract/balance-rules-errors';
import type { BulkActionAnswer } from '@portal/contract/card-bulk';
import type { CardItem } from '@portal/contract/cards';
import { ErrorCode } from '@portal/contract/errors';
import { TeamErrorCode } from '@portal/contract/team-errors';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.ts';
import type { ApiClient } from '../helpers/api.ts';
import { scriptedIssuerApp } from '../helpers/issuer.ts';
import { expectSoundBooks } from '../helpers/ledger.ts';
import { queryRows } from '../helpers/sql.ts';
import { issuedCard, joinTeam, readyForCards, type Teammate, teamOwner } from '../helpers/team.ts';
import { until } from '../helpers/until.ts';

const clock = new ManualClock(new Date('2026-11-24T08:00:00Z'));
const { t, issuer } = scriptedIssuerApp(clock);

async function owner() {
  const who = await teamOwner(t);
  await readyForCards(t, who);
  return who;
}

/** A purchase the simulated card network asks to authorise (every new card holds 20.00). */
const purchase = (cardId: string, amount: string) => {
  clock.advance(1000);
  return issuer.send('authorization.request', { id: `auth_${randomUUID()}`, card_id: cardId, amount, currency: 'USD', merchant_name: 'Meta Ads', mcc: '7311', country: 'US' });
};

const rule = { enabled: true, threshold: '10.00', target: '40.00', daily_max: '100.00' };
const setTagRule = (who: Teammate, tag: string, body: Record<string, unknown> = {}) =>
  who.api.put<TagAutoRechargeRule>(`/card/tag-auto-recharge/${encodeURIComponent(tag)}`, { ...rule, ...body });
const removeTagRule = (who: Teammate, tag: string) => who.api.delete<{ tag: string }>(`/card/tag-auto-recharge/${encodeURIComponent(tag)}`);
const tagRules = (who: Teammate) => who.api.data<TagAutoRechargeList>('GET', '/card/tag-auto-recharge');
const ruleOf = (who: Teammate, cardId: string) => who.api.data<AutoRechargeRule>('GET', `/card/${cardId}/auto-recharge`);
const tag = async (who: Teammate, cardId: string, tags: string[]) => {
  const answer = await who.api.put<CardItem>(`/card/${cardId}/tags`, { tags });
  expect(answer.code, answer.message).toBe(0);
};
/** What the card may spend (`balance` is net of what authorisations hold). */
const available = async (who: Teammate, cardId: string) => (await who.api.data<CardItem>('GET', `/card/${cardId}`)).balance;
const watched = async (cardId: string) =>
  (await queryRows<{ below: string }>(t.database.db, sql`select below::text as below from ledger_watches where watch_key = ${`auto-recharge:${cardId}`}`)).map((row) => row.below);
const runs = (cardId: string) =>
  queryRows<{ status: string; amount: string | null }>(t.database.db, sql`select status, amount::text as amount from auto_recharge_runs where card_id = ${cardId} order by created_at`);
const settled = (cardId: string, n: number) =>
  until(`${n} ended auto top-up runs of ${cardId}`, async () => {
    const all = await runs(cardId);
    return all.length === n && all.every((run) => run.status !== 'PENDING') && all;
  });

const bulk = async (api: ApiClient, body: Record<string, unknown>) => {
  const started = await api.post<{ id: string }>('/card/bulk-actions', body, { headers: { 'idempotency-key': randomUUID() } });
  expect(started.code, started.message).toBe(0);
  return until(`bulk action ${started.data.id} done`, async () => {
    const now = await api.data<BulkActionAnswer>('GET', `/card/bulk-actions/${started.data.id}`);
    return now.status === 'DONE' ? now : undefined;
  });
};

describe('auto top-up rules per tag', () => {
  it('puts a tag’s rule in force on its cards, shows where it comes from, and tops a card up after the purchase that crossed', async () => {
    const who = await owner();
    const card = await issuedCard(who, issuer, '投放卡');
    const other = await issuedCard(who, issuer, '无标签');
    await tag(who, card.id, ['投放']);
    const set = await setTagRule(who, '投放');
    expect(set.code, set.message).toBe(0);
    expect(set.data).toMatchObject({ tag: '投放', enabled: true, threshold: '10.00', target: '40.00', daily_max: '100.00', cards_tagged: 1, cards_in_force: 1 });
    expect(await ruleOf(who, card.id)).toMatchObject({ enabled: true, status: 'ACTIVE', source: 'TAG', source_tag: '投放', threshold: '10.00', target: '40.00' });
    expect(await ruleOf(who, other.id)).toMatchObject({ enabled: false, source: null, source_tag: null });
    const list = await who.api.data<{ items: CardItem[] }>('GET', '/card');
    expect(list.items.find((item) => item.id === card.id)?.auto_recharge).toEqual({ threshold: '10.00', target: '40.00', status: 'ACTIVE', tag: '投放' });
    expect((await tagRules(who)).items.map((item) => item.tag)).toEqual(['投放']);
    const logged = await queryRows<{ summary: string }>(t.database.db, sql`select summary from activity_log where account_id = ${who.accountId} and action = 'TAG_AUTO_RECHARGE'`);
    expect(logged.map((row) => row.summary)).toEqual(['设置标签「投放」的自动充值：低于 10.00 时充至 40.00，每日上限 100.00']);

    await purchase(card.id, '15.00');
    expect(await settled(card.id, 1)).toEqual([{ status: 'DONE', amount: '3500' }]);
    expect(await available(who, card.id)).toBe('40.00');
    await purchase(other.id, '15.00');
    expect(await runs(other.id)).toEqual([]);
    await expectSoundBooks(t.database.db);
  });

  it('lets a card’s own rule win over its tags’ and gives the tag’s rule back when the own rule is removed', async () => {
    const who = await owner();
    const card = await issuedCard(who, issuer);
    await tag(who, card.id, ['订阅']);
    expect((await who.api.put(`/card/${card.id}/auto-recharge`, { ...rule, target: '30.00' })).code).toBe(0);
    expect((await setTagRule(who, '订阅', { target: '60.00' })).data).toMatchObject({ cards_tagged: 1, cards_in_force: 0 });
    expect(await ruleOf(who, card.id)).toMatchObject({ source: 'CARD', source_tag: null, target: '30.00' });
    await purchase(card.id, '15.00');
    await settled(card.id, 1);
    expect(await available(who, card.id)).toBe('30.00');

    const back = await who.api.delete<AutoRechargeRule>(`/card/${card.id}/auto-recharge`);
    expect(back.code, back.message).toBe(0);
    expect(back.data).toMatchObject({ enabled: true, source: 'TAG', source_tag: '订阅', target: '60.00' });
    await purchase(card.id, '25.00');
    await settled(card.id, 2);
    expect(await available(who, card.id)).toBe('60.00');
  });

  it('follows a card gaining and losing the tag at once, its watch with it', async () => {
    const who = await owner();
    const card = await issuedCard(who, issuer);
    expect((await setTagRule(who, '临时')).code).toBe(0);
    expect(await watched(card.id)).toEqual([]);
    await tag(who, card.id, ['临时']);
    expect(await ruleOf(who, card.id)).toMatchObject({ source: 'TAG', source_tag: '临时' });
    expect(await watched(card.id)).toEqual(['1000']);
    await tag(who, card.id, []);
    expect(await ruleOf(who, card.id)).toMatchObject({ enabled: false, source: null });
    expect(await watched(card.id)).toEqual([]);
    await purchase(card.id, '15.00');
    expect(await runs(card.id)).toEqual([]);
    // a card below the threshold when it gains the tag counts as crossing at its next movement
    await tag(who, card.id, ['临时']);
    await purchase(card.id, '1.00');
    await settled(card.id, 1);
    expect(await available(who, card.id)).toBe('40.00');
  });

  it('chooses the highest target of several tags’ rules, skips a switched-off one, and falls back when a rule is removed', async () => {
    const who = await owner();
    const card = await issuedCard(who, issuer);
    await tag(who, card.id, ['甲', '乙', '丙']);
    await setTagRule(who, '甲', { target: '30.00' });
    await setTagRule(who, '乙', { target: '70.00' });
    await setTagRule(who, '丙', { target: '90.00', enabled: false });
    expect(await ruleOf(who, card.id)).toMatchObject({ source_tag: '乙', target: '70.00' });
    const removed = await removeTagRule(who, '乙');
    expect(removed.code, removed.message).toBe(0);
    expect(await ruleOf(who, card.id)).toMatchObject({ source_tag: '甲', target: '30.00' });
    await setTagRule(who, '丙', { target: '90.00', enabled: true });
    expect(await ruleOf(who, card.id)).toMatchObject({ source_tag: '丙', target: '90.00' });
    expect((await removeTagRule(who, '乙')).code).toBe(BalanceRuleErrorCode.TAG_RULE_NOT_FOUND);
    const bad = await setTagRule(who, '甲', { threshold: '50.00', target: '40.00' });
    expect(bad.code).toBe(ErrorCode.VALIDATION);
    expect((await tagRules(who)).items.find((item) => item.tag === '甲')?.target).toBe('30.00');
  });

  it('gives and takes the rule with bulk ADD_TAGS and REMOVE_TAGS', async () => {
    const who = await owner();
    const cards = [await issuedCard(who, issuer), await issuedCard(who, issuer)];
    await setTagRule(who, '批量');
    const ids = cards.map((card) => card.id);
    await bulk(who.api, { action: 'ADD_TAGS', card_ids: ids, params: { tags: ['批量'] } });
    for (const id of ids) expect(await ruleOf(who, id)).toMatchObject({ source: 'TAG', source_tag: '批量' });
    await bulk(who.api, { action: 'REMOVE_TAGS', card_ids: ids, params: { tags: ['批量'] } });
    for (const id of ids) expect(await ruleOf(who, id)).toMatchObject({ enabled: false, source: null });
  });
});

describe('bulk SET_AUTO_RECHARGE', () => {
  it('sets each card’s own rule, and switches every one off, a tag’s rule kept as the card’s own, off', async () => {
    const who = await owner();
    const [one, two, tagged] = [await issuedCard(who, issuer), await issuedCard(who, issuer), await issuedCard(who, issuer)];
    const ids = [one.id, two.id];
    const set = await bulk(who.api, { action: 'SET_AUTO_RECHARGE', card_ids: ids, params: { ...rule, target: '45.00' } });
    expect(set).toMatchObject({ action: 'SET_AUTO_RECHARGE', total: 2, succeeded: 2, failed: 0 });
    for (const id of ids) expect(await ruleOf(who, id)).toMatchObject({ enabled: true, source: 'CARD', target: '45.00' });
    await purchase(one.id, '15.00');
    await settled(one.id, 1);
    expect(await available(who, one.id)).toBe('45.00');

    await tag(who, tagged.id, ['关闭']);
    await setTagRule(who, '关闭');
    const off = await bulk(who.api, { action: 'SET_AUTO_RECHARGE', card_ids: [...ids, tagged.id], params: { enabled: false } });
    expect(off).toMatchObject({ succeeded: 3, failed: 0 });
    for (const id of ids) expect(await ruleOf(who, id)).toMatchObject({ enabled: false, source: 'CARD', target: '45.00' });
    expect(await ruleOf(who, tagged.id)).toMatchObject({ enabled: false, source: 'CARD', target: '40.00' });
    expect(await watched(tagged.id)).toEqual([]);
    await purchase(tagged.id, '15.00');
    expect(await runs(tagged.id)).toEqual([]);
  });

  it('fails a cancelled card alone, and refuses a target not above the threshold before anything changes', async () => {
    const who = await owner();
    const [good, other] = [await issuedCard(who, issuer), await issuedCard(who, issuer)];
    const bad = await who.api.post('/card/bulk-actions', { action: 'SET_AUTO_RECHARGE', card_ids: [good.id], params: { ...rule, target: '5.00' } }, { headers: { 'idempotency-key': randomUUID() } });
    expect(bad.code).toBe(ErrorCode.VALIDATION);
    await t.database.db.execute(sql`update cards set status = 'DELETE' where id = ${other.id}`);
    const ended = await bulk(who.api, { action: 'SET_AUTO_RECHARGE', card_ids: [good.id, other.id], params: rule });
    expect(ended).toMatchObject({ succeeded: 1, failed: 1 });
    expect(ended.items.find((item) => item.card_id === other.id)?.reason).toBeTruthy();
  });
});

describe('who may set rules per tag and in bulk', () => {
  it('lets the owner and finance set a tag’s rule; refuses a member (own cards only) and a viewer, changing nothing', async () => {
    const boss = await owner();
    const finance = await joinTeam(t, boss, 'FINANCE');
    const viewer = await joinTeam(t, boss, 'VIEWER');
    const member = await joinTeam(t, boss, 'MEMBER');
    const memberCard = await issuedCard(member, issuer);
    expect((await setTagRule(finance, '财务')).code).toBe(0);
    expect((await setTagRule(member, '成员')).code).toBe(BalanceRuleErrorCode.TAG_RULE_TEAM_ONLY);
    expect((await removeTagRule(member, '财务')).code).toBe(BalanceRuleErrorCode.TAG_RULE_TEAM_ONLY);
    expect((await setTagRule(viewer, '观察')).code).toBe(TeamErrorCode.PERMISSION_DENIED);
    expect((await tagRules(viewer)).items.map((item) => item.tag)).toEqual(['财务']);
    // a member sets the rule of the cards they hold in bulk; a viewer may not
    expect(await bulk(member.api, { action: 'SET_AUTO_RECHARGE', card_ids: [memberCard.id], params: rule })).toMatchObject({ succeeded: 1 });
    const refused = await viewer.api.post('/card/bulk-actions', { action: 'SET_AUTO_RECHARGE', card_ids: [memberCard.id], params: rule }, { headers: { 'idempotency-key': randomUUID() } });
    expect(refused.code).toBe(TeamErrorCode.PERMISSION_DENIED);
  });

  it('never shows or changes another account’s tag rules', async () => {
    const one = await owner();
    const other = await owner();
    const card = await issuedCard(one, issuer);
    await tag(one, card.id, ['共享']);
    await setTagRule(one, '共享');
    expect((await tagRules(other)).items).toEqual([]);
    expect((await removeTagRule(other, '共享')).code).toBe(BalanceRuleErrorCode.TAG_RULE_NOT_FOUND);
    await setTagRule(other, '共享', { target: '90.00' });
    expect(await ruleOf(one, card.id)).toMatchObject({ source_tag: '共享', target: '40.00' });
  });
});
