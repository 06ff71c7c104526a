import { type DeclineCode, declineReasons } from '@portal/contract/card-spending';
import { toMinorUnits } from '@portal/contract/money';
import type { FollowUp, PurchaseAnswer, SentEvent } from '../../providers/issuer/protocol.ts';
import { defineCommand, OpsError } from '../command.ts';
import * as input from '../input.ts';
import { cardToSpend } from '../lookup.ts';
import * as spend from '../simulated-issuer.ts';

const DELIVERY_LABEL: Record<SentEvent['delivery'], string> = { delivered: '已送达', retrying: '送达中（失败会重试）', given_up: '未能送达，已放弃' };

export const cardSimulateTransaction = defineCommand({
  name: 'card:simulate-transaction',
  summary: 'Make a purchase on a card through the simulated issuer (authorisation, then settle, reverse or refund), or act on an earlier one',
  usage: [
    'card:simulate-transaction --card ID|LAST4 --amount AMOUNT --merchant NAME [--mcc MCC] [--country CC] [--currency CUR] [--settle AMOUNT|full | --reverse | --refund AMOUNT] [--3ds] [--host HOST] [--json]',
    'card:simulate-transaction --auth ID (--settle AMOUNT|full | --reverse | --refund AMOUNT) [--json]',
  ],
  description: [
    "The simulated issuer sends the portal's webhook a signed authorization.request, as a card network would, and reads the decision from the webhook's answer; it counts as declined by the issuer (ISSUER_DECLINED) when the portal does not decide within 2 s. When approved it then sends, as asked, transaction.settled (for AMOUNT, or `full`: the authorised amount), authorization.reversed, or transaction.settled in full followed by transaction.refund. --3ds first sends a 3ds.otp with a random six-digit code valid for five minutes. Prints the authorisation id and the decision; --auth ID acts on that authorisation later.",
    '',
    'The card is taken by its id or its last four digits (at the merchant of --host, or at any merchant); four digits several cards end in are refused with the cards listed. A card the issuer has not issued (申请中, 开卡失败) is refused; a frozen or closed one is sent, to see its decline. The currency is the card\'s unless --currency says otherwise.',
    '',
    'The issuer asked is ISSUER_URL, or else the built-in simulator of a server started without it, on http://127.0.0.1:ISSUER_SIM_PORT (4100); requests are signed with ISSUER_WEBHOOK_SECRET or the development secret in DATA_DIR.',
  ].join('\n'),
  flags: {
    card: { type: 'string', value: 'ID|LAST4', description: 'the card, by its id or its last four digits' },
    host: { type: 'string', value: 'HOST', description: 'look the card up at this merchant only' },
    amount: { type: 'string', value: 'AMOUNT', description: 'the purchase, e.g. 12.34' },
    merchant: { type: 'string', value: 'NAME', description: 'where it is spent, e.g. "Meta Ads"' },
    mcc: { type: 'string', value: 'MCC', description: 'merchant category code, four digits (5999)' },
    country: { type: 'string', value: 'CC', description: 'country of the merchant, ISO 3166 alpha-2 (US)' },
    currency: { type: 'string', value: 'CUR', description: "the purchase's currency (the card's)" },
    settle: { type: 'string', value: 'AMOUNT|full', description: 'once approved, settle for this amount (full: the authorised one)' },
    reverse: { type: 'boolean', description: 'once approved, reverse it (the hold is released)' },
    refund: { type: 'string', value: 'AMOUNT', description: 'once approved, settle in full and refund this much' },
    '3ds': { type: 'boolean', description: 'send a 3-D Secure code first' },
    auth: { type: 'string', value: 'ID', description: 'act on this earlier authorisation instead of a new purchase' },
    json: { type: 'boolean', description: "print the simulator's answer as JSON, for scripts" },
  },
  examples: [
    'card:simulate-transaction --card 4242 --amount 12.34 --merchant "Meta Ads" --mcc 7311 --country US --settle 12.50',
    'card:simulate-transaction --card 4242 --amount 99.00 --merchant Shopify --3ds',
    'card:simulate-transaction --auth 0b6c…-… --settle full',
  ],
  async run(flags, { config, services }) {
    const then = followUpOf(flags);
    const { url, issuer } = spend.simulatedIssuer(config);

    if (flags.auth !== undefined) {
      const authorizationId = input.text(flags.auth, 'auth', { max: 100 });
      const purchaseOnly = (['card', 'host', 'amount', 'merchant', 'mcc', 'country', 'currency', '3ds'] as const).filter((flag) => flags[flag] !== undefined);
      if (purchaseOnly.length) throw new OpsError(`--auth 针对已有的授权，不能同时给出 ${purchaseOnly.map((flag) => `--${flag}`).join('、')}`);
      if (!then) throw new OpsError('--auth 需要同时给出 --settle AMOUNT|full、--reverse 或 --refund AMOUNT 之一');
      const answer = await spend.askSimulator(config, url, () => issuer.followUp(authorizationId, then));
      if (flags.json) return JSON.stringify(answer, null, 2);
      return [`Authorisation ${answer.authorization_id} (card ${answer.card_id}):`, ...answer.followed.map(sentLine)].join('\n');
    }

    if (flags.card === undefined) throw new OpsError('缺少 --card：请给出卡片 ID 或卡号后四位（或用 --auth ID 处理已有的授权）');
    if (flags.amount === undefined) throw new OpsError('缺少 --amount：请给出消费金额，例如 --amount 12.34');
    if (flags.merchant === undefined) throw new OpsError('缺少 --merchant：请给出商户名称，例如 --merchant "Meta Ads"');
    const amount = spend.amount(flags.amount, 'amount');
    const merchantName = input.text(flags.merchant, 'merchant', { max: 100 });
    const mcc = spend.mcc(flags.mcc ?? '5999');
    const country = spend.country(flags.country ?? 'US');
    if (then?.action === 'refund' && toMinorUnits(then.amount) > toMinorUnits(amount)) throw new OpsError(`--refund ${then.amount} 不能大于消费金额 ${amount}`);
    const { merchant, item: card } = await cardToSpend(services, flags.card, flags.host);
    if (card.status === 'CARD_STATUS_INIT' || card.status === 'FAIL') {
      throw new OpsError(`卡片 ${card.nickname}（${card.id}）尚未由发卡行开通（${card.status}），无法模拟消费`);
    }
    const currency = flags.currency === undefined ? card.currency : spend.currency(flags.currency);

    const answer = await spend.askSimulator(config, url, () =>
      issuer.purchase({ card_id: card.id, amount, currency, merchant_name: merchantName, mcc, country, three_ds: flags['3ds'] === true, ...(then ? { follow_up: then } : {}) }),
    );
    if (flags.json) return JSON.stringify(answer, null, 2);
    return [
      `Purchase on card ${card.nickname} (•••• ${card.last4 ?? '----'}, ${card.status}) at merchant ${merchant.slug}: ${amount} ${currency} at ${merchantName} (MCC ${mcc}, ${country})`,
      ...(answer.three_ds ? [`  3-D Secure   code ${answer.three_ds.code}, valid until ${answer.three_ds.expires_at} (${DELIVERY_LABEL[answer.three_ds.delivery]})`] : []),
      `  decision     ${decisionText(answer)}`,
      ...answer.followed.map(sentLine),
      `  authorisation ${answer.authorization_id}`,
      ...(answer.approved && !then ? [`  (later: card:simulate-transaction --auth ${answer.authorization_id} --settle AMOUNT|full, --reverse or --refund AMOUNT)`] : []),
    ].join('\n');
  },
});

