/**
 * The "Open API" section of /api/docs: every call an API key may make, grouped under one tag whose
 * description says how to authenticate, the scopes, the Idempotency-Key rule and the rate limit, and
 * on each such call an example of it with a key (the body and query of the examples pass the call's
 * own schemas: a test holds them to it).
 */
import { API_BASE, type Call, isSessionCaller } from '@portal/contract/api/call';
import { portalCalls } from '@portal/contract/api/calls';
import { IDEMPOTENCY_HEADER } from '@portal/contract/cards';
import { API_KEY_RATE_LEASE, API_KEY_RATE_PER_SECOND, API_KEY_SCOPE_LABELS, API_KEY_SCOPES } from '@portal/contract/developer';
import { ApiKeyErrorCode } from '@portal/contract/developer-errors';
import { ErrorCode } from '@portal/contract/errors';

/** The tag the calls open to keys carry besides their own: Swagger UI shows them together under it. */
export const OPEN_API_TAG = 'Open API';

/** Every call of the portal an API key may make (its `who` names a scope). */
export const keyCalls = (): Call[] =>
  Object.values(portalCalls)
    .flatMap((calls) => Object.values(calls) as Call[])
    .filter((call) => isSessionCaller(call.who) && call.who.key !== undefined);

const scopeOf = (call: Call) => (isSessionCaller(call.who) ? call.who.key : undefined);

/** A path parameter's stand-in in the examples. */
const PARAM_EXAMPLES: Record<string, string> = { id: '<卡片 id>', tag: '广告' };

/** The body of each write's example, by `METHOD path`; the query of a read's where it takes one. */
export const KEY_CALL_EXAMPLES: Record<string, { body?: unknown; query?: Record<string, string> }> = {
  'POST /card': { body: { product_id: '<GET /card/opened-available 中的产品 id>', amount: '20.00', nickname: '夜间脚本卡' } },
  'PATCH /card/:id': { body: { nickname: '广告账户 A' } },
  'PUT /card/:id/tags': { body: { tags: ['广告', '夜间'] } },
  'PUT /card/:id/status': { body: { action: 'FREEZE' } },
  'POST /card/:id/recharge': { body: { amount: '50.00' } },
  'POST /card/:id/withdraw': { body: { amount: '10.00' } },
  'PUT /card/:id/controls': {
    body: { single_limit: '200.00', daily_limit: '500.00', monthly_limit: '3000.00', blocked_categories: [], allowed_countries: ['US'] },
  },
  'PUT /card/:id/auto-recharge': { body: { enabled: true, threshold: '20.00', target: '100.00', daily_max: '300.00' } },
  'POST /batch-create-card': { body: { product_id: '<产品 id>', quantity: 10, amount: '20.00', nickname_prefix: '脚本批量' } },
  'GET /card': { query: { page: '1', page_size: '20', status: 'NORMAL' } },
  'GET /card/transactions': { query: { page: '1', page_size: '50' } },
  'GET /card/:id/transactions': { query: { page: '1', page_size: '20' } },
  'GET /card/spending-summary': { query: { group_by: 'card', currency: 'USD' } },
  'GET /balance/transactions': { query: { page: '1', page_size: '20' } },
};

export const exampleKey = (call: Pick<Call, 'method' | 'path'>) => `${call.method} ${call.path}`;

/** The call made with a key, as a curl command. */
export function keyCallExample(call: Call): string {
  const example = KEY_CALL_EXAMPLES[exampleKey(call)] ?? {};
  const filled = call.path.replace(/:([A-Za-z_]\w*)/g, (_, name: string) => PARAM_EXAMPLES[name] ?? `<${name}>`);
  const query = example.query ? `?${new URLSearchParams(example.query).toString()}` : '';
  const lines = [`curl -X ${call.method} 'https://<门户域名>${API_BASE}${filled}${query}'`, `  -H 'Authorization: Bearer sk_…'`];
  if (call.method !== 'GET') lines.push(`  -H '${IDEMPOTENCY_HEADER}: <每个请求唯一，例如 UUID>'`);
  if (example.body !== undefined) lines.push(`  -H 'content-type: application/json'`, `  -d '${JSON.stringify(example.body)}'`);
  return [`**API 密钥**：需要权限范围 \`${scopeOf(call)}\`。示例：`, '', '```sh', lines.join(' \\\n'), '```'].join('\n');
}

/** The tag's description: what a developer reads before their first call. */
export function openApiDescription(calls: Call[] = keyCalls()): string {
  const rows = calls.map((call) => `| \`${call.method} ${API_BASE}${call.path.replace(/:([A-Za-z_]\w*)/g, '{$1}')}\` | \`${scopeOf(call)}\` | ${call.summary.split(' (')[0]} |`);
  return [
    '供脚本与系统集成调用的接口（设置 → 开发者 创建 API 密钥）。A key acts as the member who made it, within its scopes and that member’s role.',
    '',
    '**认证 Authentication**：每个请求携带 `Authorization: Bearer sk_…`（密钥只在创建或轮换时显示一次）。密钥可限制来源 IP（白名单）、设置过期时间，可随时撤销；轮换后旧密钥仍可使用 24 小时。',
    '',
    '**权限范围 Scopes**：',
    '',
    '| 范围 | 允许 |',
    '| --- | --- |',
    ...API_KEY_SCOPES.map((scope) => `| \`${scope}\` | ${API_KEY_SCOPE_LABELS[scope]} |`),
    '',
    `**Idempotency-Key**：使用密钥的每个写操作（非 GET）都必须带 \`Idempotency-Key\` 请求头（8–128 个可见 ASCII 字符，每个请求唯一），否则拒绝（${ApiKeyErrorCode.KEY_IDEMPOTENCY_REQUIRED}）。同一个键、同样的请求再次发送，返回第一次的应答（响应头 \`idempotent-replayed: true\`），不会重复执行；同一个键用于不同的请求返回 ${ErrorCode.IDEMPOTENCY_CONFLICT}；第一次请求仍在处理时返回 ${ApiKeyErrorCode.KEY_REQUEST_IN_PROGRESS}（稍后重试）。被拒绝的请求不占用该键。`,
    '',
    `**频率限制 Rate limit**：每个密钥每秒最多 ${API_KEY_RATE_PER_SECOND} 次请求（所有服务器进程合计，绝不超过此数；各服务器进程每次领取 ${API_KEY_RATE_LEASE} 次额度，请求在进程间分布不均时，未用完的额度可能使同一秒内更早被限制，例如两个进程时最少 ${API_KEY_RATE_PER_SECOND - (API_KEY_RATE_LEASE - 1)} 次）。超出时返回 HTTP 429、\`Retry-After\` 响应头（秒）与 ${ApiKeyErrorCode.KEY_RATE_LIMITED}（data.retry_after）；每个应答带 \`x-ratelimit-limit\`、\`x-ratelimit-remaining\`、\`x-ratelimit-reset\`。登录会话的请求不受此限制。`,
    '',
    '**应答 Answers**：`{code, message, data}`，code 0 为成功；错误码与中文说明见各接口的错误应答。TypeScript 客户端见仓库的 packages/sdk。',
    '',
    '| 接口 | 权限范围 | 说明 |',
    '| --- | --- | --- |',
    ...rows,
  ].join('\n');
}
