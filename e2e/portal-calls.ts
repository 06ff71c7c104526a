/**
 * What a browser test does beside the page, on the server it started: the operator's command line
 * (in this process, against the server's DATA_DIR and issuer) and API calls as an account.
 *
 *     const { ops, api, postWithKey } = portalCalls(portal, 'localhost');
 */
import { IDEMPOTENCY_HEADER } from '@portal/contract/cards';
import { runOps } from '../apps/server/src/ops/cli.ts';
import { callApi } from './accounts-support.ts';
import type { Harness } from './harness.ts';

/** Who calls: an account signed in through the API, or its token. */
export type Caller = { token: string } | string;

const tokenOf = (caller: Caller) => (typeof caller === 'string' ? caller : caller.token);

export function portalCalls(portal: Harness, host: string) {
  /** `npm run ops -- …`; answers what it printed, throws with what it said on failure. */
  async function ops(args: string[]): Promise<string> {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runOps(args, {
      env: { DATA_DIR: portal.server.dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn', ISSUER_URL: portal.server.issuerUrl },
      out: (text) => out.push(text),
      err: (text) => err.push(text),
    });
    if (code !== 0) throw new Error(`ops ${args.join(' ')} failed (${code}):\n${err.join('\n')}`);
    return out.join('\n');
  }

  /** One call as the caller; answers the envelope's data, throws on any other code. */
  async function api<T>(caller: Caller, method: string, urlPath: string, body?: unknown, headers?: Record<string, string>): Promise<T> {
    const answer = await callApi<T>(portal, host, method, urlPath, body, tokenOf(caller), headers);
    if (answer.code !== 0) throw new Error(`${method} ${urlPath} failed: ${answer.message} (${answer.code})`);
    return answer.data;
  }

  /** A POST with an Idempotency-Key (the money calls need one). */
  const postWithKey = <T>(caller: Caller, urlPath: string, body: unknown, key: string) =>
    api<T>(caller, 'POST', urlPath, body, { [IDEMPOTENCY_HEADER]: key });

  return { ops, api, postWithKey };
}
