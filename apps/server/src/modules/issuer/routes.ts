import { API_BASE } from '@portal/contract/api/call';
import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../http/envelope.ts';
import type { IssuerEventService } from './service.ts';

/**
 * POST /api/v1/issuer/webhook: the card issuer's events (shared/design/cards.md). It belongs to no
 * merchant, so it is mounted in the platform context (http/platform-routes.ts), which keeps the body's
 * exact bytes for the signature. 200 once processed, again for a repeat; 401 for a bad signature. An
 * authorisation is answered with its decision as the body, `{approved, decline_code?}` (again for a repeat).
 */
export const issuerWebhookRoutes =
  (issuer: IssuerEventService): FastifyPluginAsync =>
  async (app) => {
    app.post(`${API_BASE}/issuer/webhook`, { schema: { hide: true } }, async (request) => {
      const signature = request.headers['issuer-signature'];
      const received = await issuer.receive(request.rawBody, Array.isArray(signature) ? signature[0] : signature, request.body);
      // a decision the issuer waits for (an authorisation) is the whole body, as the issuer protocol has it
      if ('reply' in received && received.reply) return received.reply;
      return ok(received);
    });
  };
