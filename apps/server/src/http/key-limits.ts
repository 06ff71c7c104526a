/**
 * What holds a key's calls beyond its scopes, wired into every call open to keys by `registerCall`:
 * the rate limit (@fastify/rate-limit over a store whose counts are leased from PostgreSQL, shared by
 * every server process) and, for a write, its first answer kept under its Idempotency-Key and answered again.
 */
import fastifyRateLimit, { type FastifyRateLimitStore } from '@fastify/rate-limit';
import { IDEMPOTENCY_HEADER } from '@portal/contract/cards';
import { API_KEY_RATE_PER_SECOND } from '@portal/contract/developer';
import { ApiKeyErrorCode } from '@portal/contract/developer-errors';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestAsyncHookHandler, onSendAsyncHookHandler, preHandlerAsyncHookHandler } from 'fastify';
import { fingerprintOf } from '../lib/keyed-call.ts';
import { AppError } from './errors.ts';

/** A key's calls in its window as @fastify/rate-limit reads them. */
export interface KeyCount {
  current: number;
  ttl: number;
}

/** What the limits ask of the keys: a shared count of a key's calls, and the first answers of its writes. */
export interface KeyLimitChecks {
  /** the key's calls in the current window, this one in, and the milliseconds left of it: at once when known in memory */
  countCall(keyId: string, windowMs: number, max: number): KeyCount | Promise<KeyCount>;
  /** nothing when the request claimed the key; the first answer of the same request; a refusal otherwise */
  claimWrite(accountId: string, apiKeyId: string, key: string, fingerprint: string): Promise<{ status: number; answer: string } | undefined>;
  keepAnswer(accountId: string, key: string, reply: { status: number; answer: string }): Promise<void>;
  releaseWrite(accountId: string, key: string): Promise<void>;
}

/** The hooks `registerCall` adds to a call open to keys (every one) and to such a call that writes. */
export interface KeyLimitHooks {
  rate: onRequestAsyncHookHandler;
  replay: { preHandler: preHandlerAsyncHookHandler; onSend: onSendAsyncHookHandler<unknown> };
}

declare module 'fastify' {
  interface FastifyInstance {
    keyLimits: KeyLimitHooks;
  }
}

const WINDOW_MS = 1000;

const keyOf = (request: FastifyRequest) => (request.principal?.kind === 'key' ? request.principal : undefined);

/**
 * A store of @fastify/rate-limit over the count every process shares (its `child` is itself: one count
 * a key, whatever the call); a count known in memory is answered at once.
 */
function sharedStore(checks: Pick<KeyLimitChecks, 'countCall'>) {
  return class SharedKeyStore implements FastifyRateLimitStore {
    incr(key: string, callback: (error: Error | null, result?: KeyCount) => void, timeWindow: number, max: number) {
      let counted: KeyCount | Promise<KeyCount>;
      try {
        counted = checks.countCall(key, timeWindow, max);
      } catch (error) {
        callback(error instanceof Error ? error : new Error(String(error)));
        return;
      }
      if (!(counted instanceof Promise)) {
        callback(null, counted);
        return;
      }
      counted.then(
        (result) => callback(null, result),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }
    child() {
      return this;
    }
  };
}

/** The claim a key's write holds on its Idempotency-Key while it runs. */
const claims = new WeakMap<FastifyRequest, { accountId: string; key: string }>();

/**
 * Registers the rate limit on `app` (the merchant API) and decorates it with the hooks: a key's call
 * is counted once its key is known (calls of a session are not), and one past the limit in its second
 * is refused with 1211, 429 and Retry-After.
 */
export async function useKeyLimits(app: FastifyInstance, checks: KeyLimitChecks) {
  await app.register(fastifyRateLimit, { global: false, store: sharedStore(checks) });
  const rate = app.rateLimit({
    max: API_KEY_RATE_PER_SECOND,
    timeWindow: WINDOW_MS,
    keyGenerator: (request) => keyOf(request)?.key.id ?? '',
    allowList: (request) => keyOf(request) === undefined,
    errorResponseBuilder: (_request, context) => {
      const seconds = Math.max(1, Math.ceil(context.ttl / 1000));
      return new AppError(ApiKeyErrorCode.KEY_RATE_LIMITED, { params: { seconds }, data: { retry_after: seconds } });
    },
  }) as unknown as onRequestAsyncHookHandler;
  app.decorate('keyLimits', { rate, replay: replayHooks(checks) } satisfies KeyLimitHooks);
}

/**
 * A key's write under its Idempotency-Key (required of it by the key check): the same request again
 * (call, path parameters, body) answers the first answer, status and body, and does nothing; another
 * request under the key is refused (1006). A refused write keeps nothing, as a refused money call.
 */
function replayHooks(checks: KeyLimitChecks): KeyLimitHooks['replay'] {
  return {
    async preHandler(request: FastifyRequest, reply: FastifyReply) {
      const principal = keyOf(request);
      const key = request.headers[IDEMPOTENCY_HEADER];
      if (!principal || typeof key !== 'string') return;
      const { trx_password: _password, ...body } = (request.body ?? {}) as Record<string, unknown>;
      const fingerprint = fingerprintOf({ call: `${request.method} ${request.routeOptions.url}`, params: request.params ?? {}, body });
      const first = await checks.claimWrite(principal.account.id, principal.key.id, key, fingerprint);
      if (!first) {
        claims.set(request, { accountId: principal.account.id, key });
        return;
      }
      return reply.code(first.status).type('application/json; charset=utf-8').header('idempotent-replayed', 'true').send(first.answer);
    },
    async onSend(request, reply, payload) {
      const claim = claims.get(request);
      if (!claim) return payload;
      claims.delete(request);
      try {
        if (reply.statusCode === 200 && typeof payload === 'string') await checks.keepAnswer(claim.accountId, claim.key, { status: 200, answer: payload });
        else await checks.releaseWrite(claim.accountId, claim.key);
      } catch (error) {
        // the write is done and answered; a request with the key again is told to wait (1212) until the
        // claim counts as abandoned, and then done again: logged, so an operator can tell
        request.log.error({ err: error }, 'the first answer of a key write was not kept');
      }
      return payload;
    },
  };
}
