import { envelope } from '@portal/contract/envelope';
import { ErrorCode } from '@portal/contract/errors';
import { agreementIdParams, agreementSchema, agreementTitleListSchema } from '@portal/contract/merchant';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../http/envelope.ts';
import { AppError } from '../../http/errors.ts';
import type { AgreementService } from './service.ts';

export const agreementRoutes: FastifyPluginAsyncZod<{ agreements: AgreementService }> = async (app, { agreements }) => {

  app.get(
    '/merchant/user-agreement/title',
    {
      schema: {
        tags: ['merchant'],
        summary: 'Published user agreements of this merchant, newest first',
        response: { 200: envelope(agreementTitleListSchema) },
      },
    },
    async (request) => ok(await agreements.titles(request.merchant.id)),
  );

  app.get(
    '/merchant/user-agreement/:id',
    {
      schema: {
        tags: ['merchant'],
        summary: 'One user agreement: title and HTML text',
        params: agreementIdParams,
        response: { 200: envelope(agreementSchema) },
      },
    },
    async (request) => {
      const agreement = await agreements.find(request.merchant.id, request.params.id);
      if (!agreement) throw new AppError(ErrorCode.AGREEMENT_NOT_FOUND);
      return ok(agreement);
    },
  );
};
