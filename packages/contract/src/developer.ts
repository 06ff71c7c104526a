/**
 * The open API (shared/design/growing-customers.md §4): keys a team makes for its scripts. A key acts
 * as the member who made it, with its scopes' part of that member's role: a call is open to a key when
 * the route table names the scope it needs (`who.key`), the key carries that scope and the member's
 * role may take the call's action. Sign-in, the security centre, members, keys and webhooks are never
 * open to keys.
 */
import { z } from 'zod';
import { type Action, can, type Role } from './team.ts';
import { trxPasswordField } from './validation.ts';

export const API_KEY_SCOPES = ['cards:read', 'cards:write', 'funds:write', 'transactions:read', 'wallet:read'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** What each scope lets a key do, as the keys screen says it. */
export const API_KEY_SCOPE_LABELS: Record<ApiKeyScope, string> = {
  'cards:read': '查看卡片',
  'cards:write': '开卡与管理卡片（冻结、解冻、改名、限额、注销）',
  'funds:write': '卡片充值与提现',
  'transactions:read': '查看交易与钱包流水',
  'wallet:read': '查看钱包余额',
};

/** The role actions a scope stands for: a member may put a scope on a key only when their role may take each of them. */
export const API_KEY_SCOPE_ACTIONS: Record<ApiKeyScope, readonly Action[]> = {
  'cards:read': ['cards.read'],
  'cards:write': ['cards.open', 'cards.manage'],
  'funds:write': ['cards.fund'],
  'transactions:read': ['wallet.history'],
  'wallet:read': ['wallet.read'],
};

/** The scopes that only read. */
export const READ_SCOPES: readonly ApiKeyScope[] = ['cards:read', 'transactions:read', 'wallet:read'];

/**
 * Whether a member of `role` may put `scope` on a key: their role takes every action of the scope, and
 * FINANCE holds read keys only.
 */
export function mayHoldScope(role: Role, scope: ApiKeyScope): boolean {
  if (role === 'FINANCE' && !READ_SCOPES.includes(scope)) return false;
  return API_KEY_SCOPE_ACTIONS[scope].every((action) => can(role, action));
}

/** The secret's form: `sk_`, the lookup prefix (12 characters), `_`, the secret part (40 characters). */
export const API_KEY_PATTERN = /^sk_([A-Za-z0-9]{12})_([A-Za-z0-9]{40})$/;
export const isApiKeyToken = (token: string) => token.startsWith('sk_');

/** Keys an account may hold that are neither revoked nor expired. */
export const API_KEYS_MAX = 20;
/** How long the secret a rotation replaced still works. */
export const API_KEY_ROTATION_OVERLAP_HOURS = 24;
/** Calls a key may make in one second, counted across every server process (more are refused with 1211). */
export const API_KEY_RATE_PER_SECOND = 20;
/**
 * Calls of a key's second a server process leases from the shared count at a time: never more than the
 * rate in all, but a process that stops getting the key's calls may hold up to this less one unused.
 */
export const API_KEY_RATE_LEASE = 5;
/** Ranges an allow-list may hold. */
export const API_KEY_ALLOWLIST_MAX = 20;

export const developerMessages = {
  name: '请输入密钥名称（1–40 个字符）',
  scopes: '请至少选择一个权限范围',
  scopeUnknown: '未知的权限范围',
  cidr: '请输入正确的 IP 或网段，例如 203.0.113.7 或 203.0.113.0/24',
  allowlistMax: `白名单最多 ${API_KEY_ALLOWLIST_MAX} 条`,
  expiresAt: '过期时间须晚于当前时间',
} as const;

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** An IPv4 or IPv6 address, optionally with a prefix length (/0–32, /0–128). */
export function isCidr(text: string): boolean {
  const [address, bits, extra] = text.split('/');
  if (extra !== undefined || !address) return false;
  const v4 = IPV4.test(address);
  const v6 = !v4 && isIpv6(address);
  if (!v4 && !v6) return false;
  if (bits === undefined) return true;
  if (!/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (v4 ? 32 : 128);
}

function isIpv6(address: string): boolean {
  if (!/^[0-9A-Fa-f:.]+$/.test(address) || address.split('::').length > 2) return false;
  const [head = '', tail] = address.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const all = [...groups(head), ...(tail === undefined ? [] : groups(tail))];
  const last = all.at(-1) ?? '';
  const v4Tail = IPV4.test(last);
  const hex = v4Tail ? all.slice(0, -1) : all;
  if (!hex.every((group) => /^[0-9A-Fa-f]{1,4}$/.test(group))) return false;
  const width = hex.length + (v4Tail ? 2 : 0);
  return tail === undefined ? width === 8 : width < 8;
}

export const createApiKeyBody = z.object({
  name: z.string().trim().min(1, developerMessages.name).max(40, developerMessages.name),
  scopes: z
    .array(z.enum(API_KEY_SCOPES, { error: developerMessages.scopeUnknown }))
    .min(1, developerMessages.scopes)
    .transform((scopes) => [...new Set(scopes)]),
  ip_allowlist: z
    .array(z.string().trim().refine(isCidr, { message: developerMessages.cidr }))
    .max(API_KEY_ALLOWLIST_MAX, developerMessages.allowlistMax)
    .optional(),
  expires_at: z.iso.datetime({ offset: true, error: developerMessages.expiresAt }).optional(),
  trx_password: trxPasswordField,
});
export type CreateApiKeyBody = z.input<typeof createApiKeyBody>;

export const API_KEY_STATUSES = ['ACTIVE', 'REVOKED', 'EXPIRED'] as const;
export type ApiKeyStatus = (typeof API_KEY_STATUSES)[number];
export const API_KEY_STATUS_LABELS: Record<ApiKeyStatus, string> = { ACTIVE: '有效', REVOKED: '已撤销', EXPIRED: '已过期' };

/** A key as listed: never its secret. */
export const apiKeyItem = z.object({
  id: z.string(),
  name: z.string(),
  /** `sk_<prefix>_…`: enough to tell keys apart */
  prefix: z.string(),
  scopes: z.array(z.enum(API_KEY_SCOPES)),
  ip_allowlist: z.array(z.string()),
  expires_at: z.string().nullable(),
  status: z.enum(API_KEY_STATUSES),
  member_id: z.string(),
  member_label: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  last_used_ip: z.string().nullable(),
  /** after a rotation: until when the replaced secret still works */
  previous_secret_until: z.string().nullable(),
});
export type ApiKeyItem = z.infer<typeof apiKeyItem>;

export const apiKeyList = z.object({ items: z.array(apiKeyItem) });
/** A created or rotated key: its secret, shown this once. */
export const apiKeySecret = apiKeyItem.extend({ secret: z.string() });
export type ApiKeySecret = z.infer<typeof apiKeySecret>;
export const apiKeyIdParams = z.object({ id: z.string() });
