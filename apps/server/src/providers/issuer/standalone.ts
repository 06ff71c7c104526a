/**
 * `npm run issuer-sim`: the simulated card issuer on its own, for a portal started with
 * ISSUER_URL=http://127.0.0.1:<ISSUER_SIM_PORT>. Settings: ISSUER_SIM_PORT (4100), PORTAL_WEBHOOK_URL
 * (http://127.0.0.1:3000/api/v1/issuer/webhook), ISSUER_WEBHOOK_SECRET (else the development one in
 * DATA_DIR, the server's), ISSUER_SIM_DELAY_MS (800), ISSUER_SIM_FAIL_RATE (0). What it accepted and has
 * not delivered is kept in DATA_DIR/issuer-simulator/journal.jsonl and survives a crash.
 */
import pino from 'pino';
import { loadIssuerSimulatorConfig } from '../../config.ts';
import { prettyLogStream } from '../../http/logging.ts';
import { issuerWebhookSecretFor } from '../../lib/secrets.ts';
import { fileJournal, simulatorJournalFile } from './simulator-journal.ts';
import { startIssuerSimulator } from './simulator-server.ts';

let config: ReturnType<typeof loadIssuerSimulatorConfig>;
try {
  config = loadIssuerSimulatorConfig(process.env);
} catch (error) {
  process.stderr.write(`${(error as Error).message.replace(/:\n/, ': ').replaceAll('\n', '; ')}\n`);
  process.exit(1);
}

const log = pino({ level: process.env.LOG_LEVEL || 'info' }, prettyLogStream());
const secret = issuerWebhookSecretFor({ issuerWebhookSecret: config.secret, dataDir: config.dataDir });

let simulator: Awaited<ReturnType<typeof startIssuerSimulator>>;
try {
  simulator = await startIssuerSimulator({
    host: '127.0.0.1',
    port: config.port,
    webhookUrl: config.webhookUrl,
    secret,
    delayMs: config.delayMs,
    failRate: config.failRate,
    // what it accepted and has not delivered survives a crash: DATA_DIR/issuer-simulator/journal.jsonl
    journal: fileJournal(simulatorJournalFile(config.dataDir), () => secret),
    log,
  });
} catch (error) {
  process.stderr.write(`${(error as Error).message}; set ISSUER_SIM_PORT to a free port (0: any)\n`);
  process.exit(1);
}

log.info(
  { webhook: config.webhookUrl, delay_ms: config.delayMs, fail_rate: config.failRate, secret: config.secret ? 'ISSUER_WEBHOOK_SECRET' : `${config.dataDir}/secrets` },
  `simulated card issuer on ${simulator.url}: start the portal with ISSUER_URL=${simulator.url}`,
);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    log.info(`${signal}: closing`);
    await simulator.close();
    process.exit(0);
  });
}
