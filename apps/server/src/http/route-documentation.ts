import { accountCalls } from '@portal/contract/api/account';
import { API_BASE } from '@portal/contract/api/call';
import { CONSOLE_API_BASE } from '@portal/contract/api/console';
import { cardBatchCalls } from '@portal/contract/api/card-batches';
import { CardErrorCode } from '@portal/contract/card-errors';
import { ApiKeyErrorCode } from '@portal/contract/developer-errors';
import { TeamErrorCode } from '@portal/contract/team-errors';
import { errorCatalogue } from '@portal/contract/error-catalogue';
import { ErrorCode, SESSION_ERROR_CODES } from '@portal/contract/errors';
import type { jsonSchemaTransform } from 'fastify-type-provider-zod';

/** What the documentation needs to know of a route: its method, path and schema as registered. */
export interface DocumentedRoute {
  method: string;
  url: string;
  schema: { security?: unknown; body?: unknown; params?: unknown; headers?: unknown } | undefined;
}

const codesBetween = (low: number, high: number) =>
  Object.keys(errorCatalogue)
    .map(Number)
    .filter((code) => code >= low && code <= high);

/**
 * The refusals of each area of the API, by the path its calls start with: the codes its services
 * throw (the accounts' and codes' 2xxx, the ledger's 3xxx, the cards' and batches' 4xxx but the issuer
 * webhook's 49xx, the messages' 5xxx). The first prefix that fits is the area's.
 */
const AREAS: Array<[prefix: string, codes: number[]]> = [
  [`${API_BASE}/merchant/user-agreement/`, [ErrorCode.AGREEMENT_NOT_FOUND]],
  // a code to bind an e-mail is sent to the signed-in account: this call reads a session when it is for that
  [`${API_BASE}${accountCalls.sendCode.path}`, [...SESSION_ERROR_CODES, ErrorCode.VERIFICATION_REQUIRED, ...codesBetween(2000, 2199)]],
  [`${API_BASE}/account/`, [ErrorCode.ACCOUNT_DISABLED, ...codesBetween(2000, 2199)]],
  [`${API_BASE}/msg-center/`, codesBetween(5000, 5099)],
  [`${API_BASE}/balance/`, codesBetween(3000, 3099)],
  [
    `${API_BASE}/card`,
    [...codesBetween(3000, 3099), ...codesBetween(4000, 4899), ...codesBetween(2101, 2105), ErrorCode.IDEMPOTENCY_CONFLICT, CardErrorCode.IDEMPOTENCY_KEY_MISSING],
  ],
  [
    `${API_BASE}${cardBatchCalls.create.path}`,
    [...codesBetween(3000, 3099), ...codesBetween(4000, 4899), ...codesBetween(2101, 2105), ErrorCode.IDEMPOTENCY_CONFLICT, CardErrorCode.IDEMPOTENCY_KEY_MISSING],
  ],
];

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A call open to API keys lists the key scheme among its security (register-call.ts). */
const openToKeys = (security: unknown) => Array.isArray(security) && security.some((entry) => typeof entry === 'object' && entry !== null && 'apiKey' in entry);

/** What any call made with a key may be refused for: the key itself, its scope, the member's role, its rate. */
const KEY_CODES = [
  ApiKeyErrorCode.KEY_UNKNOWN,
  ApiKeyErrorCode.KEY_REVOKED,
  ApiKeyErrorCode.KEY_EXPIRED,
  ApiKeyErrorCode.KEY_IP_REFUSED,
  ApiKeyErrorCode.KEY_SCOPE_MISSING,
  ApiKeyErrorCode.KEY_RATE_LIMITED,
  TeamErrorCode.PERMISSION_DENIED,
  TeamErrorCode.MEMBER_SUSPENDED,
];
/** …and a write made with one, for its Idempotency-Key: missing, used for another request, or its first request still running. */
const KEY_WRITE_CODES = [ApiKeyErrorCode.KEY_IDEMPOTENCY_REQUIRED, ErrorCode.IDEMPOTENCY_CONFLICT, ApiKeyErrorCode.KEY_REQUEST_IN_PROGRESS];

