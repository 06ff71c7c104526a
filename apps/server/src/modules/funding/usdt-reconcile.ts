import { formatUsdt } from '@portal/contract/usdt';
import type { Db } from '../../db/engine.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { Clock } from '../../lib/clock.ts';
import { type CryptoGateway, GatewayUnavailable } from '../../providers/crypto/port.ts';
import { DEPOSIT_EVENT_TYPE, type GatewayDeposit } from '../../providers/crypto/protocol.ts';
import type { DepositRow } from './store.ts';
import type { GatewayOutcome } from './usdt.ts';
import { addressesToCheck, chainDepositsOf, markAddressChecked, markChainSeen, quietChainDeposits } from './usdt-store.ts';

/** The queue of the reconciliation: every minute, and once at each start for every pending deposit and address. */
export const USDT_RECONCILE_QUEUE = 'usdt-reconcile';
const RECONCILE_CRON = '* * * * *';
/** addresses listed at the gateway per run, each at most once an hour: missed deposits on idle addresses are found within a sweep */
const ADDRESSES_PER_RUN = 50;
const ADDRESS_EVERY_SECONDS = 3_600;
const PAGE = 200;

/** What became of one deposit the gateway was asked about. */
export interface UsdtReconciled {
  tx_id: string;
  address: string;
  /** the USDT, exactly */
  amount: string;
  /** the portal's deposit, when there is one (after) */
  deposit_id: string | null;
  before: { status: string; confirmations: number } | null;
  after: { status: string; confirmations: number } | null;
  /**
   * credited: credited now; found: a deposit the portal had not heard of, now pending; updated: more
   * confirmations, still pending; unchanged: the gateway said nothing new; unknown: the gateway has no
   * such deposit; ignored: the address is no account's
   */
  outcome: 'credited' | 'found' | 'updated' | 'unchanged' | 'unknown' | 'ignored';
}

export interface UsdtReconcileReport {
  deposits: UsdtReconciled[];
  addresses_checked: number;
  /** calls the gateway did not answer: asked again at the next run */
  unavailable: number;
}

const stateOf = (row: Pick<DepositRow, 'status' | 'confirmations'> | undefined) => (row ? { status: row.status, confirmations: row.confirmations ?? 0 } : null);

/**
 * Asking the crypto gateway again when its events may have been lost (shared/design/conventions.md "Ask
 * the other side when in doubt"): each pending USDT deposit without news for `afterSeconds` is read back
 * by its chain transaction, and the addresses not looked at for an hour (never-looked-at first, 50 a
 * run) have their deposits listed. What the gateway says goes through the webhook's own path
 * (`applyEvent`: one transaction, the deposit locked, credited once at 20 confirmations) under an event
 * id of the transaction and its confirmations, so a run, a late webhook and a second process credit once.
 * At each start every pending deposit and every address is asked about.
 */
