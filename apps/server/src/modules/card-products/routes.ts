import { cardCalls } from '@portal/contract/api/cards';
import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../http/envelope.ts';
import { registerCall } from '../../http/register-call.ts';
import type { CardProductService } from './service.ts';

/** What the signed-in account has given before opening cards, and what it may open now. */
export const cardProductRoutes: FastifyPluginAsync<{ products: CardProductService }> = async (app, { products }) => {
  registerCall(app, cardCalls.verification, async (request) => ok(await products.verification(request.merchant.id, request.principal.account.id)));

  registerCall(app, cardCalls.saveVerification, async (request) =>
    ok(await products.saveVerification(request.merchant.id, request.principal.account.id, request.body)),
  );

  registerCall(app, cardCalls.openedAvailable, async (request) => ok(await products.openedAvailable(request.merchant.id, request.principal.account.id)));
};
