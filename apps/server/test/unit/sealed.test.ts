import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSealer, dataKeyFrom } from '../../src/lib/sealed.ts';

describe('sealed data', () => {
  const sealer = createSealer(randomBytes(32));

  it('opens to what was sealed, and never shows it in the sealed text', () => {
    const sealed = sealer.seal('11010519491231002X');
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain('11010519491231002X');
    expect(sealer.open(sealed)).toBe('11010519491231002X');
  });

  it('seals the same text differently each time', () => {
    expect(sealer.seal('4242424242424242')).not.toBe(sealer.seal('4242424242424242'));
  });

  it('refuses a changed value and one sealed with another key', () => {
    const sealed = sealer.seal('secret');
    const parts = sealed.split('.');
    const body = Buffer.from(parts[3] as string, 'base64url');
    body[0] = (body[0] as number) ^ 1;
    expect(() => sealer.open([parts[0], parts[1], parts[2], body.toString('base64url')].join('.'))).toThrow();
    expect(() => createSealer(randomBytes(32)).open(sealed)).toThrow();
    expect(() => sealer.open('plain text')).toThrow();
  });

  it('reads a key as base64 or as hex, 32 bytes only', () => {
    const key = randomBytes(32);
    expect(dataKeyFrom(key.toString('base64')).equals(key)).toBe(true);
    expect(dataKeyFrom(key.toString('hex')).equals(key)).toBe(true);
    expect(() => dataKeyFrom(randomBytes(16).toString('base64'))).toThrow();
  });
});
