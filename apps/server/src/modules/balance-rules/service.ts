import { chinaDayStart } from '@portal/contract/card-spending';
import type { Currency } from '@portal/contract/enums';
import type { AutoRechargeRule, autoRechargeBody } from '@portal/contract/balance-rules';
import { BalanceRuleErrorCode } from '@portal/contract/balance-rules-errors';
import { fromMinorUnits, toMinorUnits } from '@portal/contract/money';
import { balanceRuleCalls } from '@portal/contract/api/balance-rules';
import type { z } from 'zod';
import type { Db, Tx } from '../../db/engine.ts';
import { traceWithin } from '../../http/call-trace.ts';
import { AppError } from '../../http/errors.ts';
import type { CardRow, CardScope } from '../cards/service.ts';
import { alertsPart } from './alerts.ts';
import { autoRechargePart } from './auto-recharge.ts';
import { type BalanceRuleDeps, CLOSED_CARD } from './deps.ts';
import { pauseMailPart } from './pause-mail.ts';
import { tagRulesPart } from './tag-rules.ts';
import { deleteRule, lockTagRules } from './tag-store.ts';
import { findRule, latestRun, type RuleRow, rulesOn, saveRule, toppedUpSince } from './store.ts';
import { watchPart } from './watch.ts';

export type { BalanceRuleDeps } from './deps.ts';

/**
 * Money that moves by itself and balances that are watched (growing-customers.md §3): a card's auto
 * top-up rule, the account's low-balance alerts. The ledger hands this module every movement that
 * touches a watched balance (watch.ts), inside that movement's transaction.
 */
