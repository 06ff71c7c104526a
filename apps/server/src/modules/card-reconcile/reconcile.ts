import type { CardStatus, Currency } from '@portal/contract/enums';
import type { Db } from '../../db/engine.ts';
import { AppError } from '../../http/errors.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { Clock } from '../../lib/clock.ts';
import { ISSUER_CARD_EVENTS, IssuerUnavailable } from '../../providers/issuer/port.ts';
import type { CardStatusAnswer } from '../../providers/issuer/protocol.ts';
import type { CardProductService } from '../card-products/service.ts';
import type { CardService } from '../cards/service.ts';
import type { IssuerEventHandling } from '../issuer/service.ts';
import type { CardIssuer } from '../../providers/issuer/port.ts';
import { WAITING_STATUSES, waitingCards } from './store.ts';

/** The queue of the reconciliation: every minute, and once at each start for every waiting card. */
export const CARD_RECONCILE_QUEUE = 'card-reconcile';
const RECONCILE_CRON = '* * * * *';
/** cards asked about at once, and per page of the waiting ones */
const AT_ONCE = 8;
const PAGE = 200;

/** What became of one waiting card. */
export interface CardReconciled {
  card_id: string;
  nickname: string;
  batch_id: string | null;
  /** what the issuer answered; null when it did not answer */
  issuer: CardStatusAnswer['status'] | null;
  /** ISSUED: the card's lifecycle there */
  issuer_state?: string;
  before: CardStatus;
  after: CardStatus;
  /**
   * settled: the card moved as the issuer's event would have moved it; asked-again: the issuer was asked
   * again (opening under the same card id, or the freeze, unfreeze or cancel it has not made); waiting:
   * nothing to do yet; unavailable: the issuer did not answer (asked again at the next run); refused:
   * its answer was not one the event's handler takes (numbers that are not a card's), nothing changed
   */
  outcome: 'settled' | 'asked-again' | 'waiting' | 'unavailable' | 'refused';
  /** the issuer's reason of a failure, or why it could not be asked */
  detail?: string;
}

export interface ReconcileReport {
  cards: CardReconciled[];
  /** the batches of the cards settled, as they were and are now */
  batches: Array<{ batch_id: string; before: string; after: string; success_count: number; fail_count: number; quantity: number }>;
}

/** What to do with a waiting card from the issuer's answer: hand it an event, ask the issuer again, or wait. */
type Step = { event: string; data: Record<string, unknown> } | { ask: 'open' | 'freeze' | 'unfreeze' | 'close' } | null;

/**
 * The event the issuer would have sent for what it answers now, about a card in `status`; or the
 * request to make again when the issuer has not done what the card waits for; or nothing.
 */
function stepFor(status: CardStatus, answer: CardStatusAnswer): Step {
  const card = { card_id: answer.card_id };
  if (status === 'CARD_STATUS_INIT') {
    if (answer.status === 'UNKNOWN') return { ask: 'open' };
    if (answer.status === 'FAILED') return { event: ISSUER_CARD_EVENTS.failed, data: { ...card, reason: answer.reason } };
    if (answer.status !== 'ISSUED') return null;
    if (answer.state === 'CLOSED') return { event: ISSUER_CARD_EVENTS.closed, data: card };
    const { pan, cvv, exp_month, exp_year } = answer;
    return { event: ISSUER_CARD_EVENTS.issued, data: { ...card, pan, cvv, exp_month, exp_year } };
  }
  if (answer.status !== 'ISSUED') return null;
  if (answer.state === 'CLOSED') return status === 'DELETING' || status === 'FREEZING' || status === 'UNFREEZING' ? { event: ISSUER_CARD_EVENTS.closed, data: card } : null;
  if (status === 'FREEZING') return answer.state === 'FROZEN' ? { event: ISSUER_CARD_EVENTS.frozen, data: card } : { ask: 'freeze' };
  if (status === 'UNFREEZING') return answer.state === 'ACTIVE' ? { event: ISSUER_CARD_EVENTS.unfrozen, data: card } : { ask: 'unfreeze' };
  if (status === 'DELETING') return { ask: 'close' };
  return null;
}

