import { createHash } from 'node:crypto';

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest();

function base58(bytes: Buffer) {
  let value = BigInt(`0x${bytes.toString('hex')}`);
  let text = '';
  while (value > 0n) {
    text = BASE58[Number(value % 58n)] + text;
    value /= 58n;
  }
  for (const byte of bytes) {
    if (byte !== 0) break;
    text = `1${text}`;
  }
  return text;
}

/**
 * A TRON address as base58check writes it (0x41, twenty bytes, four bytes of checksum: 34 characters
 * starting with T), its twenty bytes taken from `seed`: the same seed always gives the same address.
 */
export function tronAddress(seed: string) {
  const payload = Buffer.concat([Buffer.from([0x41]), sha256(Buffer.from(seed, 'utf8')).subarray(0, 20)]);
  const checksum = sha256(sha256(payload)).subarray(0, 4);
  return base58(Buffer.concat([payload, checksum]));
}
