import { IDEMPOTENCY_HEADER, IDEMPOTENCY_KEY_PATTERN } from '@portal/contract/cards';
import { CardErrorCode } from '@portal/contract/card-errors';
import type { FastifyRequest } from 'fastify';
import { AppError } from './errors.ts';

/** The request's Idempotency-Key (8–128 visible ASCII characters); a call that moves money is refused without one. */
export function idempotencyKey(request: FastifyRequest): string {
  const value = request.headers[IDEMPOTENCY_HEADER];
  const key = Array.isArray(value) ? undefined : value;
  if (!key || !IDEMPOTENCY_KEY_PATTERN.test(key)) throw new AppError(CardErrorCode.IDEMPOTENCY_KEY_MISSING);
  return key;
}