/** What the reconciliation is built from. */
export interface ReconcileDeps {
  db: Db;
  clock: Clock;
  issuer: CardIssuer;
  cards: Pick<CardService, 'find' | 'lockForEvent'>;
  products: Pick<CardProductService, 'find' | 'holderOf'>;
}

/** What the reconciliation asks of the batches: whether a card's opening job has yet to run, and how its batches stand now. */
export interface BatchesSeen {
  openingJobPending(cardId: string): Promise<boolean>;
  batchesNow(ids: string[]): Promise<Array<{ id: string; status: string; successCount: number; failCount: number; quantity: number }>>;
}

/**
 * Asking the issuer again (shared/design/conventions.md "Ask the other side when in doubt"): a card that
 * waits for the issuer's event (CARD_STATUS_INIT, FREEZING, UNFREEZING, DELETING) past `afterSeconds`,
 * and at each start every waiting card whatever its age, is looked up with the issuer's status query
 * (getCard). What it answers is handed, as the event it would have sent, to the very handler of that
 * event (`handlers`, the card service's), so the card, its money and its batch move exactly as the
 * webhook moves them, once: a late webhook finds the card moved on and changes nothing. A card the
 * issuer never heard of is asked for again under the same card id (the issuer opens one card per id);
 * a freeze, unfreeze or cancel the issuer has not made is asked again.
 *
 * Safe with many processes: each card is settled under its row lock after its status is read again,
 * and asking the issuer again is harmless.
 */
