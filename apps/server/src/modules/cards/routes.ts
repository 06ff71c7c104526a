import { verificationAnswer, verificationBody } from '@portal/contract/cards';
import { envelope } from '@portal/contract/envelope';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../http/envelope.ts';
import type { SessionService } from '../sessions/service.ts';
import type { CardService } from './service.ts';

const tags = ['cards'];
const security = [{ bearer: [] }];

/** The card calls (shared/design/cards.md): each sees the signed-in account's own data only. */
export const cardRoutes: FastifyPluginAsyncZod<{ cards: CardService; sessions: SessionService }> = async (app, { cards, sessions }) => {
  app.addHook('onRequest', sessions.guard());

  app.get(
    '/card/verification',
    { schema: { tags, security, summary: 'What the account has given before opening cards (the ID number masked)', response: { 200: envelope(verificationAnswer) } } },
    async (request) => ok(await cards.verification(request.merchant.id, request.auth.account.id)),
  );

  app.put(
    '/card/verification',
    {
      schema: {
        tags,
        security,
        summary: 'Give the real name and ID number, and/or the Latin name and the website where cards will be used',
        body: verificationBody,
        response: { 200: envelope(verificationAnswer) },
      },
    },
    async (request) => ok(await cards.saveVerification(request.merchant.id, request.auth.account.id, request.body)),
  );
};
