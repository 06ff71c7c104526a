import { expect } from 'vitest';
import type { Database } from '../../src/db/engine.ts';
import type { Clock } from '../../src/lib/clock.ts';
import { runOps } from '../../src/ops/cli.ts';
import { expectUnchanged } from './unchanged.ts';

export interface OpsRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * `npm run ops -- ...argv`, in this process, on the given database; `env` e.g. a production one; `clock` the
 * test's, where the command compares times with what the test made (sessions, expiries).
 */
export async function runOpsOn(database: Database, argv: string[], env: NodeJS.ProcessEnv = {}, clock?: Clock): Promise<OpsRun> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runOps(argv, {
    env,
    clock,
    out: (text) => out.push(text),
    err: (text) => err.push(text),
    open: async () => ({ database, description: 'the test database', close: async () => {} }),
  });
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}

/**
 * Runs a command that must be refused with this exit code and a message matching `message`, printing
 * nothing on stdout, and proves that `snapshot` (whatever the command could change) reads the same after.
 */
export async function expectOpsRefused(
  database: Database,
  snapshot: () => Promise<string>,
  argv: string[],
  code: 1 | 2,
  message: RegExp,
): Promise<OpsRun> {
  return expectUnchanged(snapshot, async () => {
    const run = await runOpsOn(database, argv);
    expect(run.code, `${argv.join(' ')}\n${run.stdout}\n${run.stderr}`).toBe(code);
    expect(run.stderr).toMatch(message);
    expect(run.stdout).toBe('');
    return run;
  });
}
