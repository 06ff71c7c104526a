import { randomUUID } from 'node:crypto';
import { signIssuerPayload } from '../../lib/issuer-signature.ts';
import type { DeliveryState } from './protocol.ts';
import type { SimulatorJournal } from './simulator-journal.ts';

/** pino's (details, message) shape, so a Fastify or pino logger fits as it is. */
export interface SimulatorLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

/** An event as the simulator sends it: the webhook reads id, type and data. */
export interface SimulatedEvent {
  id: string;
  type: string;
  created_at: string;
  data: Record<string, unknown>;
}

/**
 * The pauses between the attempts of a delivery: from one second, doubled each time up to 15 minutes,
 * until a day has passed; only then is an event given up. A portal that is down for a restart or an
 * upgrade gets its events once it is back, as from a real issuer, not just within seconds.
 */
export function deliveryRetryDelays({ firstMs = 1_000, maxMs = 15 * 60_000, forMs = 24 * 60 * 60_000 } = {}): number[] {
  const delays: number[] = [];
  let total = 0;
  for (let next = firstMs; total < forMs; next = Math.min(next * 2, maxMs)) {
    delays.push(next);
    total += next;
  }
  return delays;
}

export const DELIVERY_RETRY_DELAYS_MS: readonly number[] = deliveryRetryDelays();

/** An event made and not yet delivered: the card's lane, and when it is due. */
export interface QueuedEvent {
  card_id: string;
  due_at: string;
  event: SimulatedEvent;
}

/** A request the simulator does not accept as it is (a real issuer answers 400 to it). */
export class SimulatorRefusal extends Error {
  override name = 'SimulatorRefusal';
}

/**
 * The simulator's deliveries: each card's events in one lane, in the order they were made, each
 * retried with growing pauses while the portal does not answer 2xx; kept in the journal until
 * delivered or given up, so a restart sends what a stop cut short.
 */
