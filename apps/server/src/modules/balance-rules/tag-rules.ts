import { balanceRuleCalls } from '@portal/contract/api/balance-rules';
import { type autoRechargeBody, type TagAutoRechargeRule, winningTagRule } from '@portal/contract/balance-rules';
import { BalanceRuleErrorCode } from '@portal/contract/balance-rules-errors';
import { fromMinorUnits, toMinorUnits } from '@portal/contract/money';
import type { z } from 'zod';
import type { Tx } from '../../db/engine.ts';
import { traceWithin } from '../../http/call-trace.ts';
import { AppError } from '../../http/errors.ts';
import type { CardRow, CardScope } from '../cards/service.ts';
import type { autoRechargePart } from './auto-recharge.ts';
import { type BalanceRuleDeps, CLOSED_CARD } from './deps.ts';
import { findRule, saveRule } from './store.ts';
import { cardsTagged, deleteRule, deleteTagRule, lockTagRules, saveTagRule, type TagRuleRow, tagRuleCounts, tagRulesOf } from './tag-store.ts';

type AutoRecharge = ReturnType<typeof autoRechargePart>;

const ruleOf = (row: TagRuleRow, counts: { tagged: number; inForce: number } | undefined): TagAutoRechargeRule => ({
  tag: row.tag,
  enabled: row.enabled,
  threshold: fromMinorUnits(row.threshold),
  target: fromMinorUnits(row.target),
  daily_max: fromMinorUnits(row.dailyMax),
  cards_tagged: counts?.tagged ?? 0,
  cards_in_force: counts?.inForce ?? 0,
  updated_at: row.updatedAt.toISOString(),
});

/**
 * Auto top-up rules per tag. The rule in force on a card without a rule of its own is written onto the
 * card's own row (source TAG, with its tag), whenever a tag's rule or the card's tags change, in that
 * change's transaction: the ledger's watch and the runs then read one row a card, as for a card's own
 * rule, and the cost of a movement stays that of one card's rule however many tags carry rules.
 */
export function tagRulesPart(deps: BalanceRuleDeps, auto: AutoRecharge) {
  const { db, clock } = deps;

  /**
   * Puts on the card the rule its tags give (the winner of winningTagRule), or takes a tag's rule off when
   * none is left; a card's own rule is left as it is. `renewed`: the tag whose rule was just saved, whose
   * cards take it afresh (on again if it was paused, a card below its threshold crossing at its next movement).
   */
  async function applyTags(tx: Tx, card: CardRow, renewed?: string) {
    const current = await findRule(tx, card.id, { lock: true });
    if (current?.source === 'CARD') return;
    const winner = CLOSED_CARD.has(card.status) ? undefined : winningTagRule(await tagRulesOf(tx, card.accountId, card.tags));
    if (!winner) {
      if (!current) return;
      await deleteRule(tx, card.id);
      await auto.syncRuleWatch(tx, card.merchantId, { ...current, enabled: false });
      await auto.syncResumeWatch(tx, card.merchantId, card.accountId, card.currency);
      return;
    }
    const same =
      current?.enabled === true &&
      current.sourceTag === winner.tag &&
      current.threshold === winner.threshold &&
      current.target === winner.target &&
      current.dailyMax === winner.dailyMax;
    if (same && renewed !== winner.tag) return;
    const below = (await auto.available(card, tx)) < winner.threshold;
    const rule = await saveRule(tx, {
      cardId: card.id,
      merchantId: card.merchantId,
      accountId: card.accountId,
      currency: card.currency,
      enabled: true,
      threshold: winner.threshold,
      target: winner.target,
      dailyMax: winner.dailyMax,
      status: 'ACTIVE',
      pausedReason: null,
      pending: below,
      updatedAt: clock.now(),
      source: 'TAG',
      sourceTag: winner.tag,
    });
    await auto.syncRuleWatch(tx, card.merchantId, rule);
    await auto.syncResumeWatch(tx, card.merchantId, card.accountId, card.currency);
  }

  /** A rule per tag applies to every card of the account with the tag: a member who acts only on their own cards may not set one. */
  const teamOnly = (scope: CardScope) => {
    if (scope.heldBy) throw new AppError(BalanceRuleErrorCode.TAG_RULE_TEAM_ONLY);
  };

  return {
    applyTags,

    /** The card's tags changed (PUT /card/{id}/tags, a bulk ADD_TAGS or REMOVE_TAGS), inside that change's transaction. */
    async tagsChanged(tx: Tx, card: CardRow) {
      await lockTagRules(tx, card.accountId);
      await applyTags(tx, card);
    },

    /** GET /card/tag-auto-recharge */
    async list(accountId: string) {
      const rows = await tagRulesOf(db, accountId);
      const counts = await tagRuleCounts(db, accountId);
      return { items: rows.map((row) => ruleOf(row, counts.get(row.tag))) };
    },

    /** PUT /card/tag-auto-recharge/{tag}: saved, and in force at once on the tag's cards without a rule of their own. */
    async save(merchantId: string, scope: CardScope, tag: string, body: z.output<typeof autoRechargeBody>) {
      teamOnly(scope);
      return db.transaction(async (tx) => {
        await lockTagRules(tx, scope.accountId);
        const row = await saveTagRule(tx, {
          accountId: scope.accountId,
          tag,
          merchantId,
          enabled: body.enabled,
          threshold: toMinorUnits(body.threshold),
          target: toMinorUnits(body.target),
          dailyMax: toMinorUnits(body.daily_max),
          updatedAt: clock.now(),
        });
        for (const card of await cardsTagged(tx, scope.accountId, [tag])) await applyTags(tx, card, tag);
        const answer = ruleOf(row, (await tagRuleCounts(tx, scope.accountId)).get(tag));
        await traceWithin(tx, balanceRuleCalls.setTagAutoRecharge, answer);
        return answer;
      });
    },

    /** DELETE /card/tag-auto-recharge/{tag}: its cards fall back to their other tags' rules, or none. */
    async remove(scope: CardScope, tag: string) {
      teamOnly(scope);
      return db.transaction(async (tx) => {
        await lockTagRules(tx, scope.accountId);
        if (!(await deleteTagRule(tx, scope.accountId, tag))) throw new AppError(BalanceRuleErrorCode.TAG_RULE_NOT_FOUND);
        for (const card of await cardsTagged(tx, scope.accountId, [tag])) await applyTags(tx, card);
        await traceWithin(tx, balanceRuleCalls.removeTagAutoRecharge, { tag });
        return { tag };
      });
    },
  };
}
