import type { Merchant } from '@portal/contract/merchant';
import type { MerchantColor } from '@portal/contract/enums';
import { ErrorCode } from '@portal/contract/errors';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Database, Db, Tx } from '../../db/engine.ts';
import { AppError } from '../../http/errors.ts';
import { isUniqueViolation, Refused } from '../../lib/refused.ts';
import {
  countMerchants,
  deleteHost,
  findMerchantByHost,
  findMerchantBySlug,
  insertHost,
  insertMerchant,
  listHostsOfMerchant,
  listMerchantsWithHosts,
  type MerchantRow,
  type NewMerchant,
  updateMerchant,
} from './store.ts';

export type { MerchantRow, NewMerchant };

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
function merchantResolver(db: Db, ttlMs = CACHE_MS) {
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
async function mailLinkOrigin(
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

/** What a merchant may be changed to: its columns, checked by the caller (the operator command line). */
export type MerchantChanges = Partial<Pick<NewMerchant, 'name' | 'color' | 'website' | 'favicon' | 'darkLogo' | 'lightLogo' | 'icp' | 'version' | 'supportEmail' | 'origin'>>;

/** A merchant's origin names one of its own hosts, so its links reach it and no one else. */
function checkOriginHost(origin: string, hosts: string[], slug: string, removed: string[] = []) {
  if (!origin) return;
  const host = originHost(origin);
  if (hosts.includes(host)) return;
  if (removed.includes(host)) {
    throw new Refused(`cannot remove ${host}: the origin of merchant ${slug}, ${origin}, names it; give its new --origin in the same command`);
  }
  throw new Refused(
    `--origin ${origin} names ${host}, which is not a host of merchant ${slug} (its hosts are ${hosts.join(', ')}); add it with --add-host ${host}`,
  );
}

/** A host belongs to one merchant only. */
async function checkHostsFree(tx: Tx, hosts: string[], merchant?: MerchantRow) {
  for (const host of hosts) {
    const owner = await findMerchantByHost(tx, host);
    if (!owner) continue;
    if (merchant && owner.id === merchant.id) throw new Refused(`${host} is already a host of merchant ${merchant.slug}`);
    throw new Refused(`${host} already belongs to merchant ${owner.slug} (${owner.name}); a host belongs to one merchant only, so remove it there first`);
  }
}

/**
 * The merchants (tenants): which one owns a request's host (cached per process, dropped at once when
 * any process changes one), their branding and hosts, and the rules for changing them.
 */
export function createMerchantService({ database, cacheSeconds }: { database: Pick<Database, 'db' | 'listen' | 'notify'>; cacheSeconds?: number }) {
  const { db } = database;
  const resolver = merchantResolver(db, cacheSeconds === undefined ? CACHE_MS : cacheSeconds * 1000);

  /** Runs fn in one transaction; a host or slug taken by a simultaneous change is refused, not thrown raw. */
  async function inTransaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    try {
      return await db.transaction(fn);
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new Refused('another change took the same host or slug at the same moment; nothing was changed. Run the command again.');
      }
      throw error;
    }
  }

  /**
   * Tells every running server to drop its cached merchants (they would otherwise show the change
   * within seconds); answers what went wrong when they could not be told.
   */
  async function tellServers(slug: string) {
    try {
      await database.notify(MERCHANTS_CHANGED_CHANNEL, slug);
      return null;
    } catch (error) {
      return `running servers could not be told at once (${(error as Error).message}); they show the change within a few seconds.`;
    }
  }

  return {
    /** The merchant that owns a host (normalised), from the cache. */
    byHost: (host: string) => resolver.byHost(host),
    /** Reads the database, not the cache: for operators, who must see what holds now. */
    findByHost: async (host: string) => (await findMerchantByHost(db, host)) ?? null,
    list: () => listMerchantsWithHosts(db),
    count: () => countMerchants(db),
    mailLinkOrigin: (config: Pick<Config, 'production' | 'port'>, merchant: MerchantRow, log: Pick<FastifyBaseLogger, 'error'>) =>
      mailLinkOrigin(db, config, merchant, log),

    /** Drops this process's cached merchants (a change made here is seen at once). */
    forget: () => resolver.forget(),
    /** Drops this process's cached merchants whenever any process changes one; answers how to stop. */
    followChanges: () => database.listen(MERCHANTS_CHANGED_CHANNEL, () => resolver.forget()),

    /**
     * Changes a merchant's columns and hosts in one transaction: hosts removed must be its own, hosts
     * added nobody's, one host at least is left, and its origin names one of its hosts.
     */
    async update(
      which: { host: string } | { slug: string },
      changes: MerchantChanges,
      hosts: { add: string[]; remove: string[] } = { add: [], remove: [] },
    ) {
      const result = await inTransaction(async (tx) => {
        const merchant = 'host' in which ? await findMerchantByHost(tx, which.host) : await findMerchantBySlug(tx, which.slug);
        if (!merchant) {
          throw new Refused(
            'host' in which
              ? `no merchant has the host ${which.host} (merchant:list shows every merchant's hosts)`
              : `no merchant has the slug ${which.slug} (merchant:list shows the slugs)`,
          );
        }
        // the update also locks the merchant's row until commit, so two changes to its hosts take turns
        const updated = await updateMerchant(tx, merchant.id, changes);
        if (!updated) throw new Refused(`merchant ${merchant.slug} was deleted meanwhile`);
        const before = await listHostsOfMerchant(tx, merchant.id);
        for (const host of hosts.remove) {
          if (!before.includes(host)) throw new Refused(`${host} is not a host of merchant ${merchant.slug}; its hosts are ${before.join(', ')}`);
        }
        await checkHostsFree(tx, hosts.add, merchant);
        if (before.length - hosts.remove.length + hosts.add.length < 1) {
          throw new Refused(
            `cannot remove ${hosts.remove.join(', ')}: merchant ${merchant.slug} would have no host left and no one could reach it; add its new host in the same command (--add-host)`,
          );
        }
        for (const host of hosts.remove) await deleteHost(tx, host);
        for (const host of hosts.add) await insertHost(tx, host, merchant.id);
        const after = await listHostsOfMerchant(tx, merchant.id);
        checkOriginHost(updated.origin, after, merchant.slug, hosts.remove);
        return { before: merchant, after: updated, hosts: after };
      });
      return { ...result, notice: await tellServers(result.after.slug) };
    },

    /**
     * Creates a merchant with its hosts: the slug and hosts must be free, its origin one of its hosts.
     * Unless told otherwise it gets the blue theme, its first host as website and this year as version.
     */
    async create(values: MerchantChanges & { slug: string; name: string }, hosts: string[], now = new Date()) {
      const merchantValues: NewMerchant = {
        color: 'MERCHANT_COLOR_BLUE',
        website: hosts[0] ?? '',
        version: String(now.getFullYear()),
        ...values,
      };
      checkOriginHost(merchantValues.origin ?? '', hosts, values.slug);
      const merchant = await inTransaction(async (tx) => {
        const existing = await findMerchantBySlug(tx, values.slug);
        if (existing) throw new Refused(`a merchant with the slug ${values.slug} exists already (${existing.name}); choose another slug`);
        await checkHostsFree(tx, hosts);
        const created = await insertMerchant(tx, merchantValues);
        for (const host of hosts) await insertHost(tx, host, created.id);
        return created;
      });
      return { merchant, notice: await tellServers(merchant.slug) };
    },
  };
}

export type MerchantService = ReturnType<typeof createMerchantService>;
