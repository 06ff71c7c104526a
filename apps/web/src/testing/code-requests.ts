import { CODE_REQUEST_PREFIX } from '../lib/storage.ts';

/** The keys of the codes asked for that the tab keeps (lib/code-send-limits.ts), without their prefix. */
export function keptCodeRequests(): string[] {
  const keys: string[] = [];
  for (let index = 0; index < sessionStorage.length; index++) {
    const key = sessionStorage.key(index);
    if (key?.startsWith(CODE_REQUEST_PREFIX)) keys.push(key.slice(CODE_REQUEST_PREFIX.length));
  }
  return keys.sort();
}
