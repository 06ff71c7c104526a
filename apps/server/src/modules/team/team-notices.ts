import { escapeHtml } from '../../lib/html.ts';

/** The station messages of the team's own changes, title and content (HTML, every value escaped). */
export const teamNotices = {
  /** To who removed a member with their cards to be frozen: the cards the issuer did not freeze. */
  freezeFailed: (v: { member: string; cards: string[] }) => ({
    title: '移除成员时部分卡片未能冻结',
    content:
      `<p>成员 ${escapeHtml(v.member)} 已移除，其持有的卡片已转交所有者。以下卡片未能冻结，目前仍可使用：</p>` +
      `<p>${v.cards.map((card) => `「${escapeHtml(card)}」`).join('、')}</p>` +
      '<p>请在卡片列表中再次冻结这些卡片。</p>',
  }),
};