export function createDeliveryLanes(options: {
  secret: () => string;
  deliver: (body: string, signature: string) => Promise<number>;
  now: () => Date;
  log: SimulatorLog;
  retryDelays: readonly number[];
  journal: SimulatorJournal | undefined;
  delayMs: number;
}) {
  const { secret, deliver, now, log, retryDelays, journal, delayMs } = options;
  /** the events made and not delivered yet, in the order they were made */
  const undelivered = new Map<string, QueuedEvent>();
  /** the last scheduled delivery of each card, which the card's next one waits for */
  const lanes = new Map<string, Promise<void>>();
  const pending = new Set<Promise<void>>();
  const sleepers = new Set<{ timer: NodeJS.Timeout; wake: () => void }>();
  let stopped = false;

  function wait(ms: number) {
    if (stopped) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const sleeper = {
        timer: setTimeout(() => {
          sleepers.delete(sleeper);
          resolve();
        }, ms),
        wake: resolve,
      };
      sleepers.add(sleeper);
    });
  }

  function accepting() {
    if (stopped) throw new Error('the issuer simulator is stopped');
  }

  /** Delivers with retries: 'delivered', 'given_up' after the last pause, or 'stopped' (kept for the next start). */
  async function deliverWithRetries(event: SimulatedEvent): Promise<'delivered' | 'given_up' | 'stopped'> {
    const body = JSON.stringify(event);
    const about = { event_id: event.id, type: event.type, card_id: event.data.card_id };
    for (let attempt = 1; !stopped; attempt++) {
      let outcome: string;
      try {
        // signed at each attempt: a retry minutes later still falls within the portal's window
        const status = await deliver(body, signIssuerPayload(secret(), body, now()));
        if (status >= 200 && status < 300) {
          log.info({ ...about, attempt }, 'issuer simulator: event delivered');
          return 'delivered';
        }
        outcome = `HTTP ${status}`;
      } catch (error) {
        outcome = (error as Error).message;
      }
      if (stopped) return 'stopped';
      const pause = retryDelays[attempt - 1];
      if (pause === undefined) {
        log.error({ ...about, attempts: attempt, outcome }, 'issuer simulator: event not delivered, given up');
        return 'given_up';
      }
      log.warn({ ...about, attempt, outcome, retry_in_ms: pause }, 'issuer simulator: event not delivered, trying again');
      await wait(pause);
    }
    return 'stopped';
  }

  /**
   * Delivers a kept event `waitMs` from now, after the card's earlier ones, with retries; resolves to
   * how it ended. Delivered or given up, it leaves the journal; stopped before, it stays for the next start.
   */
  function enqueue(queued: QueuedEvent, waitMs: number): Promise<DeliveryState> {
    const cardId = queued.card_id;
    const previous = lanes.get(cardId) ?? Promise.resolve();
    let outcome: DeliveryState = 'given_up';
    const task = (async () => {
      try {
        await wait(waitMs);
        await previous;
        if (stopped) return;
        const ended = await deliverWithRetries(queued.event);
        if (ended === 'stopped') return;
        if (ended === 'delivered') outcome = 'delivered';
        undelivered.delete(queued.event.id);
        journal?.write({ kind: 'done', id: queued.event.id });
      } catch (error) {
        log.error({ card_id: cardId, type: queued.event.type, error: (error as Error).message }, 'issuer simulator: event failed');
      }
    })();
    track(cardId, task);
    return task.then(() => outcome);
  }

  /** Keeps an event (written before the request that made it is answered) and delivers it `waitMs` from now. */
  function keepAndSend(cardId: string, event: SimulatedEvent, waitMs: number) {
    const queued: QueuedEvent = { card_id: cardId, due_at: new Date(now().getTime() + waitMs).toISOString(), event };
    journal?.write({ kind: 'event', queued: queued as unknown as Record<string, unknown> });
    undelivered.set(event.id, queued);
    return enqueue(queued, waitMs);
  }

  /** The outcome of a request, made now and delivered `delayMs` from now, after the card's earlier ones. */
  function schedule(cardId: string, type: string, data: Record<string, unknown>) {
    void keepAndSend(cardId, { id: randomUUID(), type, created_at: now().toISOString(), data }, delayMs);
  }

  /** A delivery under way: the card's next one waits for it, settled() and stop() for all. */
  function track(cardId: string, task: Promise<void>) {
    lanes.set(cardId, task);
    pending.add(task);
    void task.finally(() => {
      pending.delete(task);
      if (lanes.get(cardId) === task) lanes.delete(cardId);
    });
  }

  /** An event of a spending call; its data repeats the event's id, as the spending events list it. */
  function spendingEvent(type: string, data: Record<string, unknown>): SimulatedEvent {
    const id = randomUUID();
    return { id, type, created_at: now().toISOString(), data: { id, ...data } };
  }

  /** Delivers now, after the card's earlier deliveries, with retries; resolves to how it ended. */
  function sendInLane(cardId: string, event: SimulatedEvent): Promise<DeliveryState> {
    return keepAndSend(cardId, event, 0);
  }

  /** How a delivery stands after at most `ms` ('retrying' when it is still under way). */
  function within(delivery: Promise<DeliveryState>, ms: number): Promise<DeliveryState> {
    let timer: NodeJS.Timeout | undefined;
    return Promise.race([
      delivery,
      new Promise<DeliveryState>((resolve) => {
        timer = setTimeout(() => resolve('retrying'), ms);
        timer.unref?.();
      }),
    ]).finally(() => clearTimeout(timer));
  }

  return {
    undelivered,
    accepting,
    enqueue,
    schedule,
    spendingEvent,
    sendInLane,
    within,

    /** Resolves once every scheduled delivery, retries included, has finished (or been given up). */
    async settled() {
      while (pending.size > 0) await Promise.all([...pending]);
    },

    /** Stops delivering (what is in the journal goes out at the next start), and waits for a delivery under way. */
    async stop() {
      stopped = true;
      for (const sleeper of sleepers) {
        clearTimeout(sleeper.timer);
        sleeper.wake();
      }
      sleepers.clear();
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };
}

export type DeliveryLanes = ReturnType<typeof createDeliveryLanes>;
