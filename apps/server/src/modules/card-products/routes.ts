import { openedAvailableAnswer, verificationAnswer, verificationBody } from '@portal/contract/cards';
import { envelope } from '@portal/contract/envelope';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../http/envelope.ts';
import type { SessionService } from '../sessions/service.ts';
import type { CardProductService } from './service.ts';

const tags = ['cards'];
const security = [{ bearer: [] }];

/** What the signed-in account has given before opening cards, and what it may open now. */
export const cardProductRoutes: FastifyPluginAsyncZod<{ products: CardProductService; sessions: SessionService }> = async (app, { products, sessions }) => {
  app.addHook('onRequest', sessions.guard());

  app.get(
    '/card/verification',
    { schema: { tags, security, summary: 'What the account has given before opening cards (the ID number masked)', response: { 200: envelope(verificationAnswer) } } },
    async (request) => ok(await products.verification(request.merchant.id, request.auth.account.id)),
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
    async (request) => ok(await products.saveVerification(request.merchant.id, request.auth.account.id, request.body)),
  );

  app.get(
    '/card/opened-available',
    { schema: { tags, security, summary: 'What the account has given, and the products it may open now with how many more', response: { 200: envelope(openedAvailableAnswer) } } },
    async (request) => ok(await products.openedAvailable(request.merchant.id, request.auth.account.id)),
  );
};
