import { isOperatorCaller, isSessionCaller, type OperatorCaller, type Who } from '@portal/contract/api/call';
import { isOperatorToken, type OperatorRole, type OperatorStage, operatorMay, rolesFor } from '@portal/contract/console';
import { ConsoleErrorCode } from '@portal/contract/console-errors';
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_KEY_PATTERN } from '@portal/contract/cards';
import { isApiKeyToken } from '@portal/contract/developer';
import { ApiKeyErrorCode } from '@portal/contract/developer-errors';
import { SESSION_STAGES, type SessionStage } from '@portal/contract/enums';
import { ErrorCode } from '@portal/contract/errors';
import { type Action, can, permissionDeniedMessage } from '@portal/contract/team';
import { TeamErrorCode } from '@portal/contract/team-errors';
import type { FastifyRequest } from 'fastify';
import { AppError } from './errors.ts';

/**
 * The kinds of caller the app resolves, each named where its resolver is wired (`src/principals.ts`:
 * `session`). A member of a team or an API key is one more kind here, not another guard.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging, one entry per kind
export interface PrincipalKinds {}

/** Who is calling: resolved once per request from the call's `who`, before anything else of the call runs. */
export type Principal = PrincipalKinds[keyof PrincipalKinds];

/**
 * The console's operators (decision 0015): a kind of caller of its own, put on `request.operator` by
 * the console's calls alone, so no portal route can read an operator as a member, nor a console route
 * a member as an operator. Filled where it is wired (`src/principals.ts`).
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging
export interface OperatorKinds {}
export type OperatorPrincipal = OperatorKinds[keyof OperatorKinds];

declare module 'fastify' {
  interface FastifyRequest {
    /** who is calling; set on every call whose `who` names a caller (public calls have none) */
    principal: Principal;
    /** the operator calling; set on every console call whose `who` names an operator */
    operator: OperatorPrincipal;
  }
  interface FastifyInstance {
    principals: Principals;
  }
}

/** The token of an `Authorization: Bearer …` header, if it has one. */
export function bearerToken(header: string | undefined) {
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
  return match?.[1];
}

/** How each kind of caller is found from a request's credentials. */
export interface PrincipalResolvers {
  /**
   * The principal of a merchant's bearer token, with the stage its session has reached; the
   * catalogue's refusal (a missing, unknown, revoked or expired session; a disabled account) when none.
   */
  session(merchantId: string, token: string | undefined): Promise<{ principal: Principal; stage: SessionStage }>;
  /**
   * The principal of an API key (`Authorization: Bearer sk_…`) used from `ip`, with the scopes it
   * carries; the catalogue's refusal (12xx) for an unknown, revoked or expired key, or an address its
   * allow-list does not hold. Absent: keys are not taken (their tokens are no session either).
   */
  key?(merchantId: string, token: string, ip: string): Promise<{ principal: Principal; scopes: readonly string[] }>;
  /**
   * The operator of a console bearer token (`op_…`), with the stage their sign-in has reached and their
   * role; the console's refusal (60xx) when none. Absent: the app has no console.
   */
  operator?(merchantId: string, token: string | undefined): Promise<{ principal: OperatorPrincipal; stage: OperatorStage; role: OperatorRole }>;
}

/**
 * The request's principal as a signed-in session: what the calls never open to keys read (the session
 * itself: its id, its stage). A key reaching one is refused as such a call refuses it.
 */
export function sessionOf(request: FastifyRequest): Extract<Principal, { kind: 'session' }> {
  const principal = request.principal as Principal & { kind: string };
  if (principal.kind !== 'session') throw new AppError(ApiKeyErrorCode.KEY_CALL_REFUSED);
  return principal as Extract<Principal, { kind: 'session' }>;
}

/** The refusal of a call the member's role may not make: the action named, and the roles that may. */
export const permissionDenied = (action: Action) =>
  new AppError(TeamErrorCode.PERMISSION_DENIED, { message: permissionDeniedMessage(action), data: { action } });

/** Refuses `action` unless the principal's role grants it (the contract's role table). */
export function requireAction(principal: Principal, action: Action) {
  if (!can(principal.member.role, action)) throw permissionDenied(action);
}

