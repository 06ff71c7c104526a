import { merchantCalls } from '@portal/contract/api/merchant';
import { ErrorCode } from '@portal/contract/errors';
import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../http/envelope.ts';
import { AppError } from '../../http/errors.ts';
import { registerCall } from '../../http/register-call.ts';
import type { AgreementService } from './service.ts';

export const agreementRoutes: FastifyPluginAsync<{ agreements: AgreementService }> = async (app, { agreements }) => {
  registerCall(app, merchantCalls.agreementTitles, async (request) => ok(await agreements.titles(request.merchant.id)));

  registerCall(app, merchantCalls.agreement, async (request) => {
    const agreement = await agreements.find(request.merchant.id, request.params.id);
    if (!agreement) throw new AppError(ErrorCode.AGREEMENT_NOT_FOUND);
    return ok(agreement);
  });
};
