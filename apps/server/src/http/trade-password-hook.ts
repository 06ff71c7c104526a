import { ErrorCode } from '@portal/contract/errors';
import type { FastifyRequest } from 'fastify';
import { sha256 } from '../lib/crypto.ts';
import { AppError } from './errors.ts';
import { idempotencyKey } from './idempotency.ts';

/**
 * Whether a keyed call kept a first answer under the request's Idempotency-Key (the card or batch it
 * opened, the movement it made): what lets the same request again go without the trade password.
 */
export type KeptAnswer = (request: FastifyRequest, key: string) => Promise<boolean>;

/** A request's Idempotency-Key, the call it is for (method and route), and the digest of what it asks. */
export interface KeyedCall {
  key: string;
  operation: string;
  requestHash: string;
}

/** What the hook asks of the accounts: the trade password's check, and the call each key of an account is bound to. */
export interface TradePasswordChecks {
  /**
   * refuses unless the given trade password is right (or none is set: `set` is what the caller's
   * session read; with `required`, none set is refused too)
   */
  confirm(memberId: string, given: string | undefined, set: boolean, required?: boolean): Promise<void>;
  boundCall(accountId: string, key: string): Promise<{ operation: string; requestHash: string } | undefined>;
  /** binds the key to its call; false when it was bound already (to this call or another) */
  bindCall(accountId: string, call: KeyedCall): Promise<boolean>;
}

/**
 * The request's Idempotency-Key (refused when missing or malformed), the call it is for (method and
 * route), and the digest of what it asks: its path's parameters and its body but the trade password.
 */
function keyOfRequest(request: FastifyRequest): KeyedCall {
  const key = idempotencyKey(request);
  const { trx_password: _password, ...body } = (request.body ?? {}) as Record<string, unknown>;
  return {
    key,
    operation: `${request.method} ${request.routeOptions.url}`,
    requestHash: sha256(JSON.stringify({ params: request.params ?? {}, body })),
  };
}

const conflict = (key: string) => new AppError(ErrorCode.IDEMPOTENCY_CONFLICT, { data: { key } });

/**
 * A preHandler for a call that moves money out of the wallet or a card (`when` says from its body
 * whether this one does): the trade password is confirmed before the call does anything.
 *
 * With `answered` (a keyed call), the call's Idempotency-Key belongs to this one call (method and
 * route) once a request with it got past the trade password: another call with the key is refused
 * (1006). The same request again (its path and body, the trade password no part of it) is not asked
 * for the password again when the call kept a first answer under the key (`answered`), which it
 * then answers; a call that was refused kept none, its rollback took everything, and the same
 * request again is a new one that confirms the trade password.
 *
 * With `required` (a call whose contract says `tradePassword: 'required'`), a caller without a trade
 * password is refused (2101) rather than let through.
 */
export function tradePasswordHook(
  checks: TradePasswordChecks,
  when: (body: unknown) => boolean = () => true,
  options: { answered?: KeptAnswer; required?: boolean } = {},
) {
  return async (request: FastifyRequest) => {
    const accountId = request.principal.account.id;
    // the trade password is the member's own
    const { id: memberId, trxPasswordSet } = request.principal.member;
    const keyed = options.answered ? keyOfRequest(request) : null;
    if (keyed && options.answered) {
      const earlier = await checks.boundCall(accountId, keyed.key);
      if (earlier && earlier.operation !== keyed.operation) throw conflict(keyed.key);
      if (earlier?.requestHash === keyed.requestHash && (await options.answered(request, keyed.key))) return;
    }
    // a key's calls do not ask for it: it was given when the key was made (its scopes and allow-list guard it)
    if (when(request.body) && request.principal.kind !== 'key') {
      const given = (request.body as { trx_password?: string } | undefined)?.trx_password;
      await checks.confirm(memberId, given, trxPasswordSet, options.required === true);
    }
    if (keyed && !(await checks.bindCall(accountId, keyed))) {
      // bound in between by a request of its own: another call's key is refused all the same
      const bound = await checks.boundCall(accountId, keyed.key);
      if (bound && bound.operation !== keyed.operation) throw conflict(keyed.key);
    }
  };
}
