import { revealAnswer, revealBody } from '@portal/contract/cards';
import { envelope } from '@portal/contract/envelope';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../http/envelope.ts';
import type { SessionService } from '../sessions/service.ts';
import type { CardRevealService } from './service.ts';

const tags = ['cards'];
const security = [{ bearer: [] }];
const idParams = z.object({ id: z.string().max(100) });

/** A card's full number, CVV and expiry, for the signed-in account's own cards only, never cached. */
export const cardRevealRoutes: FastifyPluginAsyncZod<{ reveals: CardRevealService; sessions: SessionService }> = async (app, { reveals, sessions }) => {
  app.addHook('onRequest', sessions.guard());

  app.post(
    '/card/:id/reveal',
    {
      schema: {
        tags,
        security,
        summary: "The card's full number, CVV and expiry: with an access code, or within five minutes of one",
        params: idParams,
        body: revealBody,
        response: { 200: envelope(revealAnswer) },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return ok(
        await reveals.reveal(request.merchant.id, request.auth, request.params.id, request.body ?? {}, {
          ip: request.ip,
          userAgent: request.headers['user-agent'] ?? '',
        }),
      );
    },
  );
};