/** --settle, --reverse or --refund, at most one; checked before anything is looked up or sent. */
function followUpOf(flags: { settle?: string | undefined; reverse?: boolean | undefined; refund?: string | undefined }): FollowUp | undefined {
  const given = [flags.settle !== undefined && '--settle', flags.reverse === true && '--reverse', flags.refund !== undefined && '--refund'].filter(Boolean);
  if (given.length > 1) throw new OpsError(`${given.join('、')} 只能选择其一`);
  if (flags.settle !== undefined) return flags.settle.trim().toLowerCase() === 'full' ? { action: 'settle' } : { action: 'settle', amount: spend.amount(flags.settle, 'settle') };
  if (flags.reverse) return { action: 'reverse' };
  if (flags.refund !== undefined) return { action: 'refund', amount: spend.amount(flags.refund, 'refund') };
  return undefined;
}

export function decisionText(answer: Pick<PurchaseAnswer, 'approved' | 'decline_code' | 'decided_by' | 'reason' | 'latency_ms'>) {
  if (answer.approved) return `APPROVED 已批准 (${answer.latency_ms} ms)`;
  const known = answer.decline_code ? declineReasons[answer.decline_code as DeclineCode] : undefined;
  const code = answer.decline_code ?? 'DECLINED';
  const why = known ? ` ${known.reason}：${known.fix}` : '';
  const byIssuer = answer.decided_by === 'issuer' ? ` — 发卡行拒绝：${answer.reason}` : '';
  return `DECLINED ${code}${why}${byIssuer} (${answer.latency_ms} ms)`;
}

function sentLine(sent: SentEvent) {
  return `  then         ${sent.type}${sent.amount ? ` ${sent.amount}` : ''} (${DELIVERY_LABEL[sent.delivery]}; event ${sent.id})`;
}
