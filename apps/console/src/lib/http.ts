import { CONSOLE_API_BASE, consoleCalls } from '@portal/contract/api/console';
import type { AnswerOf, BodyOf, Call, QueryOf } from '@portal/contract/api/call';
import { CONSOLE_SESSION_CODES } from '@portal/contract/console-errors';
import type { Envelope } from '@portal/contract/envelope';
import { consoleToken, setConsoleToken } from './session.ts';
import { text } from '../locales/zh-CN.ts';

/** A refusal the server answered (its catalogue code and 中文 message), or a failure to reach it. */
export class ConsoleError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data: unknown = null,
  ) {
    super(message);
  }

  /** the fields a 1001 names, as ProForm's setFields takes them */
  get fields(): Array<{ name: string; errors: string[] }> {
    const fields = (this.data as { fields?: Array<{ field: string; message: string }> } | null)?.fields;
    return Array.isArray(fields) ? fields.map((field) => ({ name: field.field, errors: [field.message] })) : [];
  }
}

type ConsoleCalls = typeof consoleCalls;

/** The call's path with its `:name` parameters put in, each escaped. */
const filled = (path: string, params: Record<string, string> = {}) =>
  path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));

function url(call: Call, query: Record<string, unknown> | undefined, pathParams: Record<string, string> | undefined) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  const search = params.toString();
  return `${CONSOLE_API_BASE}${filled(call.path, pathParams)}${search ? `?${search}` : ''}`;
}

async function send(call: Call, options: { body?: unknown; query?: Record<string, unknown>; params?: Record<string, string>; token?: string }) {
  const token = options.token ?? consoleToken();
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  try {
    return await fetch(url(call, options.query, options.params), { method: call.method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
  } catch {
    throw new ConsoleError(-1, text.common.offline);
  }
}

/** A refusal of the session itself: the token is dropped, and the screens go back to the sign-in. */
function refused(code: number, message: string, data: unknown): never {
  if (CONSOLE_SESSION_CODES.includes(code)) setConsoleToken(null);
  throw new ConsoleError(code, message, data);
}

/** Makes one console call of the contract's table; answers its data or throws a ConsoleError. */
export async function callConsole<K extends keyof ConsoleCalls>(
  name: K,
  options: { body?: BodyOf<ConsoleCalls[K]>; query?: QueryOf<ConsoleCalls[K]>; params?: Record<string, string>; token?: string } = {},
): Promise<AnswerOf<ConsoleCalls[K]>> {
  const call = consoleCalls[name] as Call;
  const response = await send(call, options as { body?: unknown; query?: Record<string, unknown>; params?: Record<string, string>; token?: string });
  let envelope: Envelope<unknown>;
  try {
    envelope = (await response.json()) as Envelope<unknown>;
  } catch {
    throw new ConsoleError(-1, text.common.unexpected);
  }
  if (envelope.code !== 0) refused(envelope.code, envelope.message, envelope.data);
  return envelope.data as AnswerOf<ConsoleCalls[K]>;
}

/** A call whose answer is a file: saved under the name the server gives. */
export async function downloadConsole<K extends keyof ConsoleCalls>(name: K, query: QueryOf<ConsoleCalls[K]>) {
  const call = consoleCalls[name] as Call;
  const response = await send(call, { query: query as Record<string, unknown> });
  if (!response.ok || !(response.headers.get('content-type') ?? '').startsWith('text/csv')) {
    const envelope = (await response.json().catch(() => null)) as Envelope<unknown> | null;
    refused(envelope?.code ?? -1, envelope?.message ?? text.common.unexpected, envelope?.data ?? null);
  }
  const disposition = response.headers.get('content-disposition') ?? '';
  const named = /filename\*=UTF-8''([^;]+)/.exec(disposition)?.[1];
  const link = document.createElement('a');
  link.href = URL.createObjectURL(await response.blob());
  link.download = named ? decodeURIComponent(named) : 'audit.csv';
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}
