import { alertsAnswer, alertsBody, autoRechargeBody, autoRechargeRule, tagAutoRechargeList, tagAutoRechargeRule, tagRuleRemoved } from '../balance-rules.ts';
import { cardTagText } from '../card-list.ts';
import { z } from 'zod';
import { cardIdParams } from './cards.ts';
import { defineCalls, member } from './call.ts';

/** The tag of /card/tag-auto-recharge/{tag} (as the card list's tags are written). */
const tagRuleParams = z.object({ tag: cardTagText });

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
  removeAutoRecharge: {
    method: 'DELETE',
    path: '/card/:id/auto-recharge',
    params: cardIdParams,
    answer: autoRechargeRule,
    summary: "Remove the card's own auto top-up rule: the rule of its tags (if any) is in force again",
    tags: ['cards'],
    who: member('cards.fund'),
  },
  tagAutoRecharge: {
    method: 'GET',
    path: '/card/tag-auto-recharge',
    answer: tagAutoRechargeList,
    summary: "The account's auto top-up rules per tag, with how many cards carry each tag and how many have it in force",
    tags: ['cards'],
    who: member('cards.read'),
  },
  setTagAutoRecharge: {
    method: 'PUT',
    path: '/card/tag-auto-recharge/:tag',
    params: tagRuleParams,
    body: autoRechargeBody,
    answer: tagAutoRechargeRule,
    summary:
      "Set a tag's auto top-up rule: in force at once on every card carrying the tag that has no rule of its own (of several tags' rules the highest target wins, then the higher threshold, then the tag's name); cards that gain or lose the tag gain or lose it at once. Not for a member who holds cards only (3203)",
    tags: ['cards'],
    who: member('cards.fund'),
  },
  removeTagAutoRecharge: {
    method: 'DELETE',
    path: '/card/tag-auto-recharge/:tag',
    params: tagRuleParams,
    answer: tagRuleRemoved,
    summary: "Remove a tag's auto top-up rule: its cards fall back to their other tags' rules, or none (3204 when the tag has none)",
    tags: ['cards'],
    who: member('cards.fund'),
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
