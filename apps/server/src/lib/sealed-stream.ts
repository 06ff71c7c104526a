import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';

/**
 * Sealing of files (export spreadsheets holding full card numbers) as they are written, and opening them as
 * they are read, with memory bounded by one chunk whatever the file's size.
 *
 * Layout: `MAGIC` (8 bytes, naming the format and the key, like `v1` of a sealed value), a random 32-byte
 * salt, then the content in chunks of CHUNK bytes (the last one shorter, possibly empty), each encrypted with
 * AES-256-GCM and followed by its 16-byte tag. Each file has its own key, derived (HKDF-SHA-256) from the data
 * key and its salt, so the chunks' nonces can simply count: the chunk's number, and a last-chunk flag. The
 * label (e.g. the export's id) is every chunk's additional data.
 *
 * A chunk's plaintext is passed on only once its tag has been checked, so a changed byte, chunks reordered or
 * dropped, a file cut short or longer, or a file sealed for another label never yields unchecked content: the
 * stream fails instead.
 */
export const SEALED_STREAM_MAGIC = Buffer.from('PSEALv1\n', 'latin1');
const SALT_BYTES = 32;
const HEADER_BYTES = SEALED_STREAM_MAGIC.length + SALT_BYTES;
const TAG_BYTES = 16;
/** Content bytes a chunk holds (the last one fewer). */
export const SEALED_CHUNK_BYTES = 64 * 1024;
const RECORD_BYTES = SEALED_CHUNK_BYTES + TAG_BYTES;
const KEY_INFO = Buffer.from('portal sealed stream v1', 'latin1');

const fileKey = (key: Buffer, salt: Buffer) => Buffer.from(hkdfSync('sha256', key, salt, KEY_INFO, 32));

function nonce(index: number, last: boolean) {
  const iv = Buffer.alloc(12);
  iv.writeUInt32BE(index, 7);
  iv[11] = last ? 1 : 0;
  return iv;
}

/** Whether the first bytes of a file are those of a sealed stream (a file written before sealing is not). */
export const looksSealed = (head: Buffer) => head.length >= SEALED_STREAM_MAGIC.length && head.subarray(0, SEALED_STREAM_MAGIC.length).equals(SEALED_STREAM_MAGIC);

/** Bytes to read from a file's start to tell whether it is sealed. */
export const SEALED_HEAD_BYTES = SEALED_STREAM_MAGIC.length;

/** A stream that seals what is written to it for `label`; its output is the sealed file. */
export function sealingStream(key: Buffer, label: string): Transform {
  const salt = randomBytes(SALT_BYTES);
  const chunkKey = fileKey(key, salt);
  const aad = Buffer.from(label, 'utf8');
  let index = 0;
  let pending: Buffer[] = [];
  let pendingBytes = 0;

  const sealChunk = (plain: Buffer, last: boolean) => {
    const cipher = createCipheriv('aes-256-gcm', chunkKey, nonce(index++, last));
    cipher.setAAD(aad);
    return Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
  };

  let started = false;
  const start = (stream: Transform) => {
    if (started) return;
    started = true;
    stream.push(Buffer.concat([SEALED_STREAM_MAGIC, salt]));
  };

  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      start(this);
      pending.push(chunk);
      pendingBytes += chunk.length;
      // a full chunk is sealed only once more follows it, so the last one is known to be the last
      if (pendingBytes > SEALED_CHUNK_BYTES) {
        let joined = Buffer.concat(pending);
        while (joined.length > SEALED_CHUNK_BYTES) {
          this.push(sealChunk(joined.subarray(0, SEALED_CHUNK_BYTES), false));
          joined = joined.subarray(SEALED_CHUNK_BYTES);
        }
        pending = [joined];
        pendingBytes = joined.length;
      }
      callback();
    },
    flush(callback: TransformCallback) {
      start(this);
      this.push(sealChunk(Buffer.concat(pending), true));
      pending = [];
      callback();
    },
  });
}

/** A stream that opens a sealed file for `label`; it fails (and yields nothing unchecked) on any damage. */
export function openingStream(key: Buffer, label: string): Transform {
  const aad = Buffer.from(label, 'utf8');
  let chunkKey: Buffer | null = null;
  let index = 0;
  let buffered: Buffer = Buffer.alloc(0);

  const openChunk = (record: Buffer, last: boolean) => {
    if (!chunkKey) throw new Error('sealed file: no header');
    const decipher = createDecipheriv('aes-256-gcm', chunkKey, nonce(index++, last));
    decipher.setAAD(aad);
    decipher.setAuthTag(record.subarray(record.length - TAG_BYTES));
    return Buffer.concat([decipher.update(record.subarray(0, record.length - TAG_BYTES)), decipher.final()]);
  };

  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      try {
        buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
        if (!chunkKey) {
          if (buffered.length < HEADER_BYTES) return callback();
          if (!looksSealed(buffered)) throw new Error('not a sealed file');
          chunkKey = fileKey(key, buffered.subarray(SEALED_STREAM_MAGIC.length, HEADER_BYTES));
          buffered = buffered.subarray(HEADER_BYTES);
        }
        // more than a record left: the first one is not the last
        while (buffered.length > RECORD_BYTES) {
          this.push(openChunk(buffered.subarray(0, RECORD_BYTES), false));
          buffered = buffered.subarray(RECORD_BYTES);
        }
        callback();
      } catch (error) {
        callback(error as Error);
      }
    },
    flush(callback: TransformCallback) {
      try {
        if (!chunkKey || buffered.length < TAG_BYTES) throw new Error('sealed file cut short');
        this.push(openChunk(buffered, true));
        buffered = Buffer.alloc(0);
        callback();
      } catch (error) {
        callback(error as Error);
      }
    },
  });
}
