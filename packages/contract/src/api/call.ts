import { z } from 'zod';
import { IDEMPOTENCY_HEADER } from '../cards.ts';
import type { SessionStage } from '../enums.ts';
import type { ApiKeyScope } from '../developer.ts';
import type { Action } from '../team.ts';
import type { ConsoleAction, OperatorStage } from '../console.ts';

/** Every call's path is below this one: the calls' own paths are written without it. */
export const API_BASE = '/api/v1';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** An action a member's role may be granted (`cards.read`): the role table of team.ts decides it. */
export type RoleAction = Action;

/** A scope an API key may carry (`cards:read`): the call is open to keys that carry it. */
export type KeyScope = ApiKeyScope;

/**
 * Anyone may call. `sessionWhenAsked`: the body can ask for something of the signed-in account (a
 * code to its own address), and then the call reads the session as a session call would.
 */
export interface PublicCaller {
  readonly public: true;
  readonly sessionWhenAsked?: true;
}

/**
 * A signed-in session in one of `stages`, of a member whose role grants `role` (any role when none is
 * named: the member's own sign-in, password and sessions); later, a key that carries `key`.
 */
export interface SessionCaller {
  readonly session: readonly SessionStage[];
  readonly role?: RoleAction;
  readonly key?: KeyScope;
}

/**
 * A console operator's session (console.ts) in one of `stages`, whose role may take `action`: the
 * console's calls alone, which take no customer's session or key.
 */
export interface OperatorCaller {
  readonly operator: readonly OperatorStage[];
  readonly action?: ConsoleAction;
}

/** Who may make a call. */
export type Who = PublicCaller | SessionCaller | OperatorCaller;

export const isSessionCaller = (who: Who): who is SessionCaller => 'session' in who;
export const isOperatorCaller = (who: Who): who is OperatorCaller => 'operator' in who;

/**
 * When a call asks for the trade password (once the account has set one) before anything moves:
 * `always`; `sensitive`, when what the body asks for is (an export with full numbers); `holding-money`,
 * when the card it closes still holds money (known to the call only once it has read the card).
 * `required`: always, and refused (2101, its `notSet` wording) while the caller has none set.
 */
export type TradePasswordRule = 'always' | 'required' | 'sensitive' | 'holding-money';

/**
 * The answer that is no `{code, message, data}` envelope: an .xlsx file, or a stream of server-sent
 * events.
 */
/** A raw answer: a spreadsheet, a file whose kind the query chooses (a statement's PDF or .xlsx), or an event stream. */
export type RawAnswer = 'xlsx' | 'file' | 'event-stream';

/**
 * One call of the API, as data both halves read: the server registers and documents its route from
 * it, the web calls it through one client. `answer` is the `data` of the envelope the call answers.
 */
export interface Call {
  readonly method: HttpMethod;
  /** below API_BASE, with `:name` for each path parameter */
  readonly path: string;
  readonly params?: z.ZodType;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  readonly answer?: z.ZodType;
  readonly raw?: RawAnswer;
  readonly summary: string;
  readonly tags: readonly string[];
  readonly who: Who;
  /** the call moves money out of the wallet or a card */
  readonly movesMoney?: true;
  /** the call is refused without an Idempotency-Key, and the same key and body get the first answer */
  readonly idempotencyKey?: true;
  readonly tradePassword?: TradePasswordRule;
}

/** The Idempotency-Key a money call reads; other headers pass as they are. */
export const idempotencyHeaders = z.object({ [IDEMPOTENCY_HEADER]: z.string().optional() }).passthrough();

/** Anyone. */
export const PUBLIC: PublicCaller = { public: true };

/** A session in one of the given stages; FULL alone when none is named. */
export const session = (...stages: SessionStage[]): SessionCaller => ({ session: stages.length > 0 ? stages : ['FULL'] });

/**
 * A session in the FULL stage, of a member whose role grants `action`; with `key`, also an API key
 * carrying that scope (developer.ts), acting as a member whose role grants `action`.
 */
export const member = (action: Action, key?: ApiKeyScope): SessionCaller => ({ session: ['FULL'], role: action, ...(key ? { key } : {}) });

/** A table of calls, kept with its exact types (each schema's own) for the server and the web client. */
export const defineCalls = <const Calls extends Record<string, Call>>(calls: Calls): Calls => calls;

type Output<Schema> = Schema extends z.ZodType ? z.output<Schema> : undefined;
type Input<Schema> = Schema extends z.ZodType ? z.input<Schema> : undefined;

/** The `data` a call answers (what its `answer` schema gives). */
export type AnswerOf<C extends Call> = Output<C['answer']>;
/** What a caller sends as the call's body, query and path parameters (before the schema's defaults). */
export type BodyOf<C extends Call> = Input<C['body']>;
export type QueryOf<C extends Call> = Input<C['query']>;
export type ParamsOf<C extends Call> = Input<C['params']>;

/** The call's full path with its parameters put in (each escaped): `/api/v1/card/abc`. */
export function callPath(call: Pick<Call, 'path'>, params: Record<string, string | number> = {}): string {
  const filled = call.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${call.path}: no value for :${name}`);
    return encodeURIComponent(String(value));
  });
  return `${API_BASE}${filled}`;
}
