import { fundingCalls } from '@portal/contract/api/funding';
import { RECEIPT_MAX_BYTES } from '@portal/contract/funding';
import { FundingErrorCode } from '@portal/contract/funding-errors';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { ok } from '../../http/envelope.ts';
import { AppError } from '../../http/errors.ts';
import { registerCall } from '../../http/register-call.ts';
import { readLimited } from './receipts.ts';
import type { FundingCaller, FundingService } from './service.ts';

const callerOf = (request: FastifyRequest): FundingCaller => ({ accountId: request.principal.account.id, memberId: request.principal.member.id });

/**
 * 钱包充值: the instructions, notices and receipts of the signed-in account only. A receipt is the raw
 * request body: read up to 5 MB (more is refused as it arrives), its kind told by its bytes.
 */
export const fundingRoutes: FastifyPluginAsync<{ funding: FundingService }> = async (app, { funding }) => {
  // any body that is not JSON is read as bytes, in this plugin's calls only; the upload decides what it is
  app.addContentTypeParser('*', (request, payload, done) => {
    if (Number(request.headers['content-length'] ?? 0) > RECEIPT_MAX_BYTES) {
      done(new AppError(FundingErrorCode.RECEIPT_TOO_LARGE));
      return;
    }
    readLimited(payload).then(
      (bytes) => done(null, bytes),
      (error: Error) => done(error),
    );
  });

  registerCall(app, fundingCalls.instructions, async (request) =>
    ok(await funding.instructions(request.merchant.id, request.principal.account.id, request.query.currency)),
  );

  registerCall(app, fundingCalls.file, async (request) => ok(await funding.fileNotice(request.merchant.id, callerOf(request), request.body)));

  registerCall(app, fundingCalls.list, async (request) => ok(await funding.list(request.merchant.id, request.principal.account.id, request.query)));

  registerCall(app, fundingCalls.uploadReceipt, async (request) => {
    const body: unknown = request.body;
    if (!Buffer.isBuffer(body)) throw new AppError(FundingErrorCode.RECEIPT_TYPE);
    return ok(await funding.uploadReceipt(request.merchant.id, callerOf(request), body));
  });

  registerCall(app, fundingCalls.receipt, async (request, reply) => {
    const { type, bytes } = await funding.receipt(request.merchant.id, request.principal.account.id, request.params.id);
    return reply.type(type).header('cache-control', 'private, no-store').header('content-disposition', 'inline').send(bytes);
  });
};