export function reconcilePart(
  { db, clock, issuer, cards, products }: ReconcileDeps,
  jobs: Pick<JobQueue, 'work' | 'schedule' | 'sendAtStart'>,
  options: { afterSeconds: number; handlers: Record<string, IssuerEventHandling>; batches: BatchesSeen },
) {
  async function askAgain(cardId: string, what: 'open' | 'freeze' | 'unfreeze' | 'close') {
    if (what === 'freeze') return issuer.freeze(cardId);
    if (what === 'unfreeze') return issuer.unfreeze(cardId);
    if (what === 'close') return issuer.close(cardId);
    const card = await cards.find(cardId);
    if (!card) return;
    const product = await products.find(card.merchantId, { id: card.productId });
    const holder = await products.holderOf(card.merchantId, card.accountId);
    if (!product) throw new Error(`card ${cardId}: its product vanished`);
    return issuer.openCard({
      card_id: card.id,
      product: { bin: product.bin, brand: product.brand as 'VISA' | 'MASTERCARD', currency: product.currency as Currency },
      holder,
    });
  }

  async function reconcileCard(cardId: string): Promise<CardReconciled | null> {
    const seen = await cards.find(cardId);
    // settled since it was listed (its event came, another process asked)
    if (!seen || !(WAITING_STATUSES as readonly string[]).includes(seen.status)) return null;
    const base = { card_id: seen.id, nickname: seen.nickname, batch_id: seen.batchId, before: seen.status as CardStatus };
    let answer: CardStatusAnswer;
    try {
      answer = await issuer.getCard(cardId);
    } catch (error) {
      if (!(error instanceof IssuerUnavailable)) throw error;
      return { ...base, issuer: null, after: base.before, outcome: 'unavailable', detail: error.message };
    }
    const told = { issuer: answer.status, ...(answer.status === 'ISSUED' ? { issuer_state: answer.state } : {}), ...(answer.status === 'FAILED' ? { detail: answer.reason } : {}) };
    let settled: { before: CardStatus; after: CardStatus; step: Step } | null;
    try {
      settled = await db.transaction(async (tx) => {
        const card = await cards.lockForEvent(tx, cardId);
        if (!card) return null;
        const before = card.status as CardStatus;
        const step = stepFor(before, answer);
        if (!step || !('event' in step)) return { before, after: before, step };
        const handler = options.handlers[step.event];
        if (typeof handler !== 'function') throw new Error(`no handler of ${step.event}`);
        await handler(tx, { id: `reconcile:${cardId}:${step.event}`, type: step.event, data: step.data });
        const after = (await cards.lockForEvent(tx, cardId))?.status as CardStatus;
        return { before, after, step };
      });
    } catch (error) {
      // the handler refused what the issuer answered (numbers that are not a card's), as it refuses such an event: nothing changed
      if (!(error instanceof AppError)) throw error;
      return { ...base, ...told, after: base.before, outcome: 'refused', detail: error.message };
    }
    if (!settled) return null;
    const { before, after, step } = settled;
    if (step && 'ask' in step) {
      // a batch card whose opening job has yet to run (a queue longer than the timeout, a job a crash cut short): its job asks
      if (step.ask === 'open' && base.batch_id && (await options.batches.openingJobPending(cardId))) {
        return { ...base, ...told, before, after, outcome: 'waiting', detail: 'its opening job has yet to ask the issuer' };
      }
      try {
        await askAgain(cardId, step.ask);
      } catch (error) {
        if (!(error instanceof IssuerUnavailable)) throw error;
        return { ...base, ...told, before, after, outcome: 'unavailable', detail: error.message };
      }
      return { ...base, ...told, before, after, outcome: 'asked-again' };
    }
    return { ...base, ...told, before, after, outcome: after !== before ? 'settled' : 'waiting' };
  }

  /**
   * Asks the issuer about every card waiting since `olderThanSeconds` ago (every waiting card when null),
   * at one merchant when given; answers what became of each and of their batches.
   */
  async function reconcile({ olderThanSeconds, merchantId }: { olderThanSeconds: number | null; merchantId?: string }): Promise<ReconcileReport> {
    const before = olderThanSeconds === null ? null : new Date(clock.now().getTime() - olderThanSeconds * 1000);
    const report: CardReconciled[] = [];
    const batchesBefore = new Map<string, string>();
    let after: { updatedAt: Date; id: string } | null = null;
    for (;;) {
      const page = await waitingCards(db, { before, merchantId, after, limit: PAGE });
      if (page.length === 0) break;
      for (let start = 0; start < page.length; start += AT_ONCE) {
        const results = await Promise.all(page.slice(start, start + AT_ONCE).map((row) => reconcileCard(row.id)));
        for (const result of results) if (result) report.push(result);
      }
      const last = page[page.length - 1];
      if (!last || page.length < PAGE) break;
      after = { updatedAt: last.updatedAt, id: last.id };
    }
    // a batch with a card still opening is running: it ends only once all its cards are settled
    for (const card of report) if (card.batch_id && card.before === 'CARD_STATUS_INIT') batchesBefore.set(card.batch_id, 'RUNNING');
    const batches = (await options.batches.batchesNow([...batchesBefore.keys()]))
      .filter((batch) => report.some((card) => card.batch_id === batch.id && card.outcome === 'settled'))
      .map((batch) => ({ batch_id: batch.id, before: batchesBefore.get(batch.id) ?? batch.status, after: batch.status, success_count: batch.successCount, fail_count: batch.failCount, quantity: batch.quantity }));
    return { cards: report, batches };
  }

  jobs.work<{ all?: boolean }>(
    CARD_RECONCILE_QUEUE,
    async (data) => {
      await reconcile({ olderThanSeconds: data.all ? null : options.afterSeconds });
    },
    // one run waiting and one running at most (per key: the start's run is apart from the minute's)
    { policy: 'stately', retryLimit: 1, expireInSeconds: 900 },
  );
  jobs.schedule(CARD_RECONCILE_QUEUE, RECONCILE_CRON);
  // what a crash (or a lost event) left waiting is asked about at once, whatever its age
  jobs.sendAtStart(CARD_RECONCILE_QUEUE, { all: true }, { singletonKey: 'start' });

  return { reconcile, reconcileCard };
}

