import { type ChildProcess, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runOps } from '../../src/ops/cli.ts';
import { createHttpIssuer } from '../../src/providers/issuer/http.ts';
import { createTestDatabase, testEngine } from '../helpers/database.ts';

const engine = testEngine();
const repoRoot = path.resolve(import.meta.dirname, '../../../..');

/** A port the system has just handed out and released. */
async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => probe.once('listening', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

function waitFor(output: () => string, pattern: RegExp, child: ChildProcess, what: string) {
  return new Promise<RegExpExecArray>((resolve, reject) => {
    const timer = setInterval(() => {
      const match = pattern.exec(output());
      if (match) {
        clearInterval(timer);
        resolve(match);
      } else if (child.exitCode !== null) {
        clearInterval(timer);
        reject(new Error(`the server exited (${child.exitCode}) before ${what}:\n${output()}`));
      }
    }, 50);
  });
}

describe(`the server with ISSUER_URL unset (${engine})`, () => {
  it(
    'starts the simulated issuer on ISSUER_SIM_PORT, which the operator command reaches and whose events reach the webhook signed',
    { timeout: 120_000 },
    async () => {
      const dataDir = await mkdtemp(path.join(os.tmpdir(), 'issuer-sim-start-'));
      const fresh = engine === 'postgres' ? await createTestDatabase({ migrate: false }) : undefined;
      const simPort = await freePort();
      const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
        cwd: repoRoot,
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          PORT: '0',
          HOST: '127.0.0.1',
          DATA_DIR: dataDir,
          LOG_LEVEL: 'info',
          ISSUER_SIM_PORT: String(simPort),
          ISSUER_SIM_DELAY_MS: '0',
          ...(fresh ? { DATABASE_URL: fresh.location } : {}),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout?.on('data', (chunk) => {
        output += chunk;
      });
      child.stderr?.on('data', (chunk) => {
        output += chunk;
      });
      const exited = new Promise((resolve) => child.on('exit', resolve));
      try {
        await waitFor(() => output, /portal ready on http:\/\/localhost:\d+/, child, 'it was ready');
        expect(output).toContain(`simulated card issuer on http://127.0.0.1:${simPort} (ISSUER_URL unset`);

        // the operator command finds it by ISSUER_SIM_PORT and signs with the secret in DATA_DIR
        const out: string[] = [];
        const err: string[] = [];
        const code = await runOps(['issuer:fail-next', '--reason', '发卡行维护中'], {
          env: { DATA_DIR: dataDir, ISSUER_SIM_PORT: String(simPort) },
          out: (text) => out.push(text),
          err: (text) => err.push(text),
        });
        expect(code, err.join('\n')).toBe(0);
        expect(out.join('\n')).toContain(`The card issuer at http://127.0.0.1:${simPort} will fail the next card opening.`);

        // the portal's side of the protocol: a signed request, answered by an event on the webhook, whose signature the portal takes
        const secret = (await readFile(path.join(dataDir, 'secrets', 'issuer-webhook.key'), 'utf8')).trim();
        await createHttpIssuer({ url: `http://127.0.0.1:${simPort}`, secret }).freeze('card_started_test');
        const [, reqId] = await waitFor(() => output, /\[(req-\d+)\] → POST \/api\/v1\/issuer\/webhook/, child, 'the webhook was called');
        const [, status] = await waitFor(() => output, new RegExp(`\\[${reqId}\\] ← (\\d+)`), child, 'the webhook answered');
        // 401 would be a signature the portal does not take; what else it answers is the cards module's business
        expect(status).not.toBe('401');
      } finally {
        if (child.exitCode === null) child.kill('SIGTERM');
        await exited;
        await fresh?.close();
        await rm(dataDir, { recursive: true, force: true });
      }
      expect(output).toMatch(/SIGTERM: closing/);
    },
  );
});
