import { merchantCalls } from '@portal/contract/api/merchant';
import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../http/envelope.ts';
import { registerCall } from '../../http/register-call.ts';
import { toMerchantView } from './service.ts';

/** The request's merchant is found from its host before any route runs (app.ts). */
export const merchantRoutes: FastifyPluginAsync = async (app) => {
  registerCall(app, merchantCalls.merchant, async (request) => ok(toMerchantView(request.merchant)));
};
