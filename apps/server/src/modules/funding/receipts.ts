import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { RECEIPT_MAX_BYTES, type ReceiptType } from '@portal/contract/funding';
import { FundingErrorCode } from '@portal/contract/funding-errors';
import { AppError } from '../../http/errors.ts';

/** The image kind told by a file's first bytes (PNG, JPEG, WebP, GIF), or null for anything else. */
export function imageTypeOf(bytes: Uint8Array): ReceiptType | null {
  const starts = (...values: number[]) => values.every((value, index) => bytes[index] === value);
  const ascii = (from: number, text: string) => [...text].every((char, index) => bytes[from + index] === char.charCodeAt(0));
  if (bytes.length >= 8 && starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (bytes.length >= 3 && starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (bytes.length >= 12 && ascii(0, 'RIFF') && ascii(8, 'WEBP')) return 'image/webp';
  if (bytes.length >= 6 && (ascii(0, 'GIF87a') || ascii(0, 'GIF89a'))) return 'image/gif';
  return null;
}

const EXTENSIONS: Record<ReceiptType, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp', 'image/gif': 'gif' };

/** Reads a request body up to the limit; more is refused (3103) without reading the rest into memory. */
export async function readLimited(stream: AsyncIterable<Buffer | string>, limit = RECEIPT_MAX_BYTES) {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const part = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += part.length;
    if (size > limit) throw new AppError(FundingErrorCode.RECEIPT_TOO_LARGE);
    parts.push(part);
  }
  return Buffer.concat(parts);
}

/**
 * Receipt files under `folder` (DATA_DIR/receipts): each by a name the server makes (a random id and
 * the extension of its kind), in a folder of its merchant; no part of a path ever comes from a client.
 */
export function receiptFiles(folder: string) {
  const pathOf = (merchantId: string, fileName: string) => path.join(folder, merchantId, fileName);
  return {
    /** Checks the bytes and writes them; answers the kind and the file's name. */
    async store(merchantId: string, bytes: Buffer) {
      if (bytes.length > RECEIPT_MAX_BYTES) throw new AppError(FundingErrorCode.RECEIPT_TOO_LARGE);
      const type = imageTypeOf(bytes);
      if (!type) throw new AppError(FundingErrorCode.RECEIPT_TYPE);
      const fileName = `${randomUUID()}.${EXTENSIONS[type]}`;
      const target = pathOf(merchantId, fileName);
      await mkdir(path.dirname(target), { recursive: true });
      // written whole under another name first: a reader never meets half a file
      await writeFile(`${target}.part`, bytes, { mode: 0o600 });
      await rename(`${target}.part`, target);
      return { type, fileName, size: bytes.length };
    },
    read: (merchantId: string, fileName: string) => readFile(pathOf(merchantId, fileName)),
  };
}
