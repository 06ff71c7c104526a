import type { AnswerOf, API_BASE as ContractApiBase, BodyOf, Call, ParamsOf, QueryOf } from '@portal/contract/api/call';
import type { AxiosRequestConfig } from 'axios';
import { http, type RawResponse } from './http.ts';

/**
 * The one client of the portal's calls. A call is declared once in the contract
 * (packages/contract/src/api); the web reaches it through a `CallRef`, the declaration's
 * method and path without its schemas (lib/generated/*-calls.ts), so a screen's first load never
 * carries the schema library: the schemas give the types only. Every call goes through the HTTP
 * module, which keeps the envelope, the toasts, the outage rule and the presses.
 */

/** Below this the calls' own paths are written; the contract declares the same. */
export const API_BASE: typeof ContractApiBase = '/api/v1';

/** What the web holds of a declared call at run time; `C`, the declaration, types it. */
export interface CallRef<C extends Call = Call> {
  readonly method: C['method'];
  readonly path: C['path'];
  readonly raw?: RawOf<C>;
  /** never set: carries the declaration for the compiler */
  readonly declaration?: C;
}

type RawOf<C> = C extends { readonly raw: infer Raw } ? Raw : undefined;

/** A field the declaration has no schema for is left out; one whose every part is optional may be. */
type Part<Name extends string, Value> = [Value] extends [undefined]
  ? { readonly [K in Name]?: undefined }
  : object extends Value
    ? { readonly [K in Name]?: Value }
    : { readonly [K in Name]: Value };

/** What a caller gives a call: its path parameters, query and body as the contract types them, and headers. */
export type CallInput<C extends Call> = Part<'params', ParamsOf<C>> &
  Part<'query', QueryOf<C>> &
  Part<'body', BodyOf<C>> & {
    /** e.g. the Idempotency-Key of a money call */
    readonly headers?: Record<string, string>;
  };

/** The part of a call's input that tells one answer from another: its path parameters and query. */
export type CallKeyInput = { readonly params?: unknown; readonly query?: unknown };

type EnvelopeCall = Call & { readonly raw?: undefined };
type FileCall = Call & { readonly raw: 'xlsx' | 'file' };

/** The call's address below this origin, with each path parameter escaped: `/api/v1/card/abc`. */
export function urlOf<C extends Call>(ref: CallRef<C>, params?: ParamsOf<C>): string {
  const values = (params ?? {}) as Record<string, unknown>;
  const filled = ref.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined || value === null) throw new Error(`${ref.path}: no value for :${name}`);
    return encodeURIComponent(String(value));
  });
  return `${API_BASE}${filled}`;
}

/** The HTTP module's options of a call: the query as axios params, the headers; none when it has neither. */
function configOf(input: CallKeyInput & { readonly headers?: Record<string, string> }): AxiosRequestConfig | undefined {
  const config: AxiosRequestConfig = {};
  if (input.query !== undefined) config.params = input.query;
  if (input.headers !== undefined) config.headers = input.headers;
  return Object.keys(config).length > 0 ? config : undefined;
}

/** The HTTP module's arguments, the trailing absent ones left off, as the screens have always called it. */
function argumentsOf(...args: unknown[]) {
  while (args.length > 1 && args[args.length - 1] === undefined) args.pop();
  return args;
}

/** Makes a call and resolves to the `data` of its envelope; a refusal rejects with the HTTP module's ApiError. */
export function call<C extends EnvelopeCall>(ref: CallRef<C>, ...[input]: OptionalWhenEmpty<CallInput<C>>): Promise<AnswerOf<C>> {
  type Answer = AnswerOf<C>;
  const given = (input ?? {}) as CallInput<Call>;
  const url = urlOf(ref, given.params as ParamsOf<C>);
  const config = configOf(given);
  const body = given.body;
  const calling = http as unknown as Record<Lowercase<Call['method']>, (...args: unknown[]) => Promise<Answer>>;
  const method = ref.method.toLowerCase() as Lowercase<Call['method']>;
  // GET and DELETE take no body argument: a DELETE's body travels as axios' data
  if (method === 'get' || method === 'delete') return calling[method](...argumentsOf(url, body === undefined ? config : { ...config, data: body }));
  // a call without a body still sends JSON ({}): with none, axios sends a form's content type, which no call takes
  return calling[method](...argumentsOf(url, body ?? {}, config));
}

/** A call that answers a file (an .xlsx export): the raw answer, with the headers that name it. */
export function download<C extends FileCall>(ref: CallRef<C>, ...[input]: OptionalWhenEmpty<CallInput<C>>): Promise<RawResponse> {
  const given = (input ?? {}) as CallInput<Call>;
  return http.download(...(argumentsOf(urlOf(ref, given.params as ParamsOf<C>), configOf(given)) as [string, AxiosRequestConfig?]));
}

/** The input may be left out when nothing in it is required. */
type OptionalWhenEmpty<Input> = object extends Input ? [input?: Input] : [input: Input];
