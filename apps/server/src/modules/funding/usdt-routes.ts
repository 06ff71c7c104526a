import { API_BASE } from '@portal/contract/api/call';
import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../http/envelope.ts';
import { GATEWAY_SIGNATURE_HEADER } from '../../providers/crypto/protocol.ts';
import type { FundingService } from './service.ts';

/**
 * POST /api/v1/crypto/webhook: the crypto gateway's events. It belongs to no merchant (the address
 * names the account), so it is mounted in the platform context, which keeps the body's exact bytes for
 * the signature. 200 once processed and again for a replay; 401 (3131) for a forged or stale signature.
 */
export const cryptoWebhookRoutes =
  (funding: Pick<FundingService, 'receiveGatewayEvent'>): FastifyPluginAsync =>
  async (app) => {
    app.post(`${API_BASE}/crypto/webhook`, { schema: { hide: true } }, async (request) => {
      const signature = request.headers[GATEWAY_SIGNATURE_HEADER];
      return ok(await funding.receiveGatewayEvent(request.rawBody, Array.isArray(signature) ? signature[0] : signature, request.body));
    });
  };
