import { teamCalls } from '@portal/contract/api/team';
import { chinaDateTime } from '@portal/contract/date-time';
import { XLSX_CONTENT_TYPE } from '@portal/contract/wallet';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { withCallTrace } from '../../http/call-trace.ts';
import { ok } from '../../http/envelope.ts';
import { type CallActivity, registerCall } from '../../http/register-call.ts';
import type { Clock } from '../../lib/clock.ts';
import { cardScopeOf, type CardService } from '../cards/service.ts';
import { activityNotes } from './notes.ts';
import { type ActivityService, actorOf } from './service.ts';

type CardLookup = Pick<CardService, 'ownCard'>;

/** GET /team/activity and its export: the account's log, filtered; and one card's entries. */
export const activityRoutes: FastifyPluginAsync<{ activity: ActivityService; clock: Clock; cards: CardLookup }> = async (app, { activity, clock, cards }) => {
  registerCall(app, teamCalls.cardActivity, async (request) => {
    // a member who sees only the cards they hold does not learn of another's
    const card = await cards.ownCard(request.merchant.id, cardScopeOf(request.principal), request.params.id);
    return ok(await activity.list(request.merchant.id, request.principal.account.id, { ...request.query, card_id: card.id }));
  });

  registerCall(app, teamCalls.activityMembers, async (request) => ok(await activity.members(request.merchant.id, request.principal.account.id)));

  registerCall(app, teamCalls.activity, async (request) => ok(await activity.list(request.merchant.id, request.principal.account.id, request.query)));

  registerCall(app, teamCalls.exportActivity, async (request, reply) => {
    const stream = await activity.export(request.merchant.id, request.principal.account.id, request.query);
    const day = chinaDateTime(clock.now()).slice(0, 10).replaceAll('-', '');
    const name = `操作日志-${day}.xlsx`;
    return reply
      .type(XLSX_CONTENT_TYPE)
      .header('content-disposition', `attachment; filename="activity-${day}.xlsx"; filename*=UTF-8''${encodeURIComponent(name)}`)
      .header('cache-control', 'no-store')
      .send(stream);
  });
};

/**
 * What runs around every registered call: a success of a call the log traces (`notes.ts`) is written
 * to the log with the member who made it, their address and browser. A call its rule writes `within`
 * the change's own transaction has it written there by its module (`traceWithin`, http/call-trace.ts),
 * and never afterwards: a replay under the same Idempotency-Key answers the first answer without
 * running the change, and so writes nothing again. Any other traced call is written once it has
 * answered, and a failure to write it then is logged and does not change the answer: the change
 * itself is done.
 */
export function callActivity(activity: ActivityService): CallActivity {
  return {
    async around(call, request: FastifyRequest, handle) {
      const rule = activityNotes.get(call);
      if (!rule || !request.principal) return handle();
      const principal = request.principal;
      const actor = () => actorOf(principal as Parameters<typeof actorOf>[0], { ip: request.ip, userAgent: String(request.headers['user-agent'] ?? '') }, request.merchant.id);
      const asked = () => ({ params: (request.params ?? {}) as Record<string, string>, body: (request.body ?? {}) as Record<string, unknown> });
      let written: string | null = null;
      const answer = await withCallTrace(
        {
          call,
          async write(tx, data) {
            if (!rule.within) throw new Error(`${call.method} ${call.path} is written after it answers, not within its change`);
            const note = rule.describe({ ...asked(), data });
            if (note) written = await activity.record(actor(), note, tx);
          },
          async retract(tx) {
            if (written === null) return;
            await activity.retract(written, tx);
            written = null;
          },
        },
        handle,
      );
      const envelope = answer as { code?: number; data?: unknown } | undefined;
      if (rule.within || envelope?.code !== 0) return answer;
      try {
        const note = rule.describe({ ...asked(), data: envelope.data });
        if (note) await activity.record(actor(), note);
      } catch (error) {
        request.log.error({ err: error, call: `${call.method} ${call.path}` }, 'the activity log could not be written');
      }
      return answer;
    },
  };
}
