import { randomBytes } from 'node:crypto';
import { Readable, type Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { createSealer, dataKeyFrom } from '../../src/lib/sealed.ts';
import { looksSealed, SEALED_CHUNK_BYTES } from '../../src/lib/sealed-stream.ts';

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

describe('sealed files (streams)', () => {
  const sealer = createSealer(randomBytes(32));
  const CHUNK = SEALED_CHUNK_BYTES;

  const collect = (out: Buffer[]) =>
    new Writable({
      write(chunk: Buffer, _encoding, callback) {
        out.push(chunk);
        callback();
      },
    });
  /** Writes `parts` through a stream and answers all it gave out. */
  async function through(stream: Transform, parts: Buffer[]) {
    const out: Buffer[] = [];
    await pipeline(Readable.from(parts), stream, collect(out));
    return Buffer.concat(out);
  }
  /** What an opening stream passes on before it fails, and the failure. */
  async function openFailing(sealed: Buffer, label: string, key = sealer) {
    const out: Buffer[] = [];
    const failure = await pipeline(
      Readable.from([sealed]),
      key.openStream(label),
      collect(out),
    ).then(
      () => null,
      (error: unknown) => error,
    );
    return { failure, passed: Buffer.concat(out).length };
  }

  it('opens to the same bytes whatever the size and however the writes are cut, and holds no clear byte', async () => {
    for (const size of [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 3 * CHUNK, 3 * CHUNK + 17]) {
      const content = Buffer.alloc(size, 'card 4242424242424242 ');
      const pieces = [content.subarray(0, Math.floor(size / 3)), content.subarray(Math.floor(size / 3), size - 5), content.subarray(Math.max(0, size - 5))];
      const sealed = await through(sealer.sealStream('export-1'), pieces);
      expect(looksSealed(sealed)).toBe(true);
      if (size > 0) expect(sealed.includes(Buffer.from('4242424242424242'))).toBe(false);
      // read back in odd slices, as a file may come off the disk
      const slices: Buffer[] = [];
      for (let at = 0; at < sealed.length; at += 7_001) slices.push(sealed.subarray(at, at + 7_001));
      expect((await through(sealer.openStream('export-1'), slices)).equals(content), `size ${size}`).toBe(true);
    }
  });

  it('fails, passing nothing unchecked on, for a changed byte, a file cut short or lengthened, chunks swapped, another label or another key', async () => {
    const content = randomBytes(3 * CHUNK + 100);
    const sealed = await through(sealer.sealStream('export-1'), [content]);
    const header = sealed.length - (content.length + 4 * 16);
    const record = CHUNK + 16;

    const flipped = Buffer.from(sealed);
    flipped[header + record + 10] = (flipped[header + record + 10] as number) ^ 1;
    // the first chunk is sound and passed on; the changed second one stops the stream
    expect(await openFailing(flipped, 'export-1')).toEqual({ failure: expect.any(Error), passed: CHUNK });

    const lastFlipped = Buffer.from(sealed);
    lastFlipped[lastFlipped.length - 1] = (lastFlipped[lastFlipped.length - 1] as number) ^ 1;
    expect((await openFailing(lastFlipped, 'export-1')).failure).toBeInstanceOf(Error);

    // cut at a chunk's end: what is left looks whole but its last chunk was not sealed as the last
    expect((await openFailing(sealed.subarray(0, header + 2 * record), 'export-1')).failure).toBeInstanceOf(Error);
    expect((await openFailing(sealed.subarray(0, sealed.length - 1), 'export-1')).failure).toBeInstanceOf(Error);
    expect((await openFailing(Buffer.concat([sealed, Buffer.from([0])]), 'export-1')).failure).toBeInstanceOf(Error);

    const swapped = Buffer.concat([
      sealed.subarray(0, header),
      sealed.subarray(header + record, header + 2 * record),
      sealed.subarray(header, header + record),
      sealed.subarray(header + 2 * record),
    ]);
    expect(await openFailing(swapped, 'export-1')).toEqual({ failure: expect.any(Error), passed: 0 });

    expect(await openFailing(sealed, 'export-2')).toEqual({ failure: expect.any(Error), passed: 0 });
    expect(await openFailing(sealed, 'export-1', createSealer(randomBytes(32)))).toEqual({ failure: expect.any(Error), passed: 0 });
    expect(await openFailing(Buffer.from('PK\u0003\u0004 a zip in clear'), 'export-1')).toEqual({ failure: expect.any(Error), passed: 0 });
  });
});
