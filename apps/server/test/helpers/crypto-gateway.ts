import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { signIssuerPayload } from '../../src/lib/issuer-signature.ts';
import type { TestApp } from './app.ts';

const STANDALONE = fileURLToPath(new URL('../../src/providers/crypto/standalone.ts', import.meta.url));
const REPO = fileURLToPath(new URL('../../../../', import.meta.url));

/** A port the system has just handed out and released. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * `npm run crypto-sim` as a process of its own on `port`, sending its events to `webhookUrl`; resolves
 * once it says where it listens. stop() ends it (SIGKILL: `kill()` stands for a crash).
 */
export async function startGatewayProcess({ port, webhookUrl, secret }: { port: number; webhookUrl: string; secret: string }) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'crypto-sim-'));
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', STANDALONE], {
    cwd: REPO,
    env: { ...process.env, CRYPTO_SIM_PORT: String(port), PORTAL_CRYPTO_WEBHOOK_URL: webhookUrl, CRYPTO_WEBHOOK_SECRET: secret, DATA_DIR: dataDir, LOG_LEVEL: 'info', NODE_ENV: 'development' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the crypto gateway simulator did not start within 30 s:\n${output}`)), 30_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.includes('simulated crypto gateway on')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the crypto gateway simulator exited (${code}):\n${output}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGKILL');
        await exited;
      }
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A gateway event as the gateway signs it (or with another secret, or signed at another time), posted to the portal's webhook. */
export async function sendGatewayEvent(
  t: TestApp,
  data: Record<string, unknown>,
  options: { secret: string; id?: string; type?: string; at?: Date; signature?: string },
) {
  const body = JSON.stringify({ id: options.id ?? `evt_${randomUUID()}`, type: options.type ?? 'deposit.confirmations', data });
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/v1/crypto/webhook',
    headers: { host: 'gateway.example', 'content-type': 'application/json', 'gateway-signature': options.signature ?? signIssuerPayload(options.secret, body, options.at ?? new Date()) },
    payload: body,
  });
  return { status: response.statusCode, body: response.json() as { code: number; message: string; data: Record<string, unknown> } };
}

/** The data of a deposit event for `address`: a fresh chain transaction unless one is given. */
export const depositData = (address: string, confirmations: number, more: { amount?: string; tx_id?: string } = {}) => ({
  deposit_id: `dep_${randomUUID()}`,
  tx_id: more.tx_id ?? randomBytes(32).toString('hex'),
  address,
  amount: more.amount ?? '100.00',
  confirmations,
  network: 'TRC20',
});
