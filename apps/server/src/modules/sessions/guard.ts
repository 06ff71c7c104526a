import { ErrorCode } from '@portal/contract/errors';
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../app.ts';
import { AppError } from '../../http/errors.ts';
import { type Authenticated, authenticate, bearerToken, type SessionStage } from './service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    auth: Authenticated;
  }
}

/**
 * An onRequest hook that admits a request only with a live session in one of the given stages.
 * FULL is the default: a session waiting for its second verification or for an e-mail can do
 * nothing else.
 */
export function requireSession(deps: Deps, stages: SessionStage[] = ['FULL']) {
  return async (request: FastifyRequest) => {
    const auth = await authenticate(
      deps.database.db,
      deps.clock,
      request.merchant.id,
      bearerToken(request.headers.authorization),
    );
    const stage = auth.session.stage as SessionStage;
    if (!stages.includes(stage)) {
      if (stage === 'VERIFY') throw new AppError(ErrorCode.VERIFICATION_REQUIRED);
      if (stage === 'BIND_EMAIL') throw new AppError(ErrorCode.EMAIL_REQUIRED);
      throw new AppError(ErrorCode.VALIDATION, { message: '当前登录状态无需此操作' });
    }
    request.auth = auth;
  };
}
