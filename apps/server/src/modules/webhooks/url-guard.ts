/**
 * Where an endpoint may point. Outside production: https anywhere, or http to this machine. In
 * production: https only, to a host whose every address is public; the addresses are looked up when the
 * endpoint is saved and again before each send, since a name's addresses may change in between.
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { webhookUrlProblem } from '@portal/contract/webhooks';
import { WebhookErrorCode } from '@portal/contract/webhook-errors';
import { AppError } from '../../http/errors.ts';

const NOT_PUBLIC = new BlockList();
for (const [network, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const) {
  NOT_PUBLIC.addSubnet(network, bits, 'ipv4');
}
for (const [network, bits] of [
  ['::', 127],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const) {
  NOT_PUBLIC.addSubnet(network, bits, 'ipv6');
}

/** Whether an address is private, loopback, link-local, unique-local or otherwise not on the internet. */
export function isNonPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  if (family === 6 && /^::ffff:/i.test(address)) {
    const v4 = address.slice(7);
    if (isIP(v4) === 4) return NOT_PUBLIC.check(v4, 'ipv4');
  }
  return NOT_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export type Resolve = (host: string) => Promise<string[]>;
const systemResolve: Resolve = async (host) => (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

/** Refuses (1232–1234) a URL an endpoint may not have, looking its host up in production. */
export async function checkWebhookUrl(text: string, production: boolean, resolve: Resolve = systemResolve): Promise<void> {
  if (webhookUrlProblem(text, production) !== null) throw new AppError(WebhookErrorCode.WEBHOOK_URL_SCHEME, { data: { field: 'url' } });
  if (!production) return;
  const host = new URL(text).hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : await resolve(host);
  } catch {
    throw new AppError(WebhookErrorCode.WEBHOOK_URL_UNRESOLVED, { data: { field: 'url' } });
  }
  if (addresses.length === 0) throw new AppError(WebhookErrorCode.WEBHOOK_URL_UNRESOLVED, { data: { field: 'url' } });
  if (addresses.some(isNonPublicAddress)) throw new AppError(WebhookErrorCode.WEBHOOK_URL_PRIVATE, { data: { field: 'url' } });
}
