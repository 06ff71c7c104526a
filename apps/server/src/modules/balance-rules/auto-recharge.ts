import { randomUUID } from 'node:crypto';
import { chinaDayStart } from '@portal/contract/card-spending';
import { ErrorCode } from '@portal/contract/errors';
import { fromMinorUnits, toMinorUnits } from '@portal/contract/money';
import { TeamErrorCode } from '@portal/contract/team-errors';
import type { Tx } from '../../db/engine.ts';
import { AppError } from '../../http/errors.ts';
import { type CardRow, cardName } from '../cards/service.ts';
import { EVERY_MOVEMENT, type BalanceRuleDeps, FUNDING_QUEUES, watchKeys } from './deps.ts';
import { balanceRuleNotices } from './notices.ts';
import type { pauseMailPart } from './pause-mail.ts';
import { findRule, findRun, insertRun, pausedRules, type RuleRow, toppedUpSince, updateRule, updateRun } from './store.ts';

/** Refusals that mean the wallet cannot pay for the top-up: the rule pauses until money comes in. */
const PAUSING = new Set<number>([ErrorCode.INSUFFICIENT_FUNDS, ErrorCode.WALLET_FROZEN, TeamErrorCode.BUDGET_EXCEEDED]);

/** The Idempotency-Key of a run's top-up (the card service's own key space: the account's). */
export const runKey = (runId: string) => `auto-recharge:${runId}`;

/**
 * The runs of auto top-up rules: a job per crossing tops the card up to its target through the card
 * service's own top-up (the product's fee, the holder's budget, the card's checks, the activity of the
 * card), with the run's id as its key, so a run retried after a crash moves nothing twice. A wallet that
 * cannot pay pauses the rule and tells the team; money coming into the wallet tries it again.
 */
