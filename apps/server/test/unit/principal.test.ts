import { PUBLIC, session } from '@portal/contract/api/call';
import type { SessionStage } from '@portal/contract/enums';
import { ErrorCode } from '@portal/contract/errors';
import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/http/errors.ts';
import { type Principal, Principals } from '../../src/http/principal.ts';

/** A resolver that finds one session of the given stage, and counts how often it was asked. */
function principalsAt(stage: SessionStage) {
  const asked: Array<{ merchantId: string; token: string | undefined }> = [];
  const principal = { kind: 'session', account: { id: 'account-1' }, session: { id: 'session-1', stage } } as unknown as Principal;
  const principals = new Principals({
    async session(merchantId, token) {
      asked.push({ merchantId, token });
      if (!token) throw new AppError(ErrorCode.SESSION_MISSING);
      return { principal, stage };
    },
  });
  return { principals, asked, principal };
}

const requestWith = (authorization?: string) =>
  ({ merchant: { id: 'merchant-1' }, headers: authorization ? { authorization } : {} }) as unknown as FastifyRequest;

const codeOf = (promise: Promise<unknown>) => promise.then(() => 0, (error: AppError) => error.code);

describe('the principal of a request', () => {
  it('is resolved once from the bearer token and the merchant, and put on the request', async () => {
    const { principals, asked, principal } = principalsAt('FULL');
    const request = requestWith('Bearer abc');
    await principals.admit(session(), request);
    expect(asked).toEqual([{ merchantId: 'merchant-1', token: 'abc' }]);
    expect(request.principal).toBe(principal);
  });

  it('is not looked for on a public call', async () => {
    const { principals, asked } = principalsAt('FULL');
    const request = requestWith('Bearer abc');
    await principals.admit(PUBLIC, request);
    expect(asked).toEqual([]);
    expect(request.principal).toBeUndefined();
  });

  it('is refused in a stage the call does not admit, with the code that says what is missing', async () => {
    expect(await codeOf(principalsAt('VERIFY').principals.admit(session(), requestWith('Bearer a')))).toBe(ErrorCode.VERIFICATION_REQUIRED);
    expect(await codeOf(principalsAt('BIND_EMAIL').principals.admit(session(), requestWith('Bearer a')))).toBe(ErrorCode.EMAIL_REQUIRED);
    expect(await codeOf(principalsAt('FULL').principals.admit(session('VERIFY'), requestWith('Bearer a')))).toBe(ErrorCode.VALIDATION);
    expect(await codeOf(principalsAt('VERIFY').principals.admit(session('VERIFY', 'FULL'), requestWith('Bearer a')))).toBe(0);
  });

  it('passes on the refusal of a missing or unknown session', async () => {
    expect(await codeOf(principalsAt('FULL').principals.admit(session(), requestWith()))).toBe(ErrorCode.SESSION_MISSING);
    expect(await codeOf(principalsAt('FULL').principals.admit(session(), requestWith('Basic abc')))).toBe(ErrorCode.SESSION_MISSING);
  });
});
