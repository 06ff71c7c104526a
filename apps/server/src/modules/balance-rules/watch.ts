import { randomUUID } from 'node:crypto';
import type { Tx } from '../../db/engine.ts';
import type { WatchedChange } from '../ledger/service.ts';
import { crossed, type BalanceRuleDeps, FUNDING_QUEUES, markOf } from './deps.ts';
import { cardWatchState, dropMark, insertAlert, insertRun, updateRule, walletWatchState } from './store.ts';

/**
 * What a watched movement starts, inside the movement's own transaction (an authorisation's, a
 * settlement's, a top-up's): a crossing is written there, with its job, so that a crash loses neither and
 * the job runs it once. The ledger hands each change with the customer's row locked, so of many
 * movements of one card only the one that took it across a threshold sees the crossing.
 */
export function watchPart({ clock, jobs }: Pick<BalanceRuleDeps, 'clock' | 'jobs'>) {
  async function alert(tx: Tx, merchantId: string, change: WatchedChange, threshold: bigint) {
    const id = randomUUID();
    await insertAlert(tx, {
      id,
      merchantId,
      accountId: change.holderId,
      cardId: change.kind === 'CARD' ? change.ownerId : null,
      currency: change.currency,
      threshold,
      balance: change.after,
      createdAt: clock.now(),
    });
    await jobs.send(FUNDING_QUEUES.alert, { alert_id: id }, { tx });
  }

  async function cardMoved(tx: Tx, merchantId: string, change: WatchedChange) {
    const { rule, cardDefault, marked } = await cardWatchState(tx, change.holderId, change.ownerId);
    if (rule?.enabled && rule.status === 'ACTIVE') {
      if (crossed(change.before, change.after, rule.threshold, rule.pending)) {
        const id = randomUUID();
        await insertRun(tx, { id, merchantId, accountId: change.holderId, cardId: change.ownerId, status: 'PENDING', createdAt: clock.now() });
        await jobs.send(FUNDING_QUEUES.run, { run_id: id }, { tx });
      }
      if (rule.pending) await updateRule(tx, change.ownerId, { pending: false });
    }
    if (cardDefault !== null && crossed(change.before, change.after, cardDefault, marked)) await alert(tx, merchantId, change, cardDefault);
    if (marked) await dropMark(tx, change.holderId, markOf.card(change.ownerId));
  }

  async function walletMoved(tx: Tx, merchantId: string, change: WatchedChange) {
    const { threshold, marked, paused } = await walletWatchState(tx, change.holderId, change.currency);
    if (threshold !== null && crossed(change.before, change.after, threshold, marked)) await alert(tx, merchantId, change, threshold);
    if (marked) await dropMark(tx, change.holderId, markOf.wallet(change.currency));
    // money came in: the paused rules of that currency are tried again (one job queued per account and currency)
    if (paused && change.after > change.before) {
      await jobs.send(FUNDING_QUEUES.resume, { account_id: change.holderId, currency: change.currency }, { tx, singletonKey: `${change.holderId}:${change.currency}` });
    }
  }

  return async (tx: Tx, merchantId: string, changes: WatchedChange[]) => {
    for (const change of changes) {
      if (change.kind === 'CARD') await cardMoved(tx, merchantId, change);
      else await walletMoved(tx, merchantId, change);
    }
  };
}
