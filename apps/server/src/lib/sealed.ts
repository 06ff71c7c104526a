import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Transform } from 'node:stream';
import { openingStream, sealingStream } from './sealed-stream.ts';

/**
 * Sealing of sensitive data at rest (card numbers, ID numbers): AES-256-GCM with a random 96-bit IV,
 * written as `v1.<iv>.<tag>.<ciphertext>` (base64url). `v1` names the key, so a key can be rotated by
 * adding the next one beside it. A sealed value that was changed or sealed with another key does not open.
 */
export interface Sealer {
  seal(text: string): string;
  open(sealed: string): string;
  /** a file as it is written, for `label` (sealed-stream.ts) */
  sealStream(label: string): Transform;
  /** a sealed file as it is read, for the same `label`; fails rather than yield anything unchecked */
  openStream(label: string): Transform;
}

/** The key from CARD_DATA_KEY: 32 bytes as base64 or as 64 hex digits. */
export function dataKeyFrom(text: string): Buffer {
  const key = /^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (key.length !== 32) throw new Error('a data key is 32 bytes');
  return key;
}

export function createSealer(key: Buffer): Sealer {
  if (key.length !== 32) throw new Error('a data key is 32 bytes');
  return {
    seal(text) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
      return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
    },
    open(sealed) {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== 'v1' || iv === undefined || tag === undefined || body === undefined) throw new Error('not a sealed value of this key');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    },
    sealStream: (label) => sealingStream(key, label),
    openStream: (label) => openingStream(key, label),
  };
}
