import type { Config } from '../../config.ts';
import type { SimulatorLog } from './simulator.ts';
import { fileJournal, simulatorJournalFile } from './simulator-journal.ts';
import { type RunningIssuerSimulator, startIssuerSimulator } from './simulator-server.ts';

/**
 * The simulated issuer the server starts inside itself when ISSUER_URL is unset (main.ts), on
 * 127.0.0.1:ISSUER_SIM_PORT. It stays an HTTP party of its own: the portal reaches it through the
 * same adapter as a real issuer (http.ts), at issuerUrlFor(config).
 */

/** the one this process started, if any */
let running: RunningIssuerSimulator | undefined;

/** Where the built-in simulator listens when its port is the configured one (the operator commands look there). */
export const builtInSimulatorUrl = (simPort: number) => `http://127.0.0.1:${simPort}`;

/** Starts the built-in simulator; the portal's webhook address is given once the portal listens (setWebhookUrl). */
export async function startBuiltInIssuer(config: Pick<Config, 'production' | 'issuer' | 'dataDir'>, { secret, log }: { secret: () => string; log?: SimulatorLog }) {
  if (config.production) throw new Error('the issuer simulator never runs in production: set ISSUER_URL');
  if (config.issuer.url) throw new Error(`ISSUER_URL is set (${config.issuer.url}): no simulator is started`);
  if (running) throw new Error('the built-in issuer simulator runs already');
  const started = await startIssuerSimulator({
    host: '127.0.0.1',
    port: config.issuer.simPort,
    secret,
    delayMs: config.issuer.simDelayMs,
    failRate: config.issuer.simFailRate,
    // its cards, authorisations and undelivered events survive a crash of the server it runs in
    journal: fileJournal(simulatorJournalFile(config.dataDir), secret),
    ...(log ? { log } : {}),
  });
  running = started;
  return {
    ...started,
    async close() {
      if (running === started) running = undefined;
      await started.close();
    },
  } satisfies RunningIssuerSimulator;
}

/** The address of the built-in simulator this process runs (its port is known once started), or undefined. */
export function builtInIssuerUrl(): string | undefined {
  return running?.url;
}

/**
 * Where the portal reaches its card issuer: ISSUER_URL; else the built-in simulator this process
 * started; else where the built-in one listens by default (a process that did not start it, such
 * as an operator command next to a running server).
 */
export function issuerUrlFor(config: Pick<Config, 'issuer'>): string {
  return config.issuer.url ?? builtInIssuerUrl() ?? builtInSimulatorUrl(config.issuer.simPort);
}

/** The portal's webhook as seen from this machine, for a portal listening on `host`:`port`. */
export function portalWebhookUrl(host: string, port: number): string {
  const anyAddress = ['', '0.0.0.0', '::', '[::]'].includes(host);
  const target = anyAddress ? '127.0.0.1' : host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return `http://${target}:${port}/api/v1/issuer/webhook`;
}
