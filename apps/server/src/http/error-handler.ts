import { ErrorCode } from '@portal/contract/errors';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from './errors.ts';

/** The answer of a refusal: its catalogue status and the envelope. */
export const sendError = (reply: FastifyReply, error: AppError) =>
  reply.status(error.status).send({ code: error.code, message: error.message, data: error.data });

/**
 * Every failure answers with a code of the contract's catalogue (its status and 中文 message): a
 * refusal as it was thrown, a body or query that fails its schema as VALIDATION naming each field, any
 * other client error as VALIDATION, anything else as INTERNAL (logged, never shown).
 */
export function errorAnswer(error: FastifyError | AppError, request: FastifyRequest): AppError {
  if (error instanceof AppError) return error;
  if (hasZodFastifySchemaValidationErrors(error)) {
    const fields = error.validation.map((issue) => ({
      field: issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || String(error.validationContext ?? ''),
      message: issue.message ?? '',
    }));
    return new AppError(ErrorCode.VALIDATION, { ...(fields[0]?.message ? { message: fields[0].message } : {}), data: { fields } });
  }
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return new AppError(ErrorCode.PAYLOAD_TOO_LARGE);
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) return new AppError(ErrorCode.VALIDATION);
  request.log.error({ err: error }, 'unhandled error');
  return new AppError(ErrorCode.INTERNAL);
}
