import type { Database } from '../../src/db/engine.ts';
import { runOps } from '../../src/ops/cli.ts';

export interface OpsRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** `npm run ops -- ...argv`, in this process, on the given database; `env` e.g. a production one. */
export async function runOpsOn(database: Database, argv: string[], env: NodeJS.ProcessEnv = {}): Promise<OpsRun> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runOps(argv, {
    env,
    out: (text) => out.push(text),
    err: (text) => err.push(text),
    open: async () => ({ database, description: 'the test database', close: async () => {} }),
  });
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}
