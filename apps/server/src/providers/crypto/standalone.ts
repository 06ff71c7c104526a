/**
 * `npm run crypto-sim`: the simulated crypto gateway on its own, for a portal started with
 * CRYPTO_GATEWAY_URL=http://127.0.0.1:<CRYPTO_SIM_PORT>. Settings: CRYPTO_SIM_PORT (4200),
 * PORTAL_CRYPTO_WEBHOOK_URL (http://127.0.0.1:3000/api/v1/crypto/webhook), CRYPTO_WEBHOOK_SECRET (else
 * the development one in DATA_DIR, the server's). Its addresses and deposits are kept in
 * DATA_DIR/crypto-gateway/state.json.
 */
import pino from 'pino';
import { loadCryptoSimulatorConfig } from '../../config.ts';
import { prettyLogStream } from '../../http/logging.ts';
import { cryptoWebhookSecretFor } from '../../lib/secrets.ts';
import { gatewayStateFile, startGatewaySimulator } from './simulator-server.ts';

let config: ReturnType<typeof loadCryptoSimulatorConfig>;
try {
  config = loadCryptoSimulatorConfig(process.env);
} catch (error) {
  process.stderr.write(`${(error as Error).message.replace(/:\n/, ': ').replaceAll('\n', '; ')}\n`);
  process.exit(1);
}

const log = pino({ level: process.env.LOG_LEVEL || 'info' }, prettyLogStream());
const secret = cryptoWebhookSecretFor({ crypto: { secret: config.secret }, dataDir: config.dataDir });

let simulator: Awaited<ReturnType<typeof startGatewaySimulator>>;
try {
  simulator = await startGatewaySimulator({ port: config.port, webhookUrl: config.webhookUrl, secret, stateFile: gatewayStateFile(config.dataDir), log });
} catch (error) {
  process.stderr.write(`${(error as Error).message}; set CRYPTO_SIM_PORT to a free port (0: any)\n`);
  process.exit(1);
}

// the first line names the address, so a process that started it knows where it listens
log.info({ webhook: config.webhookUrl }, `simulated crypto gateway on ${simulator.url}: start the portal with CRYPTO_GATEWAY_URL=${simulator.url}`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    await simulator.close();
    process.exit(0);
  });
}
