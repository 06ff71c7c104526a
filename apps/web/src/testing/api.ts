import { vi } from 'vitest';
import { http } from '../lib/http.ts';

/** One call a screen made: its method, address and body. */
export interface RecordedCall {
  method: 'get' | 'post' | 'put' | 'delete';
  url: string;
  body?: unknown;
}

/**
 * Stands in for the server: each call resolves to the answer given for its address (the envelope's
 * data, as the HTTP module resolves it), a function of the body when the answer depends on it, or
 * rejects with the error given; an address with no answer fails the test. Answers the calls made.
 */
export function stubApi(answers: Record<string, unknown>) {
  const calls: RecordedCall[] = [];
  const answer = async (method: RecordedCall['method'], url: string, body?: unknown) => {
    calls.push({ method, url, ...(body === undefined ? {} : { body }) });
    if (!(url in answers)) throw new Error(`no answer stubbed for ${method.toUpperCase()} ${url}`);
    const given = answers[url];
    const value = typeof given === 'function' ? given(body) : given;
    if (value instanceof Error) throw value;
    return value;
  };
  vi.spyOn(http, 'get').mockImplementation(((url: string) => answer('get', url)) as typeof http.get);
  vi.spyOn(http, 'delete').mockImplementation(((url: string) => answer('delete', url)) as typeof http.delete);
  vi.spyOn(http, 'post').mockImplementation(((url: string, body?: unknown) => answer('post', url, body)) as typeof http.post);
  vi.spyOn(http, 'put').mockImplementation(((url: string, body?: unknown) => answer('put', url, body)) as typeof http.put);
  return calls;
}
