import { type DeclineCode, declineReasons } from '@portal/contract/card-spending';
import { fromMinorUnits, toMinorUnits } from '@portal/contract/money';
import { Refused } from '../../lib/refused.ts';
import { IssuerUnavailable } from '../../providers/issuer/port.ts';
import type { FollowUp, PurchaseAnswer } from '../../providers/issuer/protocol.ts';
import { defineCommand, OpsError } from '../command.ts';
import * as input from '../input.ts';
import { merchantByHost } from '../lookup.ts';
import * as spend from '../simulated-issuer.ts';
import { textTable } from '../table.ts';

/** Where the simulated purchases are made: name, MCC, country. */
const SHOPS = [
  ['Meta Ads', '7311', 'US'],
  ['Google Ads', '7311', 'US'],
  ['TikTok Ads', '7311', 'SG'],
  ['Amazon Web Services', '4816', 'US'],
  ['Shopify', '5734', 'CA'],
  ['Apple', '5732', 'IE'],
  ['Steam', '5816', 'US'],
  ['Booking.com', '4722', 'NL'],
] as const;

/** At most this many purchases wait for their answer at once; more are counted as not sent. */
const IN_FLIGHT_MAX = 256;

const pick = <T>(items: readonly T[]) => items[Math.floor(Math.random() * items.length)] as T;

