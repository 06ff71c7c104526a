/**
 * A typed client of the calls an API key may make (设置 → 开发者 makes the key): openapi-fetch over the
 * types generated from the server's OpenAPI document (open-api.ts). The client sends the key as its
 * bearer token, gives every write an Idempotency-Key of its own unless the caller names one, and,
 * refused for the key's rate (429), waits the Retry-After the server asks and sends the same request
 * again (a write under the same Idempotency-Key, so it is done once).
 *
 *     const portal = createPortalClient({ baseUrl: 'https://cards.example.com', key: 'sk_…' });
 *     const cards = dataOf(await portal.GET('/api/v1/card', { params: { query: { page: 1, page_size: 20 } } }));
 */
import { randomUUID } from 'node:crypto';
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './open-api.ts';

export type { paths } from './open-api.ts';

/** The header a write carries its Idempotency-Key in. */
export const IDEMPOTENCY_HEADER = 'idempotency-key';

export interface PortalClientOptions {
  /** the portal's address, e.g. https://cards.example.com (the merchant's own host) */
  baseUrl: string;
  /** the API key's secret, `sk_…` */
  key: string;
  /** times a call refused for the rate limit is sent again after the wait the server asks (default 3) */
  retriesOnRateLimit?: number;
  /** the fetch to use (default the global one) */
  fetch?: (request: Request) => Promise<Response>;
}

export type PortalClient = Client<paths>;

/** A refusal of the portal: its catalogue code, 中文 message and data, with the HTTP status. */
export class PortalApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly data: unknown,
  ) {
    super(`${code} ${message}`);
    this.name = 'PortalApiError';
  }
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A client whose every call carries the key; writes carry an Idempotency-Key. */
export function createPortalClient(options: PortalClientOptions): PortalClient {
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const retries = options.retriesOnRateLimit ?? 3;
  const client = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    // the same request (the same Idempotency-Key) again after the wait a 429 asks for
    async fetch(request) {
      for (let attempt = 0; ; attempt++) {
        const response = await send(request.clone());
        if (response.status !== 429 || attempt >= retries) return response;
        const seconds = Number(response.headers.get('retry-after'));
        await wait((Number.isFinite(seconds) && seconds > 0 ? seconds : 1) * 1000);
      }
    },
  });
  client.use({
    onRequest({ request }) {
      request.headers.set('authorization', `Bearer ${options.key}`);
      if (request.method !== 'GET' && !request.headers.has(IDEMPOTENCY_HEADER)) request.headers.set(IDEMPOTENCY_HEADER, randomUUID());
      return request;
    },
  });
  return client;
}

/** What every answer of the portal is: `{code, message, data}`, code 0 for success. */
interface Envelope<T> {
  code: number;
  message: string;
  data: T;
}

/**
 * The `data` of a successful call; a `PortalApiError` (code, 中文 message, data, HTTP status) for a
 * refusal.
 */
export function dataOf<T>(result: { data?: Envelope<T>; error?: unknown; response: Response }): T {
  if (result.data && result.data.code === 0) return result.data.data;
  const answer = (result.data ?? result.error) as Partial<Envelope<unknown>> | undefined;
  throw new PortalApiError(result.response.status, Number(answer?.code ?? -1), String(answer?.message ?? result.response.statusText), answer?.data ?? null);
}
