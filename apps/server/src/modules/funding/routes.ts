import { fundingCalls } from '@portal/contract/api/funding';
import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../http/envelope.ts';
import { registerCall } from '../../http/register-call.ts';
import { cardScopeOf } from '../cards/service.ts';
import type { FundingService } from './service.ts';

/** A card's auto top-up rule (the cards the member may see) and the account's low-balance alerts. */
export const fundingRoutes: FastifyPluginAsync<{ funding: FundingService }> = async (app, { funding }) => {
  registerCall(app, fundingCalls.autoRecharge, async (request) => ok(await funding.rule(request.merchant.id, cardScopeOf(request.principal), request.params.id)));
  registerCall(app, fundingCalls.setAutoRecharge, async (request) =>
    ok(await funding.setRule(request.merchant.id, cardScopeOf(request.principal), request.params.id, request.body)),
  );
  registerCall(app, fundingCalls.alerts, async (request) => ok(await funding.alerts(request.principal.account.id)));
  registerCall(app, fundingCalls.setAlerts, async (request) => ok(await funding.setAlerts(request.merchant.id, request.principal.account.id, request.body)));
};
