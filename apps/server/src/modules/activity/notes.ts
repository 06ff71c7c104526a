import { exportsSensitive } from '@portal/contract/card-batches';
import { cardBatchCalls } from '@portal/contract/api/card-batches';
import { cardBulkCalls } from '@portal/contract/api/card-bulk';
import { BULK_ACTION_LABELS, type BulkAction, bulkMovesMoney } from '@portal/contract/card-bulk';
import { cardCalls } from '@portal/contract/api/cards';
import type { Call } from '@portal/contract/api/call';
import { securityCalls } from '@portal/contract/api/security';
import { spendingCalls } from '@portal/contract/api/spending';
import { balanceRuleCalls } from '@portal/contract/api/balance-rules';
import { teamCalls } from '@portal/contract/api/team';
import { developerCalls } from '@portal/contract/api/developer';
import type { ApiKeyItem } from '@portal/contract/developer';
import { webhookCalls } from '@portal/contract/api/webhooks';
import type { WebhookItem } from '@portal/contract/webhooks';
import type { CardItem } from '@portal/contract/cards';
import { toMinorUnits } from '@portal/contract/money';
import { ROLE_LABELS, type Role } from '@portal/contract/team';
import type { ActivityNote } from './service.ts';

/** What the call was asked and what it answered (the `data` of its envelope). */
interface Answered {
  params: Record<string, string>;
  body: Record<string, unknown>;
  data: unknown;
}

type Describe = (call: Answered) => ActivityNote | null;

/**
 * How a traced call is told, and where its entry is written: `within` the change's own transaction
 * (the module calls `traceWithin`, http/call-trace.ts, and the entry commits or rolls back with the
 * change; a replay under the same Idempotency-Key, which changes nothing, writes none), or `after` the
 * call has answered (a change that is not one transaction of the portal's database).
 */
export interface ActivityRule {
  describe: Describe;
  within: boolean;
}

export const within = (describe: Describe): ActivityRule => ({ describe, within: true });
export const after = (describe: Describe): ActivityRule => ({ describe, within: false });

/** A card as the log names it: 旅行卡（****4242）. */
const cardName = (card: Pick<CardItem, 'nickname' | 'last4'>) => (card.last4 ? `${card.nickname}（****${card.last4}）` : card.nickname);

const card = (action: string, verb: string): Describe => ({ data, params }) => {
  const item = data as CardItem;
  return { kind: 'CARD', action, summary: `${verb} ${cardName(item)}`, cardId: item.id ?? params.id ?? null };
};

/** A money movement of a card: the amount it was asked for, in the card's currency. */
const cardMoney = (action: string, verb: string): Describe => ({ data, body, params }) => {
  const item = (data as { card: CardItem }).card;
  const amount = String(body.amount ?? '0');
  return {
    kind: 'MONEY',
    action,
    summary: `${verb} ${cardName(item)} ${amount} ${item.currency}`,
    cardId: item.id ?? params.id ?? null,
    amount: toMinorUnits(amount),
    currency: item.currency,
  };
};

const security = (action: string, summary: string): Describe => () => ({ kind: 'SECURITY', action, summary });

/** An API key as the log names it: its name and prefix (never its secret). */
const keyName = (key: ApiKeyItem) => `「${key.name}」（${key.prefix}…）`;

/** A webhook endpoint as the log names it: its address and, if it has one, its description (never its secret). */
const endpointName = (endpoint: WebhookItem) => `「${endpoint.url}」${endpoint.description ? `（${endpoint.description}）` : ''}`;

/** What a change of an endpoint did: disabled, enabled again, or its address, events or description changed. */
const endpointChange = (body: Record<string, unknown>, endpoint: WebhookItem) => {
  if (body.enabled === false) return { action: 'WEBHOOK_DISABLE', summary: `停用 Webhook 端点${endpointName(endpoint)}` };
  if (body.enabled === true) return { action: 'WEBHOOK_ENABLE', summary: `启用 Webhook 端点${endpointName(endpoint)}` };
  return { action: 'WEBHOOK_UPDATE', summary: `修改 Webhook 端点${endpointName(endpoint)}，事件：${endpoint.events.join('、')}` };
};

const roleLabel = (role: unknown) => ROLE_LABELS[role as Role] ?? String(role ?? '');

/**
 * The calls whose success the activity log records, each with how it is told. A call missing here
 * changes nothing a team needs to trace (reads, codes, the member's sign-in itself).
 */
