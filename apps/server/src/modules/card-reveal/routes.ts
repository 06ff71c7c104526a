import { cardCalls } from '@portal/contract/api/cards';
import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../http/envelope.ts';
import { registerCall } from '../../http/register-call.ts';
import type { CardRevealService } from './service.ts';
import { sessionOf } from '../../http/principal.ts';

/** A card's full number, CVV and expiry, for the signed-in account's own cards only, never cached. */
export const cardRevealRoutes: FastifyPluginAsync<{ reveals: CardRevealService }> = async (app, { reveals }) => {
  registerCall(app, cardCalls.reveal, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return ok(
      await reveals.reveal(request.merchant.id, sessionOf(request), request.params.id, request.body ?? {}, {
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? '',
      }),
    );
  });
};
