import { chinaDateTime } from '@portal/contract/date-time';
import { escapeHtml } from '../../lib/html.ts';

/**
 * The station messages a card's holder gets, title and content (HTML, every value escaped), from plain
 * values: a card as cardName writes it, amounts as text. Times are China time, as everywhere a
 * customer reads one.
 */
export const cardNotices = {
  declined: (v: { card: string; merchant: string; amount: string; currency: string; reason: string; fix: string; fee: string | null; owed: string | null; feeCurrency: string }) => ({
    title: `交易被拒：${v.reason}`,
    content:
      `<p>您的卡片「${escapeHtml(v.card)}」在「${escapeHtml(v.merchant)}」的 ${v.amount} ${escapeHtml(v.currency)} 交易被拒绝。</p>` +
      `<p>原因：${escapeHtml(v.reason)}</p><p>建议：${escapeHtml(v.fix)}</p>` +
      (v.fee
        ? `<p>按商户规则收取交易被拒手续费 ${v.fee} ${v.feeCurrency}${v.owed ? `，钱包余额不足，其中 ${v.owed} ${v.feeCurrency} 记为待付` : ''}。</p>`
        : ''),
  }),

  holdExpired: (v: { card: string; merchant: string; amount: string; currency: string; days: number }) => ({
    title: '预授权已过期释放',
    content:
      `<p>您的卡片「${escapeHtml(v.card)}」在「${escapeHtml(v.merchant)}」的 ${v.amount} ${escapeHtml(v.currency)} 预授权` +
      `超过 ${v.days} 天未结算，预留金额已退回卡片可用余额。</p>`,
  }),

  /** `code` as the holder may see it: the code while it is valid, its mask once expired. */
  threeDs: (v: { card: string; merchant: string; amount: string; currency: string; code: string; expiresAt: Date }) => ({
    title: '3-D Secure 验证码',
    content:
      `<p>您的卡片「${escapeHtml(v.card)}」正在「${escapeHtml(v.merchant)}」支付 ${v.amount} ${escapeHtml(v.currency)}。</p>` +
      `<p>3-D Secure 验证码：<strong>${escapeHtml(v.code)}</strong></p>` +
      `<p>有效期至 ${chinaDateTime(v.expiresAt, { seconds: true })}（北京时间）。如非本人操作，请勿告知他人并立即冻结卡片。</p>`,
  }),

  fundsReturned: (v: { card: string; what: string; amount: string; currency: string }) => ({
    title: '已注销卡片的资金已退回钱包',
    content: `<p>您已注销的卡片「${escapeHtml(v.card)}」收到${escapeHtml(v.what)} ${v.amount} ${escapeHtml(v.currency)}，已自动退回您的钱包。</p>`,
  }),

  openFailed: (v: { nickname: string; reason: string; total: string; currency: string }) => ({
    title: '开卡失败',
    content: `<p>您申请的卡片「${escapeHtml(v.nickname)}」未能开通。</p><p>原因：${escapeHtml(v.reason)}</p><p>预留的 ${v.total} ${escapeHtml(v.currency)} 已全部退回钱包。</p>`,
  }),

  frozenByPlatform: (v: { card: string; reason: string }) => ({
    title: '卡片已被冻结',
    content: `<p>您的卡片 ${escapeHtml(v.card)} 已被平台冻结。</p><p>原因：${escapeHtml(v.reason)}</p><p>如需解冻，请联系客服。</p>`,
  }),

  unfrozenByPlatform: (v: { card: string }) => ({
    title: '卡片已解冻',
    content: `<p>您的卡片 ${escapeHtml(v.card)} 已由平台解冻，可正常使用。</p>`,
  }),

  batchResult: (v: { quantity: number; prefix: string; success: number; fail: number; failed: Array<{ nickname: string; reason: string }>; currency: string }) => ({
    title: `批量开卡完成：成功 ${v.success} 张，失败 ${v.fail} 张`,
    content:
      `<p>您提交的批量开卡（共 ${v.quantity} 张，卡片昵称前缀「${escapeHtml(v.prefix)}」）已处理完毕：成功 ${v.success} 张，失败 ${v.fail} 张。</p>` +
      `<p>失败的卡片及原因：</p><ul>${v.failed.map((card) => `<li>${escapeHtml(card.nickname)}：${escapeHtml(card.reason)}</li>`).join('')}</ul>` +
      `<p>失败卡片预留的资金已全部退回钱包（${escapeHtml(v.currency)}）。</p>`,
  }),
};