/**
 * Every catalogue code a route can answer, from what the route is: any call can be refused for its
 * input (1001: a field, an unknown query name, a bad character) and, under /api/v1, for a host that
 * is no merchant's (1003); one with a body for its size (1007); one with a path parameter for a
 * record it does not find (1002); one behind the session guard for the session (6xx, 1000) and the
 * sign-in stage it needs (2011, 2012); one that takes an Idempotency-Key for a missing or reused key
 * (1008, 1006); one open to API keys for the key's refusals (12xx, its role's 27xx, 1211 over its rate,
 * and for a write its Idempotency-Key's 1210, 1006, 1212); and each for the refusals of its area. 1005 is the answer to a failure of our own.
 */
export function routeCodes(route: DocumentedRoute): number[] {
  const codes = new Set<number>([ErrorCode.VALIDATION, ErrorCode.INTERNAL]);
  const console = route.url.startsWith(`${CONSOLE_API_BASE}/`);
  if (route.url.startsWith(`${API_BASE}/`) || console) codes.add(ErrorCode.MERCHANT_UNKNOWN);
  if (BODY_METHODS.has(route.method.toUpperCase())) codes.add(ErrorCode.PAYLOAD_TOO_LARGE);
  const schema = route.schema ?? {};
  if (schema.params) codes.add(ErrorCode.NOT_FOUND);
  // the console's calls answer the console's refusals (60xx), its sign-in's too, never a customer's session codes
  if (console) for (const code of codesBetween(6001, 6099)) codes.add(code);
  else if (schema.security) for (const code of [...SESSION_ERROR_CODES, ErrorCode.VERIFICATION_REQUIRED, ErrorCode.EMAIL_REQUIRED]) codes.add(code);
  if (schema.headers) for (const code of [CardErrorCode.IDEMPOTENCY_KEY_MISSING, ErrorCode.IDEMPOTENCY_CONFLICT]) codes.add(code);
  if (openToKeys(schema.security)) {
    for (const code of KEY_CODES) codes.add(code);
    if (BODY_METHODS.has(route.method.toUpperCase())) for (const code of KEY_WRITE_CODES) codes.add(code);
  }
  const area = AREAS.find(([prefix]) => route.url.startsWith(prefix));
  for (const code of area?.[1] ?? []) codes.add(code);
  return [...codes].sort((a, b) => a - b);
}

/** The route's refusals by HTTP status (the catalogue's), each with the codes that answer it. */
export function routeRefusals(route: DocumentedRoute): Map<number, number[]> {
  const byStatus = new Map<number, number[]>();
  for (const code of routeCodes(route)) {
    const status = errorCatalogue[code]?.status;
    if (status === undefined) continue;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return new Map([...byStatus].sort(([a], [b]) => a - b));
}

/** The envelope of a refusal in the API's map: code, the 中文 message, and data (fields, retry_after…). */
const refusalSchema = (codes: number[]) => ({
  description: codes.map((code) => `${code} ${errorCatalogue[code]?.message ?? ''}`).join('；'),
  type: 'object',
  required: ['code', 'message', 'data'],
  properties: {
    code: { type: 'integer', enum: codes },
    message: { type: 'string' },
    data: {},
  },
});

type Transform = typeof jsonSchemaTransform;

/**
 * The API map's transform: the given one (zod to JSON schema), then every refusal the route can answer
 * added to its responses, so the map documents each status a call answers and nothing is left to guess.
 */
export const withRefusals =
  (transform: Transform): Transform =>
  (input) => {
    const result = transform(input);
    // a route without a schema (a plain page or file) is mapped as it is, with nothing to add
    if (!result.schema || (result.schema as { hide?: boolean }).hide) return result;
    const method = Array.isArray(input.route.method) ? String(input.route.method[0]) : String(input.route.method);
    const refusals = routeRefusals({ method, url: input.url, schema: input.schema as DocumentedRoute['schema'] });
    // a route that declares no answer of its own (the event stream) still answers 200
    const response = { ...((result.schema.response as Record<string, unknown> | undefined) ?? { 200: { description: 'Success' } }) };
    for (const [status, codes] of refusals) if (!(status in response)) response[status] = refusalSchema(codes);
    return { ...result, schema: { ...result.schema, response } };
  };