export function autoRechargePart(deps: BalanceRuleDeps, mails: Pick<ReturnType<typeof pauseMailPart>, 'queue'>) {
  const { db, clock, ledger, books, cards, messages, team, jobs } = deps;

  /** The ledger watches the card below the rule's threshold while the rule is on and not paused. */
  async function syncRuleWatch(tx: Tx, merchantId: string, rule: Pick<RuleRow, 'cardId' | 'accountId' | 'enabled' | 'status' | 'threshold'>) {
    const on = rule.enabled && rule.status === 'ACTIVE';
    await ledger.setWatch(tx, { merchantId, holderId: rule.accountId, watchKey: watchKeys.rule(rule.cardId), kind: 'CARD', ownerId: rule.cardId, currency: null, below: on ? rule.threshold : null });
  }

  /** While any rule of the account waits for funds in `currency`, every movement of that wallet is heard (a credit tries them again). */
  async function syncResumeWatch(tx: Tx, merchantId: string, accountId: string, currency: string) {
    const waiting = (await pausedRules(tx, accountId, currency)).length > 0;
    await ledger.setWatch(tx, { merchantId, holderId: accountId, watchKey: watchKeys.resume(currency), kind: 'WALLET', ownerId: null, currency, below: waiting ? EVERY_MOVEMENT : null });
  }

  const available = async (card: CardRow, tx?: Tx) => {
    const money = (await books.cardBalances(card.merchantId, [card.id], tx)).get(card.id);
    return money ? money.balance - money.held : 0n;
  };

  const finish = (id: string, status: 'DONE' | 'FAILED' | 'SKIPPED', reason: string | null) => updateRun(db, id, { status, reason, finishedAt: clock.now() });

  /** Fixes what the run tops up, under the rule's lock (so two runs of a card never both take the day's allowance); a reason when it has nothing to do. */
  async function plan(runId: string, card: CardRow): Promise<bigint | string> {
    return db.transaction(async (tx) => {
      const rule = await findRule(tx, card.id, { lock: true });
      if (!rule?.enabled) return '自动充值已关闭';
      if (rule.status !== 'ACTIVE') return '自动充值已暂停';
      if (card.status !== 'NORMAL') return '卡片当前状态不能充值';
      const wanted = rule.target - (await available(card, tx));
      if (wanted <= 0n) return '卡片可用余额已达到目标余额';
      const left = rule.dailyMax - (await toppedUpSince(tx, card.id, chinaDayStart(clock.now()), runId));
      if (left <= 0n) return '今日自动充值已达每日上限';
      const amount = wanted < left ? wanted : left;
      await updateRun(tx, runId, { amount });
      return amount;
    });
  }

  /**
   * The wallet could not pay: the run fails, the rule pauses, the team is told (a station message, and
   * e-mails to the holder, owner, admins and finance written with the pause and sent after it commits).
   */
  async function pause(runId: string, card: CardRow, reason: string) {
    // read before the transaction: on the embedded database a read outside it would wait for it
    const to = await team.mailboxesOf(card.accountId, ['OWNER', 'ADMIN', 'FINANCE'], [card.holderMemberId]);
    const notice = balanceRuleNotices.paused({ card: cardName(card), reason });
    await db.transaction(async (tx) => {
      await updateRun(tx, runId, { status: 'FAILED', reason, finishedAt: clock.now() });
      const rule = await updateRule(tx, card.id, { status: 'PAUSED', pausedReason: reason, updatedAt: clock.now() });
      if (!rule) return;
      await syncRuleWatch(tx, card.merchantId, rule);
      await syncResumeWatch(tx, card.merchantId, card.accountId, card.currency);
      await messages.post(tx, { merchantId: card.merchantId, accountId: card.accountId, type: 'AUTO_RECHARGE_PAUSED', status: 'fail', title: notice.title, content: notice.content });
      await mails.queue(tx, { merchantId: card.merchantId, accountId: card.accountId, cardId: card.id, runId, to, subject: notice.title, body: notice.text });
    });
  }

  /** One run: plan, top up through the card service, end the run with what happened. */
  async function run(data: { run_id: string }) {
    const first = await findRun(db, data.run_id);
    if (first?.status !== 'PENDING') return;
    const card = await cards.find(first.cardId);
    if (!card) return finish(first.id, 'SKIPPED', '卡片不存在');
    const planned = first.amount ?? (await plan(first.id, card));
    if (typeof planned === 'string') return finish(first.id, 'SKIPPED', planned);
    try {
      await cards.recharge(card.merchantId, { accountId: card.accountId }, card.id, fromMinorUnits(planned), runKey(first.id));
      await finish(first.id, 'DONE', null);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      if (PAUSING.has(error.code)) await pause(first.id, card, error.message);
      else await finish(first.id, 'FAILED', error.message);
    }
  }

  /** Money came into the wallet: each paused rule of that currency is on again, and a card still below its threshold is topped up now. */
  async function resume(data: { account_id: string; currency: string }) {
    const waiting = await pausedRules(db, data.account_id, data.currency);
    const merchantId = waiting[0]?.merchantId;
    if (!merchantId) return;
    const wallet = (await books.customerBalances(merchantId, data.account_id)).balances.find((one) => one.currency === data.currency);
    let funds = wallet ? toMinorUnits(wallet.available) : 0n;
    for (const paused of waiting) {
      const card = await cards.find(paused.cardId);
      if (!card) continue;
      const below = await available(card);
      const need = below < paused.threshold ? paused.target - below : 0n;
      // not yet enough for this card's top-up: it waits for the next credit
      if (need > funds) continue;
      funds -= need;
      await db.transaction(async (tx) => {
        const rule = await findRule(tx, card.id, { lock: true });
        if (rule?.status !== 'PAUSED') return;
        const active = await updateRule(tx, card.id, { status: 'ACTIVE', pausedReason: null, pending: false, updatedAt: clock.now() });
        if (!active) return;
        await syncRuleWatch(tx, card.merchantId, active);
        await syncResumeWatch(tx, card.merchantId, card.accountId, card.currency);
        if (need > 0n) {
          const id = randomUUID();
          await insertRun(tx, { id, merchantId: card.merchantId, accountId: card.accountId, cardId: card.id, status: 'PENDING', createdAt: clock.now() });
          await jobs.send(FUNDING_QUEUES.run, { run_id: id }, { tx });
        }
      });
    }
  }

  jobs.work<{ run_id: string }>(FUNDING_QUEUES.run, run, { concurrency: 4, retryLimit: 10, retryDelay: 2 });
  jobs.work<{ account_id: string; currency: string }>(FUNDING_QUEUES.resume, resume, { policy: 'short', retryLimit: 5 });

  return { syncRuleWatch, syncResumeWatch, available };
}
