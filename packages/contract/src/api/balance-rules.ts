import { alertsAnswer, alertsBody, autoRechargeBody, autoRechargeRule } from '../balance-rules.ts';
import { cardIdParams } from './cards.ts';
import { defineCalls, member } from './call.ts';

/**
 * Money that moves by itself: a card's auto top-up rule (set by whoever may top the card up) and the
 * account's low-balance alerts (read by every role, set by the owner, admins and finance).
 */
export const balanceRuleCalls = defineCalls({
  autoRecharge: {
    method: 'GET',
    path: '/card/:id/auto-recharge',
    params: cardIdParams,
    answer: autoRechargeRule,
    summary: "The card's auto top-up rule, what it put on the card today and its latest run",
    tags: ['cards'],
    who: member('cards.read', 'cards:read'),
  },
  setAutoRecharge: {
    method: 'PUT',
    path: '/card/:id/auto-recharge',
    params: cardIdParams,
    body: autoRechargeBody,
    answer: autoRechargeRule,
    summary:
      "Set the card's auto top-up rule: when its available falls below `threshold`, a job tops it up to `target` from the wallet (with the top-up fee), at most `daily_max` a China-time day, once per crossing; a wallet that cannot pay pauses the rule until it is funded",
    tags: ['cards'],
    who: member('cards.fund', 'funds:write'),
  },
  alerts: {
    method: 'GET',
    path: '/account/alerts',
    answer: alertsAnswer,
    summary: "The account's low-balance alerts: a threshold per wallet currency and one for every card",
    tags: ['account'],
    who: member('wallet.read'),
  },
  setAlerts: {
    method: 'PUT',
    path: '/account/alerts',
    body: alertsBody,
    answer: alertsAnswer,
    summary:
      'Set the low-balance alerts: a station message and an e-mail once per crossing below a threshold, again only after the balance went back above; a threshold above the current balance alerts at the next movement',
    tags: ['account'],
    who: member('alerts.manage'),
  },
});
