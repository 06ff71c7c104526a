import { type ChildProcess, spawn } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { until } from './until.ts';

const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));

/**
 * Real server processes (`main.ts`) for the tests that kill one: each started with the environment the
 * test gives, on 127.0.0.1 at `port`, and ready once /healthz answers 200; `killAll` ends every one still
 * running (SIGKILL), for the test's afterAll.
 */
export function serverProcesses() {
  const children = new Set<ChildProcess>();
  return {
    async start(port: number, env: NodeJS.ProcessEnv): Promise<ChildProcess> {
      const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
        env: { ...env, HOST: '127.0.0.1', PORT: String(port) },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      children.add(child);
      child.once('exit', () => children.delete(child));
      await until(
        `the server on ${port}`,
        async () => {
          if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
          return new Promise<boolean>((resolve) => {
            const request = http.get({ host: '127.0.0.1', port, path: '/healthz' }, (response) => {
              response.resume();
              resolve(response.statusCode === 200);
            });
            request.on('error', () => resolve(false));
          });
        },
        60_000,
      );
      return child;
    },
    killAll() {
      for (const child of children) child.kill('SIGKILL');
    },
  };
}
