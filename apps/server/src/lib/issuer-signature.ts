import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The signature between the portal and its card issuer, both ways (shared/design/cards.md):
 * `Issuer-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">` over the exact bytes sent.
 * The issuer signs its webhooks with it, and the portal signs its requests to the issuer the same way.
 */
export const ISSUER_SIGNATURE_HEADER = 'issuer-signature';

/** How old (or how far ahead) a signature may be: a captured request cannot be sent again later. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

function mac(secret: string, t: string, body: Buffer | string) {
  return createHmac('sha256', secret).update(`${t}.`).update(body).digest();
}

/** The header's value for these exact bytes, signed at `at`. */
export function signIssuerPayload(secret: string, body: Buffer | string, at: Date): string {
  const t = String(Math.floor(at.getTime() / 1000));
  return `t=${t},v1=${mac(secret, t, body).toString('hex')}`;
}

/**
 * Whether `header` signs these exact bytes with `secret` at a time within the tolerance of `now`.
 * Several v1 are accepted (the sender signs with the old and the new secret while rotating): one
 * matching is enough. Anything malformed is simply not a signature.
 */
export function verifyIssuerSignature({
  secret,
  body,
  header,
  now,
  toleranceSeconds = SIGNATURE_TOLERANCE_SECONDS,
}: {
  secret: string;
  body: Buffer | string | undefined;
  header: string | undefined;
  now: Date;
  toleranceSeconds?: number;
}): boolean {
  if (body === undefined || !header) return false;
  const parts = header.split(',').map((part) => part.trim().split('='));
  const t = parts.find(([name]) => name === 't')?.[1];
  const signatures = parts
    .filter(([name, value]) => name === 'v1' && value !== undefined && /^[0-9a-f]{64}$/.test(value))
    .map(([, value]) => Buffer.from(value as string, 'hex'));
  if (!t || !/^\d{1,12}$/.test(t) || signatures.length === 0) return false;
  if (Math.abs(now.getTime() / 1000 - Number(t)) > toleranceSeconds) return false;
  const expected = mac(secret, t, body);
  // every candidate is compared, in constant time each
  let matched = false;
  for (const signature of signatures) matched = timingSafeEqual(signature, expected) || matched;
  return matched;
}
