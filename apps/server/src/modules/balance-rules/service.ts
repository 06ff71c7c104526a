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
import type { BalanceRuleDeps } from './deps.ts';
import { findRule, latestRun, type RuleRow, rulesOn, saveRule, toppedUpSince } from './store.ts';
import { watchPart } from './watch.ts';

export type { BalanceRuleDeps } from './deps.ts';

/** Cards a rule cannot be set on: cancelled, being cancelled, or never opened. */
const CLOSED = new Set(['DELETE', 'DELETING', 'FAIL']);

/**
 * Money that moves by itself and balances that are watched (growing-customers.md §3): a card's auto
 * top-up rule, the account's low-balance alerts. The ledger hands this module every movement that
 * touches a watched balance (watch.ts), inside that movement's transaction.
 */
export function createBalanceRuleService(deps: BalanceRuleDeps) {
  const { db, clock, cards, products } = deps;
  const auto = autoRechargePart(deps);
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
      if (CLOSED.has(card.status)) throw new AppError(BalanceRuleErrorCode.AUTO_RECHARGE_CARD_CLOSED);
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
        });
        await auto.syncRuleWatch(tx, merchantId, rule);
        await auto.syncResumeWatch(tx, merchantId, card.accountId, card.currency);
        const answer = await ruleAnswer(tx, card, rule);
        await traceWithin(tx, balanceRuleCalls.setAutoRecharge, { card, rule: answer });
        return answer;
      });
    },

    /** What a page of cards shows of its rules (the card list, a card's page). */
    async briefs(cardIds: string[], tx?: Tx) {
      const rows = await rulesOn(tx ?? db, cardIds);
      return new Map(rows.map((row) => [row.cardId, { threshold: fromMinorUnits(row.threshold), target: fromMinorUnits(row.target), status: row.status as AutoRechargeRule['status'] }]));
    },

    /** GET /account/alerts */
    alerts: (accountId: string) => alerts.settings(accountId),

    /** PUT /account/alerts */
    setAlerts: (merchantId: string, accountId: string, body: Parameters<typeof alerts.save>[2]) => alerts.save(merchantId, accountId, body),
  };
}

export type BalanceRuleService = ReturnType<typeof createBalanceRuleService>;