export function createBalanceRuleService(deps: BalanceRuleDeps) {
  const { db, clock, cards, products } = deps;
  const mails = pauseMailPart(deps);
  const auto = autoRechargePart(deps, mails);
  const tagRules = tagRulesPart(deps, auto);
  const alerts = alertsPart(deps);
  deps.ledger.watchBalances(watchPart(deps));

  async function ruleAnswer(tx: Db | Tx, card: CardRow, rule: RuleRow | undefined): Promise<AutoRechargeRule> {
    const used = await toppedUpSince(tx, card.id, chinaDayStart(clock.now()));
    const last = await latestRun(tx, card.id);
    return {
      card_id: card.id,
      currency: card.currency as Currency,
      enabled: rule?.enabled ?? false,
      threshold: rule ? fromMinorUnits(rule.threshold) : null,
      target: rule ? fromMinorUnits(rule.target) : null,
      daily_max: rule ? fromMinorUnits(rule.dailyMax) : null,
      status: (rule?.status as AutoRechargeRule['status'] | undefined) ?? 'ACTIVE',
      source: rule ? (rule.source as AutoRechargeRule['source']) : null,
      source_tag: rule?.source === 'TAG' ? rule.sourceTag : null,
      paused_reason: rule?.pausedReason ?? null,
      used_today: fromMinorUnits(used),
      last_run: last
        ? { at: last.createdAt.toISOString(), amount: last.amount === null ? null : fromMinorUnits(last.amount), status: last.status as 'PENDING' | 'DONE' | 'FAILED' | 'SKIPPED', reason: last.reason }
        : null,
    };
  }

  return {
    /** GET /card/{id}/auto-recharge */
    async rule(merchantId: string, scope: CardScope, id: string) {
      const card = await cards.ownCard(merchantId, scope, id);
      return ruleAnswer(db, card, await findRule(db, card.id));
    },

    /**
     * PUT /card/{id}/auto-recharge: the rule replaced, on again if it was paused; a card already below the
     * threshold counts as crossing it at its next movement.
     */
    async setRule(merchantId: string, scope: CardScope, id: string, body: z.output<typeof autoRechargeBody>) {
      const card = await cards.ownCard(merchantId, scope, id);
      if (CLOSED_CARD.has(card.status)) throw new AppError(BalanceRuleErrorCode.AUTO_RECHARGE_CARD_CLOSED);
      const product = await products.find(merchantId, { id: card.productId });
      const target = toMinorUnits(body.target);
      if (product && target > product.maxBalance) {
        const max = fromMinorUnits(product.maxBalance);
        throw new AppError(BalanceRuleErrorCode.AUTO_RECHARGE_TARGET_ABOVE_MAX, { params: { max, currency: card.currency }, data: { max, currency: card.currency } });
      }
      const threshold = toMinorUnits(body.threshold);
      return db.transaction(async (tx) => {
        await findRule(tx, card.id, { lock: true });
        const below = (await auto.available(card, tx)) < threshold;
        const rule = await saveRule(tx, {
          cardId: card.id,
          merchantId,
          accountId: card.accountId,
          currency: card.currency,
          enabled: body.enabled,
          threshold,
          target,
          dailyMax: toMinorUnits(body.daily_max),
          status: 'ACTIVE',
          pausedReason: null,
          pending: body.enabled && below,
          updatedAt: clock.now(),
          source: 'CARD',
          sourceTag: null,
        });
        await auto.syncRuleWatch(tx, merchantId, rule);
        await auto.syncResumeWatch(tx, merchantId, card.accountId, card.currency);
        const answer = await ruleAnswer(tx, card, rule);
        await traceWithin(tx, balanceRuleCalls.setAutoRecharge, { card, rule: answer });
        return answer;
      });
    },

    /** DELETE /card/{id}/auto-recharge: the card's own rule gone, the rule of its tags (if any) in force again. */
    async removeRule(merchantId: string, scope: CardScope, id: string) {
      const card = await cards.ownCard(merchantId, scope, id);
      return db.transaction(async (tx) => {
        await lockTagRules(tx, card.accountId);
        const own = await findRule(tx, card.id, { lock: true });
        if (own?.source === 'CARD') {
          await deleteRule(tx, card.id);
          await auto.syncRuleWatch(tx, merchantId, { ...own, enabled: false });
          await auto.syncResumeWatch(tx, merchantId, card.accountId, card.currency);
        }
        await tagRules.applyTags(tx, card);
        const answer = await ruleAnswer(tx, card, await findRule(tx, card.id));
        await traceWithin(tx, balanceRuleCalls.removeAutoRecharge, { card, rule: answer });
        return answer;
      });
    },

    /**
     * A bulk SET_AUTO_RECHARGE of `{enabled: false}`: the card's rule switched off as its own (a tag's rule
     * keeps its amounts, now the card's own and off); a card without a rule has nothing to switch off.
     */
    async switchOff(merchantId: string, scope: CardScope, id: string) {
      const card = await cards.ownCard(merchantId, scope, id);
      if (CLOSED_CARD.has(card.status)) throw new AppError(BalanceRuleErrorCode.AUTO_RECHARGE_CARD_CLOSED);
      return db.transaction(async (tx) => {
        const rule = await findRule(tx, card.id, { lock: true });
        if (!rule) return ruleAnswer(tx, card, undefined);
        const off = await saveRule(tx, { ...rule, enabled: false, status: 'ACTIVE', pausedReason: null, pending: false, source: 'CARD', sourceTag: null, updatedAt: clock.now() });
        await auto.syncRuleWatch(tx, merchantId, off);
        await auto.syncResumeWatch(tx, merchantId, card.accountId, card.currency);
        return ruleAnswer(tx, card, off);
      });
    },

    /** The card's tags changed, inside that change's transaction with the card locked. */
    tagsChanged: tagRules.tagsChanged,

    /** GET /card/tag-auto-recharge */
    tagRules: (accountId: string) => tagRules.list(accountId),

    /** PUT /card/tag-auto-recharge/{tag} */
    setTagRule: tagRules.save,

    /** DELETE /card/tag-auto-recharge/{tag} */
    removeTagRule: tagRules.remove,

    /** Sends the pause e-mails not sent yet (a process that died holding one: once its claim ran out). */
    sendPauseMails: mails.sendDue,

    /** What a page of cards shows of its rules (the card list, a card's page). */
    async briefs(cardIds: string[], tx?: Tx) {
      const rows = await rulesOn(tx ?? db, cardIds);
      return new Map(
        rows.map((row) => [
          row.cardId,
          { threshold: fromMinorUnits(row.threshold), target: fromMinorUnits(row.target), status: row.status as AutoRechargeRule['status'], ...(row.source === 'TAG' ? { tag: row.sourceTag } : {}) },
        ]),
      );
    },

    /** GET /account/alerts */
    alerts: (accountId: string) => alerts.settings(accountId),

    /** PUT /account/alerts */
    setAlerts: (merchantId: string, accountId: string, body: Parameters<typeof alerts.save>[2]) => alerts.save(merchantId, accountId, body),
  };
}

export type BalanceRuleService = ReturnType<typeof createBalanceRuleService>;
