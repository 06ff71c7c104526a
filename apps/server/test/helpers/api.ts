import type { Envelope } from '@portal/contract/envelope';
import type { FastifyInstance } from 'fastify';

type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  headers?: Record<string, string>;
  /** overrides the client's token for this call; null sends none */
  token?: string | null;
  /** the caller's IP address as the server sees it (default 127.0.0.1) */
  remoteAddress?: string;
}

/** The parsed answer: the envelope's code, message and data, with the HTTP status and headers. */
export interface ApiAnswer<T = unknown> extends Envelope<T> {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  /** the whole parsed JSON body (also for answers that are not an envelope, such as the dev outbox) */
  body: unknown;
}

export interface ApiClient {
  readonly host: string;
  readonly token: string | undefined;
  request<T = unknown>(method: HttpMethod, path: string, options?: RequestOptions): Promise<ApiAnswer<T>>;
  get<T = unknown>(path: string, options?: RequestOptions): Promise<ApiAnswer<T>>;
  post<T = unknown>(path: string, body?: unknown, options?: RequestOptions): Promise<ApiAnswer<T>>;
  put<T = unknown>(path: string, body?: unknown, options?: RequestOptions): Promise<ApiAnswer<T>>;
  delete<T = unknown>(path: string, options?: RequestOptions): Promise<ApiAnswer<T>>;
  /** the data of a successful answer; throws, showing code and message, on any other */
  data<T = unknown>(method: HttpMethod, path: string, options?: RequestOptions): Promise<T>;
  /** the same client carrying a bearer token */
  withToken(token: string | undefined): ApiClient;
}

/** `/merchant` → `/api/v1/merchant`; paths that already start with /api/ are left alone. */
export function apiPath(path: string) {
  return path.startsWith('/api/') ? path : `/api/v1${path.startsWith('/') ? '' : '/'}${path}`;
}

/**
 * An `app.inject` client for one merchant host (and optionally one session):
 *
 *     const orange = api(app, 'orange.localhost');
 *     const { code, data } = await orange.get('/merchant');
 *     const me = await orange.withToken(token).data('GET', '/account/info');
 */
export function api(app: Pick<FastifyInstance, 'inject'>, host = 'localhost', token?: string): ApiClient {
  const client: ApiClient = {
    host,
    token,
    async request<T>(method: HttpMethod, path: string, options: RequestOptions = {}) {
      const bearer = options.token === undefined ? token : options.token;
      const headers: Record<string, string> = { host, ...options.headers };
      if (bearer) headers.authorization = `Bearer ${bearer}`;
      const query = Object.fromEntries(
        Object.entries(options.query ?? {}).flatMap(([key, value]) => (value === undefined ? [] : [[key, String(value)]])),
      );
      const response = await app.inject({
        method,
        url: apiPath(path),
        headers,
        query,
        ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
        ...(options.body === undefined ? {} : { payload: options.body as object }),
      });
      let body: unknown;
      try {
        body = response.body === '' ? null : JSON.parse(response.body);
      } catch {
        throw new Error(`${method} ${path} on ${host} answered ${response.statusCode} with a body that is not JSON: ${response.body.slice(0, 300)}`);
      }
      const envelope = (body && typeof body === 'object' && !Array.isArray(body) ? body : {}) as Partial<Envelope<T>>;
      return {
        status: response.statusCode,
        headers: response.headers,
        body,
        code: envelope.code as number,
        message: envelope.message as string,
        data: envelope.data as T,
      };
    },
    get: (path, options) => client.request('GET', path, options),
    post: (path, body, options) => client.request('POST', path, { ...options, body }),
    put: (path, body, options) => client.request('PUT', path, { ...options, body }),
    delete: (path, options) => client.request('DELETE', path, options),
    async data<T>(method: HttpMethod, path: string, options?: RequestOptions) {
      const answer = await client.request<T>(method, path, options);
      if (answer.code !== 0) {
        throw new Error(`${method} ${path} on ${host} failed: HTTP ${answer.status}, code ${answer.code}, ${answer.message}`);
      }
      return answer.data;
    },
    withToken: (newToken) => api(app, host, newToken),
  };
  return client;
}
