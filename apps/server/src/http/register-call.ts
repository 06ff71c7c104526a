import { type Call, idempotencyHeaders, isOperatorCaller, isSessionCaller } from '@portal/contract/api/call';
import { type Envelope, envelope } from '@portal/contract/envelope';
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler, RouteOptions } from 'fastify';
import type { z } from 'zod';
import { keyCallExample, OPEN_API_TAG } from './open-api-section.ts';

type Parsed<Schema> = Schema extends z.ZodType ? z.output<Schema> : unknown;

/** The request of a call, its body, query and path parameters as its schemas give them. */
export type CallRequest<C extends Call> = FastifyRequest<{ Body: Parsed<C['body']>; Querystring: Parsed<C['query']>; Params: Parsed<C['params']> }>;

/** What a call's handler answers: the envelope of its `answer`, or (a raw answer) what it sends itself. */
export type CallAnswer<C extends Call> = C['answer'] extends z.ZodType ? Envelope<z.input<C['answer']>> : unknown;

export type CallHandler<C extends Call> = (request: CallRequest<C>, reply: FastifyReply) => Promise<CallAnswer<C> | FastifyReply>;

export interface CallOptions {
  /** runs once the principal is known and the input is valid, before the handler: the trade password's check */
  preHandler?: preHandlerAsyncHookHandler;
}

const BEARER = [{ bearer: [] }];
const OPERATOR_BEARER = [{ operatorBearer: [] }];

/** What runs around a call (the activity log), decorated on the app as `activity`: it runs `handle` and answers what it answers. */
export interface CallActivity {
  around(call: Call, request: FastifyRequest, handle: () => Promise<unknown>): Promise<unknown>;
}

declare module 'fastify' {
  interface FastifyInstance {
    activity: CallActivity;
  }
}

/**
 * The Fastify schema of a call: what validates its input and serialises its answer, and what the API
 * map documents (tags, summary; `security` for a caller with credentials, `headers` for a keyed call,
 * which the map reads for the refusals it adds).
 */
export function callSchema(call: Call) {
  return {
    // a call open to keys is shown in the Open API section too, with an example of it made with a key
    tags: isSessionCaller(call.who) && call.who.key ? [...call.tags, OPEN_API_TAG] : [...call.tags],
    ...(isSessionCaller(call.who) && call.who.key ? { description: keyCallExample(call) } : {}),
    // a call open to API keys lists the key scheme with the scope it needs beside the session's bearer
    ...(isSessionCaller(call.who) ? { security: call.who.key ? [...BEARER, { apiKey: [call.who.key] }] : BEARER } : {}),
    ...(isOperatorCaller(call.who) ? { security: OPERATOR_BEARER } : {}),
    summary: call.who && isSessionCaller(call.who) && call.who.key ? `${call.summary} · API 密钥：${call.who.key}` : call.summary,
    ...(call.idempotencyKey ? { headers: idempotencyHeaders } : {}),
    ...(call.params ? { params: call.params } : {}),
    ...(call.query ? { querystring: call.query } : {}),
    ...(call.body ? { body: call.body } : {}),
    ...(call.answer ? { response: { 200: envelope(call.answer) } } : {}),
  };
}

/**
 * Registers a call of the contract's table on `app` (whose prefix is the table's API_BASE): its path,
 * its schema, and the principal its `who` asks for, resolved before anything else of the call.
 */
export function registerCall<C extends Call>(app: FastifyInstance, call: C, handler: CallHandler<C>, options: CallOptions = {}) {
  // a call that asks the trade password before anything moves cannot be registered without that check
  if ((call.tradePassword === 'always' || call.tradePassword === 'required' || call.tradePassword === 'sensitive') && !options.preHandler) {
    throw new Error(`${call.method} ${call.path} asks the trade password (${call.tradePassword}) but no check of it is registered`);
  }
  const principals = app.principals;
  const activity = app.hasDecorator('activity') ? app.activity : undefined;
  const answered: CallHandler<C> = activity
    ? (request, reply) => activity.around(call, request, () => handler(request, reply)) as ReturnType<CallHandler<C>>
    : handler;
  const route: RouteOptions = {
    method: call.method,
    url: call.path,
    schema: callSchema(call),
    handler: answered as unknown as RouteOptions['handler'],
  };
  const admit = async (request: FastifyRequest) => principals.admit(call.who, request);
  // a call open to keys: a key's call is counted against its rate once the key is known; a key's
  // write answers its first answer again under its Idempotency-Key (a money call keeps its own)
  const limits = isSessionCaller(call.who) && call.who.key && app.hasDecorator('keyLimits') ? app.keyLimits : undefined;
  const replays = limits && call.method !== 'GET' && !call.idempotencyKey ? limits.replay : undefined;
  if (isSessionCaller(call.who)) route.onRequest = limits ? [admit, limits.rate] : admit;
  else if (isOperatorCaller(call.who)) route.onRequest = admit;
  const preHandlers = [...(replays ? [replays.preHandler] : []), ...(options.preHandler ? [options.preHandler] : [])];
  if (preHandlers.length > 0) route.preHandler = preHandlers;
  if (replays) route.onSend = replays.onSend;
  app.route(route);
}
