/**
 * The open API's keys (shared/design/growing-customers.md §4): made, listed, revoked and rotated by the
 * members whose role may (`developer.keys`), and resolved on every call made with one. A key acts as the
 * member who made it; its secret is answered once and kept as a hash, found by its lookup prefix.
 */
import { randomInt } from 'node:crypto';
import { BlockList, isIPv4, isIPv6 } from 'node:net';
import {
  API_KEY_PATTERN,
  API_KEY_ROTATION_OVERLAP_HOURS,
  API_KEYS_MAX,
  type ApiKeyItem,
  type ApiKeyScope,
  type ApiKeyStatus,
  type CreateApiKeyBody,
  mayHoldScope,
} from '@portal/contract/developer';
import { ApiKeyErrorCode } from '@portal/contract/developer-errors';
import { ErrorCode } from '@portal/contract/errors';
import { ROLE_LABELS, type Role } from '@portal/contract/team';
import { TeamErrorCode } from '@portal/contract/team-errors';
import type { Database, Db } from '../../db/engine.ts';
import { PRINCIPAL_CHANGED_CHANNEL, PrincipalCache } from '../../db/principal-cache.ts';
import { developerCalls } from '@portal/contract/api/developer';
import { AppError } from '../../http/errors.ts';
import { traceWithin } from '../../http/call-trace.ts';
import type { Clock } from '../../lib/clock.ts';
import { sameText, sha256 } from '../../lib/crypto.ts';
import { isUuid } from '../../lib/uuid.ts';
import { maskPhone } from '../../lib/mask.ts';
import type { Authenticated } from '../sessions/service.ts';
import { createKeyLimits } from './limits.ts';
import { type ApiKeyRow, countLiveKeys, findKeyByPrefix, insertApiKey, listApiKeys, lockAccountRow, lockApiKey, touchApiKey, updateApiKey } from './store.ts';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const randomText = (length: number) => Array.from({ length }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
/**
 * A key's last use (time and address) is written with a call when the one this process knows is this
 * old or older (or there is none): at most every 5 s a key and process, and never more than 5 s behind
 * while the key is used.
 */
const TOUCH_EVERY_MS = 5_000;

/** Who made the call that manages keys: the member and their account. */
export type KeyManager = Pick<Authenticated, 'account' | 'member'>;

/** A key's caller: the member it acts as, their account, and the key's scopes. */
export interface KeyCaller {
  account: Authenticated['account'];
  member: Authenticated['member'];
  key: { id: string; scopes: ApiKeyScope[] };
}

function newSecret() {
  const prefix = randomText(12);
  const secret = `sk_${prefix}_${randomText(40)}`;
  return { prefix, secret, hash: sha256(secret) };
}

const statusOf = (row: ApiKeyRow, now: Date): ApiKeyStatus =>
  row.revokedAt ? 'REVOKED' : row.expiresAt && row.expiresAt.getTime() <= now.getTime() ? 'EXPIRED' : 'ACTIVE';

function view(row: ApiKeyRow, member: { phone: string; role: string }, now: Date): ApiKeyItem {
  const overlapping = row.previousUntil && row.previousUntil.getTime() > now.getTime() ? row.previousUntil : null;
  return {
    id: row.id,
    name: row.name,
    prefix: `sk_${row.prefix}_`,
    scopes: row.scopes as ApiKeyScope[],
    ip_allowlist: row.ipAllowlist,
    expires_at: row.expiresAt?.toISOString() ?? null,
    status: statusOf(row, now),
    member_id: row.memberId,
    member_label: `${maskPhone(member.phone)}（${ROLE_LABELS[member.role as Role] ?? member.role}）`,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    last_used_ip: row.lastUsedIp,
    previous_secret_until: overlapping?.toISOString() ?? null,
  };
}

/** An address as the allow-list compares it: an IPv4-mapped IPv6 address is its IPv4 one. */
const plainAddress = (ip: string) => (ip.startsWith('::ffff:') && isIPv4(ip.slice(7)) ? ip.slice(7) : ip);

/** The ranges of an allow-list as one list to check addresses against; none for an empty list (any address). */
function rangesOf(ranges: readonly string[]): BlockList | undefined {
  if (ranges.length === 0) return undefined;
  const list = new BlockList();
  for (const range of ranges) {
    const [network = '', bits] = range.split('/');
    const type = isIPv4(network) ? 'ipv4' : 'ipv6';
    list.addSubnet(network, bits === undefined ? (type === 'ipv4' ? 32 : 128) : Number(bits), type);
  }
  return list;
}

function within(list: BlockList | undefined, ip: string) {
  if (!list) return true;
  const address = plainAddress(ip);
  const family = isIPv4(address) ? 'ipv4' : isIPv6(address) ? 'ipv6' : undefined;
  return family !== undefined && list.check(address, family);
}

/** Whether `ip` is in one of the ranges (an address alone is its /32 or /128). */
export const allowedFrom = (ranges: readonly string[], ip: string): boolean => within(rangesOf(ranges), ip);

/** A key as a call is checked against it: its row, its member's and account's columns, its allow-list made once. */
interface KeptKey {
  found: NonNullable<Awaited<ReturnType<typeof findKeyByPrefix>>>;
  allowed: BlockList | undefined;
}

/** OWNER and ADMIN manage every key of the account; another role (FINANCE) its own. */
const managesAll = (role: Role) => role === 'OWNER' || role === 'ADMIN';

/**
 * On PostgreSQL the keys looked up are kept in memory, by their lookup prefix, until anything about
 * them, their member or their account changes (decisions 0012, 0013), once `followChanges` is hearing
 * the changes; the embedded database reads the key on every call.
 */
export function createApiKeyService({ db, clock }: { db: Db; clock: Clock }) {
  const kept = new PrincipalCache<KeptKey>(() => clock.now().getTime());

  /** The key whose current or replaced secret has the prefix, from memory when kept. */
  async function keyOf(prefix: string): Promise<KeptKey | undefined> {
    const known = kept.get(prefix);
    if (known) return known;
    const ticket = kept.ticket();
    const found = await findKeyByPrefix(db, prefix);
    if (!found) return undefined;
    const key = { found, allowed: rangesOf(found.key.ipAllowlist) };
    kept.keep(ticket, prefix, found.key.accountId, key);
    return key;
  }

  async function ownKey(tx: Parameters<Parameters<Db['transaction']>[0]>[0], manager: KeyManager, id: string) {
    const row = isUuid(id) ? await lockApiKey(tx, manager.account.id, id) : undefined;
    if (!row || (!managesAll(manager.member.role) && row.memberId !== manager.member.id)) throw new AppError(ApiKeyErrorCode.KEY_NOT_FOUND);
    return row;
  }

  return {
    // the rate of a key's calls and the first answers of its writes (limits.ts)
    ...createKeyLimits({ db, clock }),

    async list(manager: KeyManager): Promise<{ items: ApiKeyItem[] }> {
      const rows = await listApiKeys(db, manager.account.id, managesAll(manager.member.role) ? undefined : manager.member.id);
      const now = clock.now();
      return { items: rows.map((row) => view(row.key, row.member, now)) };
    },

    async create(merchantId: string, manager: KeyManager, body: CreateApiKeyBody) {
      const now = clock.now();
      const scopes = [...new Set(body.scopes)] as ApiKeyScope[];
      const refused = scopes.find((scope) => !mayHoldScope(manager.member.role, scope));
      if (refused) throw new AppError(ApiKeyErrorCode.KEY_SCOPE_NOT_ALLOWED, { params: { scope: refused }, data: { scope: refused } });
      const expiresAt = body.expires_at ? new Date(body.expires_at) : null;
      if (expiresAt && expiresAt.getTime() <= now.getTime()) {
        throw new AppError(ErrorCode.VALIDATION, { message: '过期时间须晚于当前时间', data: { field: 'expires_at' } });
      }
      const made = newSecret();
      const row = await db.transaction(async (tx) => {
        // one key at a time per account past this point: the count holds
        await lockAccountRow(tx, manager.account.id);
        if ((await countLiveKeys(tx, manager.account.id, now)) >= API_KEYS_MAX) {
          throw new AppError(ApiKeyErrorCode.KEY_LIMIT, { params: { max: API_KEYS_MAX }, data: { max: API_KEYS_MAX } });
        }
        const inserted = await insertApiKey(tx, {
          merchantId,
          accountId: manager.account.id,
          memberId: manager.member.id,
          name: body.name.trim(),
          prefix: made.prefix,
          secretHash: made.hash,
          scopes,
          ipAllowlist: (body.ip_allowlist ?? []).map((range) => range.trim()),
          expiresAt,
          createdAt: now,
        });
        // the log names the key by its name, prefix and scopes: never its secret
        await traceWithin(tx, developerCalls.createApiKey, view(inserted, manager.member, now));
        return inserted;
      });
      return { ...view(row, manager.member, now), secret: made.secret };
    },

    async revoke(manager: KeyManager, id: string) {
      const now = clock.now();
      const row = await db.transaction(async (tx) => {
        const key = await ownKey(tx, manager, id);
        if (key.revokedAt) return key;
        const revoked = await updateApiKey(tx, key.id, { revokedAt: now, previousPrefix: null, previousHash: null, previousUntil: null });
        await traceWithin(tx, developerCalls.revokeApiKey, view(revoked, manager.member, now));
        return revoked;
      });
      return view(row, manager.member, now);
    },

    async rotate(manager: KeyManager, id: string) {
      const now = clock.now();
      const made = newSecret();
      const row = await db.transaction(async (tx) => {
        const key = await ownKey(tx, manager, id);
        const status = statusOf(key, now);
        if (status !== 'ACTIVE') throw new AppError(status === 'REVOKED' ? ApiKeyErrorCode.KEY_REVOKED : ApiKeyErrorCode.KEY_EXPIRED);
        const rotated = await updateApiKey(tx, key.id, {
          prefix: made.prefix,
          secretHash: made.hash,
          previousPrefix: key.prefix,
          previousHash: key.secretHash,
          previousUntil: new Date(now.getTime() + API_KEY_ROTATION_OVERLAP_HOURS * 3_600_000),
        });
        await traceWithin(tx, developerCalls.rotateApiKey, view(rotated, manager.member, now));
        return rotated;
      });
      return { ...view(row, manager.member, now), secret: made.secret };
    },

    /**
     * The caller of a key used from `ip` at this merchant, or the refusal that says why none: unknown
     * (or another merchant's, or a replaced secret past its overlap), revoked, expired, its member no
     * longer active, its account disabled, or an address outside its allow-list.
     */
    async authenticate(merchantId: string, token: string, ip: string): Promise<KeyCaller> {
      const match = API_KEY_PATTERN.exec(token);
      const prefix = match?.[1];
      if (!prefix) throw new AppError(ApiKeyErrorCode.KEY_UNKNOWN);
      const known = await keyOf(prefix);
      if (!known || known.found.key.merchantId !== merchantId) throw new AppError(ApiKeyErrorCode.KEY_UNKNOWN);
      const { key, account, member } = known.found;
      const now = clock.now();
      const current = key.prefix === prefix && sameText(key.secretHash, sha256(token));
      const previous =
        key.previousPrefix === prefix && key.previousHash !== null && key.previousUntil !== null && key.previousUntil.getTime() > now.getTime() && sameText(key.previousHash, sha256(token));
      if (!current && !previous) throw new AppError(ApiKeyErrorCode.KEY_UNKNOWN);
      if (key.revokedAt) throw new AppError(ApiKeyErrorCode.KEY_REVOKED);
      if (key.expiresAt && key.expiresAt.getTime() <= now.getTime()) throw new AppError(ApiKeyErrorCode.KEY_EXPIRED);
      if (account.status !== 'ACTIVE') throw new AppError(ErrorCode.ACCOUNT_DISABLED);
      // a suspended or removed member's keys stop with them
      if (member.status !== 'ACTIVE') throw new AppError(TeamErrorCode.MEMBER_SUSPENDED);
      if (!within(known.allowed, ip)) throw new AppError(ApiKeyErrorCode.KEY_IP_REFUSED, { data: { ip: plainAddress(ip) } });
      if (!key.lastUsedAt || now.getTime() - key.lastUsedAt.getTime() >= TOUCH_EVERY_MS) {
        const address = plainAddress(ip);
        await touchApiKey(db, key.id, now, address);
        // the kept copy (the same object, if kept) knows it was written: the next write is due from it
        key.lastUsedAt = now;
        key.lastUsedIp = address;
      }
      return { account, member: member as Authenticated['member'], key: { id: key.id, scopes: key.scopes as ApiKeyScope[] } };
    },

    /** How many keys this process keeps in memory now. */
    keptKeys: () => kept.size,

    /**
     * Keeps keys in memory while every change to them is heard (PostgreSQL); answers how to stop. The
     * embedded database reads the key on every call.
     */
    followChanges: async (database: Pick<Database, 'follow'>) => (database.follow ? database.follow(PRINCIPAL_CHANGED_CHANNEL, kept) : async () => {}),
  };
}

export type ApiKeyService = ReturnType<typeof createApiKeyService>;