export const activityNotes = new Map<Call, ActivityRule>([
  [
    cardCalls.open,
    within(({ data, body }) => {
      const item = data as CardItem;
      const amount = String(body.amount ?? '0');
      return { kind: 'CARD', action: 'CARD_OPEN', summary: `开卡 ${cardName(item)}，首充 ${amount} ${item.currency}`, cardId: item.id, amount: toMinorUnits(amount), currency: item.currency };
    }),
  ],
  [cardCalls.rename, within(card('CARD_RENAME', '修改卡片昵称'))],
  [
    developerCalls.createApiKey,
    within(({ data }) => {
      const key = data as ApiKeyItem;
      return { kind: 'KEY', action: 'API_KEY_CREATE', summary: `创建 API 密钥${keyName(key)}，权限范围：${key.scopes.join('、')}` };
    }),
  ],
  [developerCalls.revokeApiKey, within(({ data }) => ({ kind: 'KEY', action: 'API_KEY_REVOKE', summary: `撤销 API 密钥${keyName(data as ApiKeyItem)}` }))],
  [developerCalls.rotateApiKey, within(({ data }) => ({ kind: 'KEY', action: 'API_KEY_ROTATE', summary: `轮换 API 密钥${keyName(data as ApiKeyItem)}，旧密钥 24 小时内有效` }))],
  [
    webhookCalls.create,
    within(({ data }) => {
      const endpoint = data as WebhookItem;
      return { kind: 'KEY', action: 'WEBHOOK_CREATE', summary: `添加 Webhook 端点${endpointName(endpoint)}，事件：${endpoint.events.join('、')}` };
    }),
  ],
  [webhookCalls.update, within(({ data, body }) => ({ kind: 'KEY', ...endpointChange(body, data as WebhookItem) }))],
  [webhookCalls.rotateSecret, within(({ data }) => ({ kind: 'KEY', action: 'WEBHOOK_ROTATE', summary: `轮换 Webhook 端点${endpointName(data as WebhookItem)}的签名密钥` }))],
  [webhookCalls.remove, within(({ data }) => ({ kind: 'KEY', action: 'WEBHOOK_DELETE', summary: `删除 Webhook 端点${endpointName(data as WebhookItem)}` }))],
  [
    cardCalls.setTags,
    within(({ data, params }) => {
      const item = data as CardItem;
      const tags = item.tags.length > 0 ? item.tags.join('、') : '无';
      return { kind: 'CARD', action: 'CARD_TAGS', summary: `修改卡片标签 ${cardName(item)}：${tags}`, cardId: item.id ?? params.id ?? null };
    }),
  ],
  [
    cardCalls.changeStatus,
    within((answered) => (answered.body.action === 'FREEZE' ? card('CARD_FREEZE', '冻结卡片') : card('CARD_UNFREEZE', '解冻卡片'))(answered)),
  ],
  [cardCalls.remove, within(({ params }) => ({ kind: 'CARD', action: 'CARD_CANCEL', summary: '注销卡片', cardId: params.id ?? null }))],
  [cardCalls.recharge, within(cardMoney('CARD_RECHARGE', '卡片充值'))],
  [cardCalls.withdraw, within(cardMoney('CARD_WITHDRAW', '卡片提现'))],
  [cardCalls.reveal, within(({ params }) => ({ kind: 'CARD', action: 'CARD_REVEAL', summary: '查看完整卡号', cardId: params.id ?? null }))],
  [cardCalls.saveVerification, within(() => ({ kind: 'CARD', action: 'VERIFICATION_SAVE', summary: '提交开卡资料' }))],
  [
    balanceRuleCalls.setAutoRecharge,
    within(({ body, params }) => ({
      kind: 'CARD',
      action: 'CARD_AUTO_RECHARGE',
      summary: body.enabled ? `设置自动充值：低于 ${String(body.threshold)} 时充至 ${String(body.target)}，每日上限 ${String(body.daily_max)}` : '关闭自动充值',
      cardId: params.id ?? null,
    })),
  ],
  [balanceRuleCalls.removeAutoRecharge, within(({ params }) => ({ kind: 'CARD', action: 'CARD_AUTO_RECHARGE', summary: '移除卡片自己的自动充值规则（改用标签规则）', cardId: params.id ?? null }))],
  [
    balanceRuleCalls.setTagAutoRecharge,
    within(({ body, params }) => ({
      kind: 'CARD',
      action: 'TAG_AUTO_RECHARGE',
      summary: body.enabled
        ? `设置标签「${String(params.tag)}」的自动充值：低于 ${String(body.threshold)} 时充至 ${String(body.target)}，每日上限 ${String(body.daily_max)}`
        : `关闭标签「${String(params.tag)}」的自动充值`,
    })),
  ],
  [balanceRuleCalls.removeTagAutoRecharge, within(({ params }) => ({ kind: 'CARD', action: 'TAG_AUTO_RECHARGE', summary: `删除标签「${String(params.tag)}」的自动充值规则` }))],
  [spendingCalls.saveControls, within(({ params }) => ({ kind: 'CARD', action: 'CARD_CONTROLS', summary: '修改卡片限额与管控', cardId: params.id ?? null }))],
  [
    cardBulkCalls.create,
    within(({ data }) => {
      const { action, total } = data as { action: BulkAction; total: number };
      return { kind: bulkMovesMoney(action) ? 'MONEY' : 'CARD', action: `CARD_BULK_${action}`, summary: `批量${BULK_ACTION_LABELS[action]} ${total} 张卡片` };
    }),
  ],
  [
    cardBatchCalls.create,
    within(({ body }) => ({
      kind: 'CARD',
      action: 'CARD_BATCH_OPEN',
      summary: `批量开卡 ${String(body.quantity)} 张，每张首充 ${String(body.amount)}`,
    })),
  ],
  [
    cardBatchCalls.createExport,
    within(({ body }) => ({
      kind: 'CARD',
      action: 'CARD_EXPORT',
      summary: exportsSensitive(body as Parameters<typeof exportsSensitive>[0]) ? '导出卡片（含完整卡号）' : '导出卡片',
    })),
  ],
  [securityCalls.changePassword, within(security('PASSWORD_CHANGE', '修改登录密码'))],
  [securityCalls.setTradePassword, within(security('TRX_PASSWORD_SET', '设置或修改交易密码'))],
  [securityCalls.changeEmail, within(security('EMAIL_CHANGE', '更换邮箱'))],
  [securityCalls.changePhone, within(security('PHONE_CHANGE', '更换手机号'))],
  [securityCalls.revokeDevice, within(security('DEVICE_REVOKE', '移除信任设备'))],
  [securityCalls.endSession, within(security('SESSION_END', '结束一个登录会话'))],
  [securityCalls.endOtherSessions, within(security('SESSIONS_END', '结束其他全部登录会话'))],
  [
    teamCalls.invite,
    within(({ body }) => ({
      kind: 'MEMBER',
      action: 'MEMBER_INVITE',
      summary: `邀请 ${String(body.email ?? (body.phone_info as { phone?: string } | undefined)?.phone ?? '')} 加入团队，角色：${roleLabel(body.role)}`,
    })),
  ],
  [teamCalls.revokeInvitation, within(() => ({ kind: 'MEMBER', action: 'INVITATION_REVOKE', summary: '撤销邀请' }))],
  [
    teamCalls.updateMember,
    within(({ body, data }) => {
      const member = data as { phone_masked?: string };
      const changes = [
        body.role ? `角色改为${roleLabel(body.role)}` : null,
        body.monthly_budget !== undefined ? `月度预算改为${body.monthly_budget === null ? '不限' : `${String(body.monthly_budget)} USD`}` : null,
        body.status === 'SUSPENDED' ? '停用' : body.status === 'ACTIVE' ? '启用' : null,
      ].filter(Boolean);
      return { kind: 'MEMBER', action: 'MEMBER_UPDATE', summary: `成员 ${member.phone_masked ?? ''}：${changes.join('，')}` };
    }),
  ],
  [teamCalls.removeMember, within(({ body }) => ({ kind: 'MEMBER', action: 'MEMBER_REMOVE', summary: body.freeze_cards ? '移除成员并冻结其卡片' : '移除成员' }))],
  [teamCalls.transferOwnership, within(() => ({ kind: 'MEMBER', action: 'OWNERSHIP_TRANSFER', summary: '转让团队所有权' }))],
  [teamCalls.rename, within(({ body }) => ({ kind: 'MEMBER', action: 'TEAM_RENAME', summary: `团队名称改为 ${String(body.name ?? '')}` }))],
  [
    teamCalls.setCardHolder,
    within(({ data }) => {
      const item = data as CardItem & { holder_label?: string };
      return { kind: 'CARD', action: 'CARD_HOLDER', summary: `更换持卡成员 ${cardName(item)}${item.holder_label ? ` → ${item.holder_label}` : ''}`, cardId: item.id };
    }),
  ],
]);
