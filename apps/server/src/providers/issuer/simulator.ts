import { randomUUID } from 'node:crypto';
import { signIssuerPayload } from '../../lib/issuer-signature.ts';
import { randomDigits as cryptoDigits, luhnNumberIn } from '../../lib/luhn.ts';
import { type CardIssuer, ISSUER_CARD_EVENTS, type IssueRequest } from './port.ts';

/**
 * The simulated card issuer's core: what a real issuer does with the portal's requests, without the
 * HTTP around it (simulator-server.ts adds that). Every request is accepted at once; its outcome is
 * made `delayMs` later as an event, signed like a real issuer's, and handed to `deliver`, again with
 * growing pauses while the portal does not answer 2xx. Events of one card are delivered in the order
 * they were made. Card numbers stay inside the product's BIN (well-known test prefixes) and never
 * leave the machine.
 */

/** pino's (details, message) shape, so a Fastify or pino logger fits as it is. */
export interface SimulatorLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface IssuerSimulatorOptions {
  /** the shared secret events are signed with (ISSUER_WEBHOOK_SECRET), read at each signing */
  secret: () => string;
  /** POSTs one event's body with its Issuer-Signature; answers the HTTP status, throws when it got none */
  deliver: (body: string, signature: string) => Promise<number>;
  /** how long an outcome takes after its request */
  delayMs: number;
  /** the share of issuances that fail on their own, 0..1 */
  failRate: number;
  /** [0, 1): decides the random failures */
  random?: () => number;
  /** `count` random decimal digits, for card numbers, CVVs and expiry months */
  randomDigits?: (count: number) => string;
  now?: () => Date;
  log?: SimulatorLog;
  /** the pauses before each new attempt of a delivery; after the last one fails, the event is given up */
  retryDelaysMs?: readonly number[];
}

/** An event as the simulator sends it: the webhook reads id, type and data. */
export interface SimulatedEvent {
  id: string;
  type: string;
  created_at: string;
  data: Record<string, unknown>;
}

export const DELIVERY_RETRY_DELAYS_MS = [200, 1_000, 3_000, 10_000] as const;

/** The reason given to the random share of failed issuances (ISSUER_SIM_FAIL_RATE). */
export const RANDOM_FAILURE_REASON = '发卡行风控拒绝开卡（模拟）';

/** How many years ahead a new card expires. */
const VALID_YEARS = 3;

/** A request the simulator does not accept as it is (a real issuer answers 400 to it). */
export class SimulatorRefusal extends Error {
  override name = 'SimulatorRefusal';
}