/** The one place a request's principal is resolved and checked against what the call admits. */
export class Principals {
  constructor(private readonly resolvers: PrincipalResolvers) {}

  /**
   * Puts the request's principal on it, as the call's `who` asks: nothing for a public call; for a
   * session call a live session in one of the stages it admits (FULL for most: a session waiting for
   * its second verification or for an e-mail can do nothing else), of a member whose role grants the
   * action `who` names (refused with 权限不足 before anything else of the call runs).
   */
  async admit(who: Who, request: FastifyRequest): Promise<void> {
    if (isOperatorCaller(who)) return this.operator(who, request);
    if (!isSessionCaller(who)) return;
    const token = bearerToken(request.headers.authorization);
    // an operator is no customer: their token is refused by every portal call, whatever it asks
    if (token !== undefined && isOperatorToken(token)) throw new AppError(ConsoleErrorCode.TOKEN_ON_PORTAL);
    if (token !== undefined && isApiKeyToken(token) && this.resolvers.key) {
      await this.key(who, request, token, this.resolvers.key);
      return;
    }
    const principal = await this.session(request, who.session);
    if (who.role) requireAction(principal, who.role);
  }

  /**
   * An API key's call: open to keys (`who.key` named), within the key's scopes and its member's role,
   * and a write only with an Idempotency-Key. The key's own refusals come first, so a revoked key is
   * told it is revoked whatever it called.
   */
  private async key(who: Who & { session: unknown }, request: FastifyRequest, token: string, resolve: NonNullable<PrincipalResolvers['key']>) {
    const { principal, scopes } = await resolve(request.merchant.id, token, request.ip);
    if (!('key' in who) || who.key === undefined) throw new AppError(ApiKeyErrorCode.KEY_CALL_REFUSED);
    if (!scopes.includes(who.key)) throw new AppError(ApiKeyErrorCode.KEY_SCOPE_MISSING, { params: { scope: who.key }, data: { scope: who.key } });
    if (who.role) requireAction(principal, who.role);
    if (request.method !== 'GET') {
      const given = request.headers[IDEMPOTENCY_HEADER];
      if (typeof given !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(given)) throw new AppError(ApiKeyErrorCode.KEY_IDEMPOTENCY_REQUIRED);
    }
    request.principal = principal;
  }

  /**
   * A console call: an operator's token (a customer's session or key is refused as such), in a stage
   * the call admits (a sign-in that has not given its code can only give one), of a role that may.
   */
  private async operator(who: OperatorCaller, request: FastifyRequest) {
    const token = bearerToken(request.headers.authorization);
    if (token !== undefined && !isOperatorToken(token)) throw new AppError(ConsoleErrorCode.PORTAL_TOKEN_ON_CONSOLE);
    if (!this.resolvers.operator) throw new AppError(ConsoleErrorCode.SESSION_INVALID);
    const { principal, stage, role } = await this.resolvers.operator(request.merchant.id, token);
    if (!who.operator.includes(stage)) {
      throw new AppError(stage === 'FULL' ? ConsoleErrorCode.STAGE_WRONG : ConsoleErrorCode.TOTP_REQUIRED);
    }
    if (who.action && !operatorMay(role, who.action)) {
      throw new AppError(ConsoleErrorCode.ROLE_DENIED, { params: { roles: rolesFor(who.action) }, data: { action: who.action } });
    }
    request.operator = principal;
  }

  /** The request's session principal, in one of `stages` (any stage by default), put on the request. */
  async session(request: FastifyRequest, stages: readonly SessionStage[] = SESSION_STAGES): Promise<Extract<Principal, { kind: 'session' }>> {
    const { principal, stage } = await this.resolvers.session(request.merchant.id, bearerToken(request.headers.authorization));
    if (!stages.includes(stage)) {
      if (stage === 'VERIFY') throw new AppError(ErrorCode.VERIFICATION_REQUIRED);
      if (stage === 'BIND_EMAIL') throw new AppError(ErrorCode.EMAIL_REQUIRED);
      throw new AppError(ErrorCode.VALIDATION, { message: '当前登录状态无需此操作' });
    }
    request.principal = principal;
    return principal as Extract<Principal, { kind: 'session' }>;
  }
}
