import { envelope } from '@portal/contract/envelope';
import { merchantSchema } from '@portal/contract/merchant';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../http/envelope.ts';
import { toMerchantView } from './service.ts';

/** The request's merchant is found from its host before any route runs (app.ts). */
export const merchantRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/merchant',
    {
      schema: {
        tags: ['merchant'],
        summary: 'Branding of the merchant that owns the request host',
        response: { 200: envelope(merchantSchema) },
      },
    },
    async (request) => ok(toMerchantView(request.merchant)),
  );
};