export function usdtReconcilePart(
  { db, clock, gateway }: { db: Db; clock: Clock; gateway: CryptoGateway | null },
  usdt: { applyEvent(event: { id: string; type: string }, data: GatewayDeposit): Promise<GatewayOutcome> },
  jobs: Pick<JobQueue, 'work' | 'schedule' | 'sendAtStart'>,
  options: { afterSeconds: number },
) {
  /** One deposit as the gateway tells it now, against the portal's row of it (if any). */
  async function settle(told: GatewayDeposit, known: DepositRow | undefined): Promise<UsdtReconciled> {
    const base = { tx_id: told.tx_id, address: told.address, amount: told.amount, before: stateOf(known) };
    if (known && (known.status !== 'PENDING' || (known.confirmations ?? 0) >= told.confirmations)) {
      if (known.status === 'PENDING') await markChainSeen(db, known.id, clock.now());
      return { ...base, deposit_id: known.id, after: base.before, outcome: 'unchanged' };
    }
    const outcome = await usdt.applyEvent({ id: `reconcile:${told.tx_id}:${told.confirmations}`, type: DEPOSIT_EVENT_TYPE }, told);
    if (outcome.duplicate) return { ...base, deposit_id: known?.id ?? null, after: base.before, outcome: 'unchanged' };
    if (outcome.outcome === 'ignored') return { ...base, deposit_id: null, after: null, outcome: 'ignored' };
    const after = { status: outcome.status, confirmations: outcome.confirmations };
    return { ...base, deposit_id: outcome.deposit_id, after, outcome: outcome.credited ? 'credited' : known ? 'updated' : 'found' };
  }

  /**
   * The pending deposits quiet since `olderThanSeconds` ago (every pending one when null), and the
   * addresses due (every address when `allAddresses`), at one merchant when given.
   */
  async function reconcile({ olderThanSeconds, merchantId, allAddresses = false }: { olderThanSeconds: number | null; merchantId?: string; allAddresses?: boolean }): Promise<UsdtReconcileReport> {
    const report: UsdtReconcileReport = { deposits: [], addresses_checked: 0, unavailable: 0 };
    if (!gateway) return report;
    const started = clock.now();
    const quietSince = olderThanSeconds === null ? started : new Date(started.getTime() - olderThanSeconds * 1000);
    const seen = new Set<string>();
    for (const row of await quietChainDeposits(db, { before: quietSince, merchantId, limit: 1_000 })) {
      let told: GatewayDeposit | null;
      try {
        told = await gateway.depositOf(row.chainTxId as string);
      } catch (error) {
        if (!(error instanceof GatewayUnavailable)) throw error;
        report.unavailable += 1;
        continue;
      }
      seen.add(row.chainTxId as string);
      if (!told) {
        await markChainSeen(db, row.id, clock.now());
        report.deposits.push({ tx_id: row.chainTxId as string, address: '', amount: formatUsdt(row.amount), deposit_id: row.id, before: stateOf(row), after: stateOf(row), outcome: 'unknown' });
        continue;
      }
      report.deposits.push(await settle(told, row));
    }
    const checkedBefore = allAddresses ? new Date(started.getTime() + 1) : new Date(started.getTime() - ADDRESS_EVERY_SECONDS * 1000);
    let budget = allAddresses ? Number.POSITIVE_INFINITY : ADDRESSES_PER_RUN;
    while (budget > 0) {
      const page = await addressesToCheck(db, { before: checkedBefore, merchantId, limit: Math.min(PAGE, budget) });
      let missed = false;
      for (const { address, merchantId: owner } of page) {
        let told: GatewayDeposit[];
        try {
          told = await gateway.depositsTo(address);
        } catch (error) {
          if (!(error instanceof GatewayUnavailable)) throw error;
          report.unavailable += 1;
          missed = true;
          continue;
        }
        const fresh = told.filter((item) => !seen.has(item.tx_id));
        const known = new Map((await chainDepositsOf(db, owner, fresh.map((item) => item.tx_id))).map((row) => [row.chainTxId, row]));
        for (const item of fresh) {
          seen.add(item.tx_id);
          const result = await settle(item, known.get(item.tx_id));
          if (result.outcome !== 'unchanged') report.deposits.push(result);
        }
        await markAddressChecked(db, address, clock.now());
        report.addresses_checked += 1;
      }
      budget -= page.length;
      // an address the gateway did not answer stays due: the next run asks again, this one stops
      if (page.length < PAGE || missed) break;
    }
    return report;
  }

  jobs.work<{ all?: boolean }>(
    USDT_RECONCILE_QUEUE,
    async (data) => {
      await reconcile(data.all ? { olderThanSeconds: null, allAddresses: true } : { olderThanSeconds: options.afterSeconds });
    },
    { policy: 'stately', retryLimit: 1, expireInSeconds: 900 },
  );
  jobs.schedule(USDT_RECONCILE_QUEUE, RECONCILE_CRON);
  // what a crash (or events lost while no server listened) left behind is asked about at once: every
  // pending deposit whatever its age, and every address (a deposit may have come to any while down)
  jobs.sendAtStart(USDT_RECONCILE_QUEUE, { all: true }, { singletonKey: 'start' });

  return { reconcile };
}
