import type { Merchant } from '@portal/contract/merchant';
import type { MerchantColor } from '@portal/contract/enums';
import { ErrorCode } from '@portal/contract/errors';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/engine.ts';
import { AppError } from '../../http/errors.ts';
import { findMerchantByHost, listHostsOfMerchant, type MerchantRow } from './store.ts';

/** "Blue.Localhost:3000" → "blue.localhost"; an IPv6 literal keeps its brackets. */
export function normaliseHost(hostHeader: string | undefined): string {
  if (!hostHeader) return '';
  const host = hostHeader.trim().toLowerCase();
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1);
  return host.replace(/:\d+$/, '').replace(/\.$/, '');
}

const CACHE_MS = 5_000;

/**
 * Finds the merchant that owns a host. Answers are cached for a few seconds per process, so a
 * branding change made elsewhere shows within that time.
 */
export function merchantResolver(db: Db, ttlMs = CACHE_MS) {
  const cache = new Map<string, { at: number; merchant: MerchantRow | null }>();
  // a lookup that was under way when forget() ran may have read the old row: it is not kept
  let generation = 0;
  return {
    async byHost(host: string): Promise<MerchantRow | null> {
      const hit = cache.get(host);
      const now = Date.now();
      if (hit && now - hit.at < ttlMs) return hit.merchant;
      const started = generation;
      const merchant = (await findMerchantByHost(db, host)) ?? null;
      if (cache.size > 10_000) cache.clear();
      if (started === generation) cache.set(host, { at: now, merchant });
      return merchant;
    },
    forget() {
      generation += 1;
      cache.clear();
    },
  };
}
export type MerchantResolver = ReturnType<typeof merchantResolver>;

/**
 * Whoever changes a merchant (the operator command line) NOTIFYs this channel, payload the
 * merchant's slug, and every server process drops its cached merchants at once.
 */
export const MERCHANTS_CHANGED_CHANNEL = 'merchant_changed';

export function toMerchantView(row: MerchantRow): Merchant {
  return {
    ...row.extra,
    id: row.id,
    name: row.name,
    color: row.color as MerchantColor,
    website: row.website,
    favicon: row.favicon,
    dark_logo: row.darkLogo,
    light_logo: row.lightLogo,
    icp: row.icp,
    version: row.version,
    support_email: row.supportEmail,
  };
}

/** Names that reach this machine only: where http:// links are allowed outside production. */
export function isLocalHostName(host: string) {
  return host === 'localhost' || host.endsWith('.localhost') || /^127(?:\.\d{1,3}){3}$/.test(host) || host === '[::1]';
}

const AUTHORITY = /^(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/**
 * A merchant's origin as an operator gives it: scheme://host[:port] and nothing else (no path,
 * query, fragment or user info), normalised (lower case, default port dropped). https://, or
 * http:// for a name of this machine outside production. Answers the origin or why it is refused.
 */
export function parseOrigin(value: string, { production }: { production: boolean }): { origin: string } | { refused: string } {
  const trimmed = value.trim();
  const match = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)\/?$/i.exec(trimmed);
  if (!match) {
    return { refused: `an origin is scheme://host[:port] such as https://portal.example, without a path, query or fragment, not "${value}"` };
  }
  const scheme = (match[1] as string).toLowerCase();
  const authority = match[2] as string;
  if (authority.includes('@')) return { refused: `an origin carries no user name or password, not "${value}"` };
  if (!AUTHORITY.test(authority)) return { refused: `"${value}" does not name a valid host (letters, digits, hyphens and dots, then an optional :port)` };
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return { refused: `"${value}" is not a valid address` };
  }
  if (scheme === 'https') return { origin: url.origin };
  if (scheme !== 'http') return { refused: `an origin starts with https:// (not ${scheme}://)` };
  if (production) return { refused: `links go out over https:// in production, not "${value}"` };
  if (!isLocalHostName(url.hostname)) {
    return { refused: `http:// is only for names of this machine (localhost, *.localhost, 127.0.0.1, [::1]); use https:// for ${url.hostname}` };
  }
  return { origin: url.origin };
}

/** The host of an origin, as the merchant's host list holds it. */
export const originHost = (origin: string) => new URL(origin).hostname;

/**
 * Where the links a merchant's customers get by mail point: the merchant's own origin, never the
 * request's Host or X-Forwarded-* headers (a forged one would send the live code to another site).
 * Outside production a merchant without one falls back to http://<its host>:<PORT>, its host being
 * localhost, else a *.localhost name, else its first. In production it has no fallback: the mail is
 * refused and the operator told in the log.
 */
export async function mailLinkOrigin(
  db: Db,
  config: Pick<Config, 'production' | 'port'>,
  merchant: MerchantRow,
  log: Pick<FastifyBaseLogger, 'error'>,
): Promise<string> {
  if (merchant.origin && (!config.production || merchant.origin.startsWith('https://'))) return merchant.origin;
  if (config.production) {
    log.error(
      { merchant: merchant.slug },
      `merchant ${merchant.slug} has no https origin, so no reset link can be mailed: set one with npm run ops -- merchant:set --slug ${merchant.slug} --origin https://…`,
    );
    throw new AppError(ErrorCode.RESET_LINK_UNAVAILABLE);
  }
  const hosts = await listHostsOfMerchant(db, merchant.id);
  const host = hosts.find((one) => one === 'localhost') ?? hosts.find((one) => one.endsWith('.localhost')) ?? hosts[0] ?? 'localhost';
  const port = config.port === 0 || config.port === 80 ? '' : `:${config.port}`;
  return `http://${host}${port}`;
}
