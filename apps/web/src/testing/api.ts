import type { AxiosRequestConfig } from 'axios';
import { vi } from 'vitest';
import { API_BASE } from '../lib/api-client.ts';
import { http } from '../lib/http.ts';

/** The address a call's path is sent to, for a test that watches the HTTP module itself. */
export const apiUrl = (path: string) => `${API_BASE}${path}`;

/** One call a screen made: its method, its path below the API's base, its body, and the query parameters and headers it set. */
export interface RecordedCall {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  url: string;
  body?: unknown;
  params?: unknown;
  headers?: unknown;
}

/**
 * Stands in for the server: each call resolves to the answer given for its path (the envelope's
 * data, as the HTTP module resolves it), a function of the body when the answer depends on it, or
 * rejects with the error given; an address with no answer fails the test. Answers the calls made.
 * A GET's answer function is handed its query parameters instead of a body.
 */
export function stubApi(answers: Record<string, unknown>) {
  const calls: RecordedCall[] = [];
  const answer = async (method: RecordedCall['method'], address: string, body?: unknown, config?: AxiosRequestConfig) => {
    const url = address.startsWith(API_BASE) ? address.slice(API_BASE.length) : address;
    calls.push({
      method,
      url,
      ...(body === undefined ? {} : { body }),
      ...(config?.params === undefined ? {} : { params: config.params }),
      ...(config?.headers === undefined ? {} : { headers: config.headers }),
    });
    if (!(url in answers)) throw new Error(`no answer stubbed for ${method.toUpperCase()} ${url}`);
    const given = answers[url];
    const value = typeof given === 'function' ? given(method === 'get' ? config?.params : body) : given;
    if (value instanceof Error) throw value;
    return value;
  };
  vi.spyOn(http, 'get').mockImplementation(((url: string, config?: AxiosRequestConfig) => answer('get', url, undefined, config)) as typeof http.get);
  // a DELETE's body travels as the config's data
  vi.spyOn(http, 'delete').mockImplementation(((url: string, config?: AxiosRequestConfig) => answer('delete', url, config?.data, config)) as typeof http.delete);
  vi.spyOn(http, 'post').mockImplementation(((url: string, body?: unknown, config?: AxiosRequestConfig) => answer('post', url, body, config)) as typeof http.post);
  vi.spyOn(http, 'put').mockImplementation(((url: string, body?: unknown, config?: AxiosRequestConfig) => answer('put', url, body, config)) as typeof http.put);
  vi.spyOn(http, 'patch').mockImplementation(((url: string, body?: unknown, config?: AxiosRequestConfig) => answer('patch', url, body, config)) as typeof http.patch);
  return calls;
}
