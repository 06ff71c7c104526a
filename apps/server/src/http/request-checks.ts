import { ErrorCode } from '@portal/contract/errors';
import { badTextField, jsonDeeperThan, messages } from '@portal/contract/validation';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { z } from 'zod';
import { sendError } from './error-handler.ts';
import { AppError } from './errors.ts';

/** A 1001 that names the one field at fault, with the rule's message. */
export const fieldRefusal = (field: string, message: string) =>
  new AppError(ErrorCode.VALIDATION, { message, data: { fields: [{ field, message }] } });

/** A JSON body nested deeper than MAX_JSON_DEPTH, refused from its text: nothing has parsed or walked it yet. */
export const tooDeep = () => fieldRefusal('body', messages.tooDeep);

/**
 * The JSON parser of the app: Fastify's own (a __proto__ or constructor key refused), behind a depth
 * check on the text, so no later walk of a body (the text check below, a schema, a service) can be
 * driven into the stack's limit.
 */
export function useDepthCheckedJson(app: FastifyInstance) {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (jsonDeeperThan(body as string)) return done(tooDeep(), undefined);
    parse(request, body as string, done);
  });
}

/**
 * No text of any call may carry a control character (a NUL could not even be stored) or half of a
 * surrogate pair (no database stores it as text): the body, the query and the path are checked before
 * any schema sees them, and the first field at fault is named.
 */
export async function refuseBadText(request: FastifyRequest) {
  for (const [part, value] of [['body', request.body], ['query', request.query], ['params', request.params]] as const) {
    const found = badTextField(value);
    if (found) throw fieldRefusal(found.field || part, found.message);
  }
}

/** The names a query schema declares (the input side, before defaults and coercion). */
function queryNames(schema: unknown): Set<string> {
  if (!schema) return new Set();
  const json = z.toJSONSchema(schema as z.ZodType, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, unknown> };
  return new Set(Object.keys(json.properties ?? {}));
}

const methodsOf = (route: Pick<RouteOptions, 'method'>) => (Array.isArray(route.method) ? route.method : [route.method]).map(String);

/** `/card/:id/controls` → a pattern of the paths it answers; `*` (the API map's assets) anything below. */
function pathPattern(url: string) {
  const escaped = url
    .split('/')
    .map((part) => (part.startsWith(':') ? '[^/]+' : part === '*' ? '.*' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${escaped}$`);
}

/**
 * What the app's routes are, collected as they are registered (an onRoute hook): which methods a path
 * answers, for the 405 of a path asked with another; and each API route's query names, so a name it
 * does not declare is refused rather than silently ignored.
 */
export class RouteTable {
  private readonly paths = new Map<string, { pattern: RegExp; methods: Set<string> }>();

  /** Registers the hook: call before any route is added. */
  install(app: FastifyInstance) {
    app.addHook('onRoute', (route) => this.add(route));
  }

  private add(route: RouteOptions) {
    const known = this.paths.get(route.url) ?? { pattern: pathPattern(route.url), methods: new Set<string>() };
    for (const method of methodsOf(route)) known.methods.add(method);
    this.paths.set(route.url, known);
    // the API's documented calls; the API map's own pages and hidden routes (the issuer's webhook, the health probe) take what they are sent
    const schema = route.schema as { hide?: boolean; querystring?: unknown } | undefined;
    if (!route.url.startsWith('/api/') || route.url.startsWith('/api/docs') || schema?.hide) return;
    const names = queryNames(schema?.querystring);
    const refuseUnknownQuery = async (request: FastifyRequest) => {
      const unknown = Object.keys((request.query ?? {}) as Record<string, unknown>).find((name) => !names.has(name));
      if (unknown !== undefined) throw fieldRefusal(unknown, messages.unknownParameter);
    };
    const existing = route.preValidation;
    route.preValidation = existing ? [...(Array.isArray(existing) ? existing : [existing]), refuseUnknownQuery] : refuseUnknownQuery;
  }

  /** Every route registered, as method and path pattern (`/card/:id`). */
  list(): Array<{ method: string; url: string }> {
    return [...this.paths].flatMap(([url, { methods }]) => [...methods].map((method) => ({ method, url })));
  }

  /** The methods some route answers on this path, or none. */
  allowed(url: string): string[] {
    const pathname = url.split('?')[0] ?? '';
    const methods = new Set<string>();
    for (const { pattern, methods: answered } of this.paths.values()) if (pattern.test(pathname)) for (const method of answered) methods.add(method);
    return [...methods].sort();
  }

  /**
   * What a request no route took is answered: 405 with Allow when the path is a route's with other
   * methods, else the catalogue's 404 (`otherwise`).
   */
  notFound(request: FastifyRequest, reply: FastifyReply, otherwise: () => AppError) {
    const allowed = this.allowed(request.url);
    if (allowed.length === 0) return sendError(reply, otherwise());
    return sendError(reply.header('allow', allowed.join(', ')), new AppError(ErrorCode.METHOD_NOT_ALLOWED));
  }
}
