import { balanceRuleCalls } from '@portal/contract/api/balance-rules';
import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../http/envelope.ts';
import { registerCall } from '../../http/register-call.ts';
import { cardScopeOf } from '../cards/service.ts';
import type { BalanceRuleService } from './service.ts';

/** A card's auto top-up rule (the cards the member may see) and the account's low-balance alerts. */
export const balanceRuleRoutes: FastifyPluginAsync<{ rules: BalanceRuleService }> = async (app, { rules }) => {
  registerCall(app, balanceRuleCalls.autoRecharge, async (request) => ok(await rules.rule(request.merchant.id, cardScopeOf(request.principal), request.params.id)));
  registerCall(app, balanceRuleCalls.setAutoRecharge, async (request) =>
    ok(await rules.setRule(request.merchant.id, cardScopeOf(request.principal), request.params.id, request.body)),
  );
  registerCall(app, balanceRuleCalls.removeAutoRecharge, async (request) =>
    ok(await rules.removeRule(request.merchant.id, cardScopeOf(request.principal), request.params.id)),
  );
  registerCall(app, balanceRuleCalls.tagAutoRecharge, async (request) => ok(await rules.tagRules(request.principal.account.id)));
  registerCall(app, balanceRuleCalls.setTagAutoRecharge, async (request) =>
    ok(await rules.setTagRule(request.merchant.id, cardScopeOf(request.principal), request.params.tag, request.body)),
  );
  registerCall(app, balanceRuleCalls.removeTagAutoRecharge, async (request) => ok(await rules.removeTagRule(cardScopeOf(request.principal), request.params.tag)));
  registerCall(app, balanceRuleCalls.alerts, async (request) => ok(await rules.alerts(request.principal.account.id)));
  registerCall(app, balanceRuleCalls.setAlerts, async (request) => ok(await rules.setAlerts(request.merchant.id, request.principal.account.id, request.body)));
};
