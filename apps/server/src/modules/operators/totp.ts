import { consolePolicy } from '@portal/contract/console';
import { generateSecret, generateURI, verify } from 'otplib';

/** A new authenticator secret (160 bits, Base32) and the otpauth:// URL its QR code carries. */
export function newTotpSecret(merchantName: string, email: string) {
  const secret = generateSecret({ length: 20 });
  const otpauthUrl = generateURI({ issuer: `${merchantName} ${consolePolicy.issuer}`, label: email, secret, period: consolePolicy.totpStepSeconds });
  return { secret, otpauthUrl };
}

/**
 * The 30-second step a code matches at `now`, checked in its own step and one either side (RFC 6238
 * §5.2, a clock a step off), in constant time; null when it matches none. Single use is the caller's:
 * the step is taken once (store.takeTotpStep).
 */
export async function matchedTotpStep(secret: string, code: string, now: Date): Promise<number | null> {
  const result = await verify({
    secret,
    token: code,
    epoch: Math.floor(now.getTime() / 1000),
    period: consolePolicy.totpStepSeconds,
    epochTolerance: consolePolicy.totpStepSeconds * consolePolicy.totpSkewSteps,
  });
  if (!result.valid || !('timeStep' in result)) return null;
  return result.timeStep;
}
