import type { Merchant } from '@portal/contract/merchant';
import type { MerchantColor } from '@portal/contract/enums';
import type { Db } from '../../db/engine.ts';
import { findMerchantByHost, type MerchantRow } from './store.ts';

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
