import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

/**
 * A server secret outside production: read from DATA_DIR/secrets/<name>, made there (256 random bits,
 * readable by this user only) the first time. Processes that share a database outside production
 * share it by sharing DATA_DIR; in production the secret comes from the environment.
 */
export function developmentSecret(dataDir: string, name: string): string {
  const folder = path.join(dataDir, 'secrets');
  const file = path.join(folder, name);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  try {
    writeFileSync(file, `${randomBytes(32).toString('hex')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    // made already (by an earlier start, or by a process starting at the same moment)
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return readFileSync(file, 'utf8').trim();
}

export const ISSUER_WEBHOOK_KEY_FILE = 'issuer-webhook.key';

/**
 * The secret shared with the card issuer (its webhooks, the portal's requests): ISSUER_WEBHOOK_SECRET,
 * or outside production DATA_DIR/secrets/issuer-webhook.key, so the server, the built-in simulator,
 * `npm run issuer-sim` and the operator commands on one DATA_DIR all sign with the same one.
 */
export function issuerWebhookSecretFor({ issuerWebhookSecret, dataDir }: { issuerWebhookSecret: string | undefined; dataDir: string }): string {
  return issuerWebhookSecret ?? developmentSecret(dataDir, ISSUER_WEBHOOK_KEY_FILE);
}

/**
 * The secret shared with the crypto gateway: CRYPTO_WEBHOOK_SECRET, or outside production
 * DATA_DIR/secrets/crypto-webhook.key, shared by the server, its simulator and the operator commands.
 */
export function cryptoWebhookSecretFor({ crypto, dataDir }: { crypto: { secret: string | undefined }; dataDir: string }): string {
  return crypto.secret ?? developmentSecret(dataDir, 'crypto-webhook.key');
}
