import { ALERT_TITLES } from '@portal/contract/balance-rules';
import { escapeHtml } from '../../lib/html.ts';

/** The words of the balance-rules module's station messages and e-mails. */

const paragraph = (text: string) => `<p>${escapeHtml(text)}</p>`;

export const balanceRuleNotices = {
  paused: (words: { card: string; reason: string }) => {
    const lines = [
      `卡片「${words.card}」的自动充值未能完成：${words.reason}`,
      '自动充值已暂停。钱包充值到账后将自动恢复并补充该卡余额，也可以在卡片详情中重新开启。',
    ];
    return { title: '自动充值已暂停', content: lines.map(paragraph).join(''), text: lines.join('\n') };
  },
  walletLow: (words: { currency: string; balance: string; threshold: string }) => {
    const lines = [`您的钱包 ${words.currency} 可用余额为 ${words.balance}，已低于您设置的提醒余额 ${words.threshold} ${words.currency}。`, '请及时充值，以免影响开卡、卡片充值和自动充值。'];
    return { title: ALERT_TITLES.wallet, content: lines.map(paragraph).join(''), text: lines.join('\n') };
  },
  cardLow: (words: { card: string; currency: string; balance: string; threshold: string }) => {
    const lines = [`卡片「${words.card}」的可用余额为 ${words.balance} ${words.currency}，已低于您设置的提醒余额 ${words.threshold} ${words.currency}。`, '请及时为卡片充值，以免交易被拒。'];
    return { title: ALERT_TITLES.card, content: lines.map(paragraph).join(''), text: lines.join('\n') };
  },
};