const quiet: SimulatorLog = { info() {}, warn() {}, error() {} };
export function createIssuerSimulator(options: IssuerSimulatorOptions) {
  const { secret, deliver, delayMs, failRate } = options;
  const random = options.random ?? Math.random;
  const randomDigits = options.randomDigits ?? cryptoDigits;
  const now = options.now ?? (() => new Date());
  const log = options.log ?? quiet;
  const retryDelays = options.retryDelaysMs ?? DELIVERY_RETRY_DELAYS_MS;
  if (!Number.isFinite(delayMs) || delayMs < 0) throw new Error('issuer simulator: delayMs must be 0 or more');
  if (!(failRate >= 0 && failRate <= 1)) throw new Error('issuer simulator: failRate must be between 0 and 1');

  /** the reasons the next issuances fail with, one each, first asked first used */
  const failures: string[] = [];
  /** every number issued, so none is issued twice */
  const numbersIssued = new Set<string>();
  /** what each issued card got: asked again to open it, the simulator sends the same card again */
  const issued = new Map<string, Record<string, unknown>>();
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

  function cardIdOf(value: unknown): string {
    if (typeof value !== 'string' || value.trim() === '' || value.length > 100) {
      throw new SimulatorRefusal('card_id must be a string of 1 to 100 characters');
    }
    return value;
  }

  function newCardNumber(bin: string) {
    for (let attempt = 0; attempt < 100; attempt++) {
      const number = luhnNumberIn(bin, randomDigits);
      if (!numbersIssued.has(number)) {
        numbersIssued.add(number);
        return number;
      }
    }
    throw new Error(`issuer simulator: no unused card number found in BIN ${bin}`);
  }

  function newCard(cardId: string, bin: string) {
    const month = (Number(randomDigits(2)) % 12) + 1;
    return {
      card_id: cardId,
      pan: newCardNumber(bin),
      cvv: randomDigits(3),
      exp_month: String(month).padStart(2, '0'),
      exp_year: String(now().getUTCFullYear() + VALID_YEARS),
    };
  }

  async function deliverWithRetries(event: SimulatedEvent) {
    const body = JSON.stringify(event);
    const about = { event_id: event.id, type: event.type, card_id: event.data.card_id };
    for (let attempt = 1; !stopped; attempt++) {
      let outcome: string;
      try {
        // signed at each attempt: a retry minutes later still falls within the portal's window
        const status = await deliver(body, signIssuerPayload(secret(), body, now()));
        if (status >= 200 && status < 300) {
          log.info({ ...about, attempt }, 'issuer simulator: event delivered');
          return;
        }
        outcome = `HTTP ${status}`;
      } catch (error) {
        outcome = (error as Error).message;
      }
      const pause = retryDelays[attempt - 1];
      if (pause === undefined || stopped) {
        log.error({ ...about, attempts: attempt, outcome }, 'issuer simulator: event not delivered, given up');
        return;
      }
      log.warn({ ...about, attempt, outcome, retry_in_ms: pause }, 'issuer simulator: event not delivered, trying again');
      await wait(pause);
    }
  }

  /** The outcome of a request, made `delayMs` from now and delivered after the card's earlier ones. */
  function schedule(cardId: string, type: string, data: Record<string, unknown>) {
    const previous = lanes.get(cardId) ?? Promise.resolve();
    const task = (async () => {
      try {
        await wait(delayMs);
        if (stopped) return;
        const event: SimulatedEvent = { id: randomUUID(), type, created_at: now().toISOString(), data };
        await previous;
        await deliverWithRetries(event);
      } catch (error) {
        log.error({ card_id: cardId, type, error: (error as Error).message }, 'issuer simulator: event failed');
      }
    })();
    lanes.set(cardId, task);
    pending.add(task);
    void task.finally(() => {
      pending.delete(task);
      if (lanes.get(cardId) === task) lanes.delete(cardId);
    });
  }

  function simpleAction(type: string) {
    return async (cardId: string) => {
      accepting();
      const id = cardIdOf(cardId);
      schedule(id, type, { card_id: id });
    };
  }

  return {
    /**
     * Accepts an issuance: card.issued (a new number in the product's BIN) or card.failed follows.
     * Like every request here it is a CardIssuer's call, so the core can stand in for the HTTP adapter
     * in-process (a test's deliver can hand events to the app directly).
     */
    async openCard(request: IssueRequest) {
      accepting();
      const cardId = cardIdOf(request?.card_id);
      const bin = request.product?.bin;
      if (typeof bin !== 'string' || !/^\d{6,8}$/.test(bin)) throw new SimulatorRefusal('product.bin must be 6 to 8 digits');
      const earlier = issued.get(cardId);
      if (earlier) {
        // asked again (the portal did not hear the first answer): the same card, not a second one
        schedule(cardId, ISSUER_CARD_EVENTS.issued, earlier);
        return;
      }
      const reason = failures.shift() ?? (random() < failRate ? RANDOM_FAILURE_REASON : undefined);
      if (reason !== undefined) {
        schedule(cardId, ISSUER_CARD_EVENTS.failed, { card_id: cardId, reason });
        return;
      }
      const card = newCard(cardId, bin);
      issued.set(cardId, card);
      schedule(cardId, ISSUER_CARD_EVENTS.issued, card);
    },
    freeze: simpleAction(ISSUER_CARD_EVENTS.frozen),
    unfreeze: simpleAction(ISSUER_CARD_EVENTS.unfrozen),
    close: simpleAction(ISSUER_CARD_EVENTS.closed),

    /** The next issuance fails with this reason (each call fails one more); answers how many will. */
    failNext(reason: string) {
      accepting();
      const text = typeof reason === 'string' ? reason.trim() : '';
      if (!text || text.length > 200) throw new SimulatorRefusal('reason must be 1 to 200 characters');
      failures.push(text);
      return failures.length;
    },

    /** Resolves once every scheduled delivery, retries included, has finished (or been given up). */
    async settled() {
      while (pending.size > 0) await Promise.all([...pending]);
    },

    /** Accepts nothing more, drops what was not delivered yet, and waits for a delivery under way. */
    async stop() {
      stopped = true;
      for (const sleeper of sleepers) {
        clearTimeout(sleeper.timer);
        sleeper.wake();
      }
      sleepers.clear();
      while (pending.size > 0) await Promise.all([...pending]);
    },
  } satisfies CardIssuer & Record<string, unknown>;
}

export type IssuerSimulator = ReturnType<typeof createIssuerSimulator>;