/** What follows an approval: mostly settled (a quarter of them for up to 10% more or less), some reversed, some refunded, a few left pending. */
function followUpFor(amount: string): FollowUp | undefined {
  const roll = Math.random();
  if (roll < 0.6) return { action: 'settle' };
  if (roll < 0.8) {
    const minor = toMinorUnits(amount);
    const changed = minor + (minor * BigInt(Math.round((Math.random() * 0.2 - 0.1) * 1000))) / 1000n;
    return { action: 'settle', amount: fromMinorUnits(changed > 0n ? changed : minor) };
  }
  if (roll < 0.9) return { action: 'reverse' };
  if (roll < 0.95) return { action: 'refund', amount: fromMinorUnits((toMinorUnits(amount) + 1n) / 2n) };
  return undefined;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;

export const cardSimulateTraffic = defineCommand({
  name: 'card:simulate-traffic',
  summary: "Drive purchases at a steady rate over a merchant's NORMAL cards through the simulated issuer, and sum up the decisions",
  usage: ['card:simulate-traffic --host HOST --cards N --rate R --seconds S [--max-amount AMOUNT] [--json]'],
  description: [
    "Takes N of the merchant's cards in 使用中 (NORMAL), newest first, and has the simulated issuer make R purchases a second on them, in turn, for S seconds: each an authorization.request the portal answers, then mostly a settlement (some for a little more or less), some reversals, some refunds, a few left pending. Amounts are random up to --max-amount (5.00). Prints how many were approved and declined (by reason), declined by the issuer for want of an answer within 2 s, the portal's decision time (p50, p99) and the rate reached.",
    '',
    'The issuer asked is ISSUER_URL, or else the built-in simulator on http://127.0.0.1:ISSUER_SIM_PORT (4100), as card:simulate-transaction.',
  ].join('\n'),
  flags: {
    host: { type: 'string', value: 'HOST', description: 'the merchant, by one of its hosts' },
    cards: { type: 'string', value: 'N', description: 'how many of its NORMAL cards (1 to 1000)' },
    rate: { type: 'string', value: 'R', description: 'purchases a second (up to 2000)' },
    seconds: { type: 'string', value: 'S', description: 'for how long (up to 3600)' },
    'max-amount': { type: 'string', value: 'AMOUNT', description: 'the largest purchase (5.00)' },
    json: { type: 'boolean', description: 'print the summary as JSON, for scripts' },
  },
  examples: ['card:simulate-traffic --host localhost --cards 20 --rate 10 --seconds 30'],
  async run(flags, { config, services }) {
    if (flags.host === undefined) throw new OpsError('缺少 --host：请给出商户的域名，例如 --host localhost');
    if (flags.cards === undefined) throw new OpsError('缺少 --cards：请给出参与的卡片数量，例如 --cards 20');
    if (flags.rate === undefined) throw new OpsError('缺少 --rate：请给出每秒交易笔数，例如 --rate 10');
    if (flags.seconds === undefined) throw new OpsError('缺少 --seconds：请给出持续秒数，例如 --seconds 30');
    const cardCount = spend.count(flags.cards, 'cards', { min: 1, max: 1000 });
    const rate = spend.positive(flags.rate, 'rate', { max: 2000 });
    const seconds = spend.positive(flags.seconds, 'seconds', { max: 3600 });
    const maxAmount = toMinorUnits(spend.amount(flags['max-amount'] ?? '5.00', 'max-amount'));
    const merchant = await merchantByHost(services, flags.host);
    const { items } = await services.cards.forOperator(merchant.id, {});
    const cards = items.filter((card) => card.status === 'NORMAL').slice(0, cardCount);
    if (cards.length < cardCount) {
      throw new OpsError(`商户 ${merchant.slug} 只有 ${cards.length} 张使用中（NORMAL）的卡片，少于 --cards ${cardCount}（card:list --host ${input.host(flags.host)} 列出卡片）`);
    }
    const { url, issuer } = spend.simulatedIssuer(config);

    const total = Math.max(1, Math.round(rate * seconds));
    const decided: PurchaseAnswer[] = [];
    const failures = new Map<string, number>();
    let inFlight = 0;
    let firstFailure: IssuerUnavailable | undefined;
    const started = performance.now();
    const running = new Set<Promise<void>>();
    for (let i = 0; i < total; i++) {
      const due = started + (i * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      // the simulator cannot be reached at all: no point in going on
      if (firstFailure && decided.length === 0 && failures.size > 0 && i >= 10) break;
      if (inFlight >= IN_FLIGHT_MAX) {
        continue;
      }
      const card = cards[i % cards.length] as (typeof cards)[number];
      const [shop, mcc, country] = pick(SHOPS);
      const amount = fromMinorUnits(1n + BigInt(Math.floor(Math.random() * Number(maxAmount))));
      const then = followUpFor(amount);
      inFlight++;
      const task = issuer
        .purchase({ card_id: card.id, amount, currency: card.currency, merchant_name: shop, mcc, country, wait: false, ...(then ? { follow_up: then } : {}) })
        .then((answer) => {
          decided.push(answer);
        })
        .catch((error: Error) => {
          if (error instanceof IssuerUnavailable) firstFailure ??= error;
          const key = error.message.slice(0, 160);
          failures.set(key, (failures.get(key) ?? 0) + 1);
        })
        .finally(() => {
          inFlight--;
          running.delete(task);
        });
      running.add(task);
    }
    await Promise.all(running);
    const elapsed = (performance.now() - started) / 1000;

    if (decided.length === 0 && firstFailure) throw new Refused(`${spend.simulatorProblem(firstFailure.message, url, config.issuer.url !== undefined)}（${firstFailure.message}）`);

    const approved = decided.filter((answer) => answer.approved).length;
    const byIssuer = decided.filter((answer) => answer.decided_by === 'issuer');
    const declines = new Map<string, number>();
    for (const answer of decided) {
      if (answer.approved || answer.decided_by === 'issuer') continue;
      const code = answer.decline_code ?? '(none)';
      declines.set(code, (declines.get(code) ?? 0) + 1);
    }
    const issuerReasons = new Map<string, number>();
    for (const answer of byIssuer) issuerReasons.set(answer.reason ?? '', (issuerReasons.get(answer.reason ?? '') ?? 0) + 1);
    const followed = new Map<string, number>();
    for (const answer of decided) for (const sent of answer.followed) followed.set(sent.type, (followed.get(sent.type) ?? 0) + 1);
    const latencies = decided.filter((answer) => answer.decided_by === 'portal').map((answer) => answer.latency_ms).sort((a, b) => a - b);
    const summary = {
      merchant: merchant.slug,
      cards: cards.length,
      asked_rate: rate,
      seconds: Number(elapsed.toFixed(1)),
      planned: total,
      decided: decided.length,
      rate: Number((decided.length / elapsed).toFixed(1)),
      approved,
      declined: Object.fromEntries(declines),
      declined_by_issuer: Object.fromEntries(issuerReasons),
      followed: Object.fromEntries(followed),
      failed: Object.fromEntries(failures),
      // more than IN_FLIGHT_MAX waiting, or stopped early when the simulator could not be reached
      not_sent: total - decided.length - [...failures.values()].reduce((a, b) => a + b, 0),
      decision_ms: { p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: latencies[latencies.length - 1] ?? 0 },
    };
    if (flags.json) return JSON.stringify(summary, null, 2);
    const rows: string[][] = [
      ['approved 已批准', String(approved), ''],
      ...[...declines].map(([code, n]) => [`declined ${code}`, String(n), declineReasons[code as DeclineCode]?.reason ?? '']),
      ...[...issuerReasons].map(([reason, n]) => ['declined by the issuer', String(n), reason]),
      ...[...followed].map(([type, n]) => [`then ${type}`, String(n), '']),
      ...[...failures].map(([message, n]) => ['not taken by the simulator', String(n), message]),
    ];
    return [
      `${summary.decided} purchases decided in ${summary.seconds} s over ${cards.length} cards at merchant ${merchant.slug} (${summary.rate}/s; asked ${rate}/s, ${total} planned${summary.not_sent ? `, ${summary.not_sent} not sent` : ''})`,
      textTable(['OUTCOME', 'COUNT', 'REASON'], rows),
      `portal decision time: p50 ${summary.decision_ms.p50} ms, p99 ${summary.decision_ms.p99} ms, max ${summary.decision_ms.max} ms`,
    ].join('\n');
  },
});
