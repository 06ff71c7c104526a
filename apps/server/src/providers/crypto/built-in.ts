import type { Config } from '../../config.ts';
import { gatewayStateFile, type RunningGatewaySimulator, startGatewaySimulator, type StartGatewaySimulatorOptions } from './simulator-server.ts';

/**
 * The simulated crypto gateway the server starts inside itself when CRYPTO_GATEWAY_URL is unset
 * (main.ts, never in production), on 127.0.0.1:CRYPTO_SIM_PORT. It stays an HTTP party of its own: the
 * portal reaches it through the same adapter as a real gateway (http.ts), at gatewayUrlFor(config).
 */
let running: RunningGatewaySimulator | undefined;

export async function startBuiltInGateway(config: Pick<Config, 'production' | 'crypto' | 'dataDir'>, { secret, log }: { secret: () => string; log?: StartGatewaySimulatorOptions['log'] }) {
  if (config.production) throw new Error('the crypto gateway simulator never runs in production: set CRYPTO_GATEWAY_URL');
  const started = await startGatewaySimulator({ port: config.crypto.simPort, secret, stateFile: gatewayStateFile(config.dataDir), ...(log ? { log } : {}) });
  running = started;
  return {
    ...started,
    async close() {
      if (running === started) running = undefined;
      await started.close();
    },
  } satisfies RunningGatewaySimulator;
}

/**
 * Where the portal reaches its crypto gateway: CRYPTO_GATEWAY_URL; else the built-in simulator this
 * process started; else where the built-in one listens by default (an operator command beside a server).
 */
export function gatewayUrlFor(config: Pick<Config, 'crypto'>): string {
  return config.crypto.url ?? running?.url ?? `http://127.0.0.1:${config.crypto.simPort}`;
}

/** The portal's crypto webhook as seen from this machine, for a portal listening on `host`:`port`. */
export function portalCryptoWebhookUrl(host: string, port: number): string {
  const target = ['', '0.0.0.0', '::', '[::]'].includes(host) ? '127.0.0.1' : host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return `http://${target}:${port}/api/v1/crypto/webhook`;
}
