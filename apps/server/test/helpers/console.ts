import type { AuditItem, ConsoleLoginAnswer } from '@portal/contract/console';
import { generate } from 'otplib';
import { expect } from 'vitest';
import type { ManualClock } from '../../src/lib/clock.ts';
import type { ApiClient } from './api.ts';
import type { TestApp } from './app.ts';
import { runOpsOn } from './ops.ts';

/** A console call's path. */
export const C = (path: string) => `/api/console/v1${path}`;

/** An operator made by the command line, enrolled and signed in: a FULL token and the client holding it. */
export interface ConsoleOperator {
  host: string;
  email: string;
  password: string;
  secret: string;
  token: string;
  api: ApiClient;
}

let serial = 0;

/**
 * The console's operators of one test file: `operator()` runs `ops operator:create`, the first sign-in
 * and the enrolment; `code()` gives a fresh code of an authenticator (the clock moves a step first, so
 * no code is one used before).
 */
export function consoleOperators(app: () => TestApp, clock: ManualClock, prefix = 'op') {
  async function code(who: Pick<ConsoleOperator, 'secret'>) {
    clock.advance(30_000);
    return generate({ secret: who.secret, epoch: Math.floor(clock.now().getTime() / 1000) });
  }

  /** `on`: another app on the same database (the file's own by default) */
  async function operator(host: string, role: string, on?: TestApp): Promise<ConsoleOperator> {
    const t = on ?? app();
    const email = `${prefix}${Date.now().toString(36)}${++serial}@ops.example`;
    const run = await runOpsOn(t.database, ['operator:create', '--host', host, '--email', email, '--role', role], {}, clock);
    expect(run.code, run.stderr).toBe(0);
    const password = /password: (\S+)/.exec(run.stdout)?.[1] as string;
    const first = await t.api(host).post<ConsoleLoginAnswer>(C('/auth/login'), { email, password });
    expect(first.code, first.message).toBe(0);
    const secret = first.data.totp_enrolment?.secret as string;
    const given = await t.api(host, first.data.token).post<{ token: string }>(C('/auth/totp'), { code: await code({ secret }) });
    expect(given.code, given.message).toBe(0);
    return { host, email, password, secret, token: given.data.token, api: t.api(host, given.data.token) };
  }

  /** Signs the operator in again (after a reset of their session or the clock moving past it). */
  async function signInAgain(who: ConsoleOperator) {
    const t = app();
    const answer = await t.api(who.host).post<ConsoleLoginAnswer>(C('/auth/login'), { email: who.email, password: who.password, totp: await code(who) });
    expect(answer.code, answer.message).toBe(0);
    who.token = answer.data.token;
    who.api = t.api(who.host, answer.data.token);
  }

  return { operator, code, signInAgain };
}

/** The merchant's audit rows of one action, newest first, as the operator reads them. */
export const auditOf = async (who: Pick<ConsoleOperator, 'api'>, action: string) =>
  (await who.api.data<{ items: AuditItem[] }>('GET', C('/audit'), { query: { action, page_size: '100' } })).items;
