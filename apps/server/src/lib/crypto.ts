import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

/** 256 random bits, URL-safe: session tokens, device secrets, reset tickets. */
export const randomToken = () => randomBytes(32).toString('base64url');

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * A keyed hash (HMAC-SHA-256) for short secrets such as 6-digit codes: without the key, a reader of
 * the stored hash cannot try the million codes against it.
 */
export const keyedHash = (key: string, text: string) => createHmac('sha256', key).update(text).digest('hex');

export function sameText(a: string, b: string) {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** A 6-digit one-time code, uniformly drawn. */
export const randomCode = () => String(randomInt(0, 1_000_000)).padStart(6, '0');

/** argon2id (the library's Algorithm.Argon2id) */
const ARGON = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string) => hash(password, ARGON);

export async function verifyPassword(stored: string, password: string) {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

/** A hash of a password nobody has, so an unknown account costs the same time as a wrong password. */
let decoy: Promise<string> | null = null;
export async function burnPasswordTime(password: string) {
  decoy ??= hashPassword(randomToken());
  await verifyPassword(await decoy, password);
}
