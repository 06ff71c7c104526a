import { randomUUID } from 'node:crypto';
import { signIssuerPayload } from '../../lib/issuer-signature.ts';
import { randomDigits as cryptoDigits, luhnNumberIn } from '../../lib/luhn.ts';
import { fromMinorUnits, toMinorUnits } from '@portal/contract/money';
import { type CardIssuer, ISSUER_CARD_EVENTS, ISSUER_SPENDING_EVENTS, type IssueRequest } from './port.ts';
import {
  AUTHORIZATION_TIMEOUT_MS,
  type DeliveryState,
  type FollowUp,
  type FollowUpAnswer,
  followUp as followUpSchema,
  type PurchaseAnswer,
  type PurchaseRequest,
  purchaseBody,
  type SentEvent,
} from './protocol.ts';

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
  /**
   * POSTs an authorisation request's body with its Issuer-Signature and answers the portal's response
   * (status and body), within `timeoutMs`; throws when there is none. Purchases need it.
   */
  ask?: (body: string, signature: string, timeoutMs: number) => Promise<{ status: number; text: string }>;
  /** how long a purchase's answer waits for the delivery of what followed the decision */
  followUpWaitMs?: number;
  /** how long the portal has to decide an authorisation (AUTHORIZATION_TIMEOUT_MS) */
  authorizationTimeoutMs?: number;
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

/** How long a purchase's answer waits for the deliveries after the decision (they go on being retried after). */
export const FOLLOW_UP_WAIT_MS = 3_000;

/** How long a 3-D Secure code is valid. */
export const THREE_DS_VALID_MS = 5 * 60_000;

/** The authorisations the simulator remembers, to act on later; the oldest are forgotten first. */
const REMEMBERED_AUTHORIZATIONS = 100_000;

/** What the simulator knows of an authorisation it asked about. */
interface Authorization {
  id: string;
  card_id: string;
  amount: string;
  currency: string;
  merchant_name: string;
  state: 'approved' | 'declined' | 'settled' | 'reversed';
  /** minor units: settled, and refunded of it so far */
  settled: bigint;
  refunded: bigint;
}

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
          return true;
        }
        outcome = `HTTP ${status}`;
      } catch (error) {
        outcome = (error as Error).message;
      }
      const pause = retryDelays[attempt - 1];
      if (pause === undefined || stopped) {
        log.error({ ...about, attempts: attempt, outcome }, 'issuer simulator: event not delivered, given up');
        return false;
      }
      log.warn({ ...about, attempt, outcome, retry_in_ms: pause }, 'issuer simulator: event not delivered, trying again');
      await wait(pause);
    }
    return false;
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
    track(cardId, task);
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
    const previous = lanes.get(cardId) ?? Promise.resolve();
    let outcome: DeliveryState = 'given_up';
    const task = (async () => {
      try {
        await previous;
        if (stopped) return;
        if (await deliverWithRetries(event)) outcome = 'delivered';
      } catch (error) {
        log.error({ card_id: cardId, type: event.type, error: (error as Error).message }, 'issuer simulator: event failed');
      }
    })();
    track(cardId, task);
    return task.then(() => outcome);
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

  const authorizations = new Map<string, Authorization>();
  const ask = options.ask;
  const followUpWaitMs = options.followUpWaitMs ?? FOLLOW_UP_WAIT_MS;
  const authorizationTimeoutMs = options.authorizationTimeoutMs ?? AUTHORIZATION_TIMEOUT_MS;

  function remember(authorization: Authorization) {
    authorizations.set(authorization.id, authorization);
    if (authorizations.size > REMEMBERED_AUTHORIZATIONS) {
      const oldest = authorizations.keys().next().value;
      if (oldest !== undefined) authorizations.delete(oldest);
    }
  }

  /** The portal's decision from its webhook's answer: `{approved, decline_code?}` as the body, or as its envelope's data. */
  function decisionIn(text: string): { approved: boolean; decline_code: string | null } | { missing: string } {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return { missing: '门户的答复不是 JSON' };
    }
    const body = parsed as { approved?: unknown; decline_code?: unknown; data?: { approved?: unknown; decline_code?: unknown; outcome?: unknown } } | null;
    for (const candidate of [body, body?.data]) {
      if (candidate && typeof candidate.approved === 'boolean') {
        return { approved: candidate.approved, decline_code: typeof candidate.decline_code === 'string' && candidate.decline_code ? candidate.decline_code : null };
      }
    }
    const outcome = typeof body?.data?.outcome === 'string' ? `（outcome: ${body.data.outcome}）` : '';
    return { missing: `门户的答复里没有授权决定${outcome}` };
  }

  /**
   * Asks the portal about an authorisation and waits at most authorizationTimeoutMs: a decision in its
   * answer counts; anything else (no answer in time, another status, no decision) is a decline by the issuer.
   */
  async function askPortal(event: SimulatedEvent) {
    if (!ask) throw new Error('issuer simulator: purchases need an `ask` to reach the portal');
    const body = JSON.stringify(event);
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    const late = Symbol('late');
    let answer: { status: number; text: string } | typeof late;
    try {
      answer = await Promise.race([
        ask(body, signIssuerPayload(secret(), body, now()), authorizationTimeoutMs),
        new Promise<typeof late>((resolve) => {
          timer = setTimeout(() => resolve(late), authorizationTimeoutMs);
        }),
      ]);
    } catch (error) {
      const failure = error as Error & { timedOut?: boolean };
      answer = failure.timedOut ? late : { status: 0, text: failure.message };
    } finally {
      clearTimeout(timer);
    }
    const latency_ms = Math.round((performance.now() - started) * 10) / 10;
    const byIssuer = (reason: string, timedOut: boolean) => ({ approved: false, decline_code: 'ISSUER_DECLINED', decided_by: 'issuer' as const, reason, latency_ms, timedOut });
    if (answer === late) return byIssuer(`门户未在 ${authorizationTimeoutMs} ms 内答复，发卡行按拒绝处理`, true);
    if (answer.status === 0) return byIssuer(`无法送达门户（${answer.text}），发卡行按拒绝处理`, false);
    if (answer.status < 200 || answer.status > 299) return byIssuer(`门户答复 HTTP ${answer.status}，发卡行按拒绝处理`, false);
    const decision = decisionIn(answer.text);
    if ('missing' in decision) return byIssuer(`${decision.missing}，发卡行按拒绝处理`, false);
    return { ...decision, decided_by: 'portal' as const, reason: null, latency_ms, timedOut: false };
  }

  /**
   * The events that act on an authorisation, made and counted at once (a second call sees the first's
   * effect), then delivered in the card's lane; `settleFirst` settles an approved one in full before a refund.
   */
  function followUpEvents(authorization: Authorization, then: FollowUp, settleFirst: boolean) {
    const events: Array<{ event: SimulatedEvent; amount?: string }> = [];
    const refuse = (why: string) => {
      throw new SimulatorRefusal(`authorisation ${authorization.id}: ${why}`);
    };
    if (authorization.state === 'declined') refuse('was declined: nothing to settle, reverse or refund');
    if (authorization.state === 'reversed') refuse('was reversed already');
    const settle = (amount: string) => {
      authorization.state = 'settled';
      authorization.settled = toMinorUnits(amount);
      events.push({ event: spendingEvent(ISSUER_SPENDING_EVENTS.settled, { authorization_id: authorization.id, card_id: authorization.card_id, amount }), amount });
    };
    if (then.action === 'settle') {
      if (authorization.state !== 'approved') refuse('was settled already');
      settle(then.amount ?? authorization.amount);
    } else if (then.action === 'reverse') {
      if (authorization.state !== 'approved') refuse('was settled already: refund it instead');
      authorization.state = 'reversed';
      events.push({ event: spendingEvent(ISSUER_SPENDING_EVENTS.reversed, { authorization_id: authorization.id, card_id: authorization.card_id }) });
    } else {
      const amount = then.amount;
      if (authorization.state === 'approved') {
        if (!settleFirst) refuse('is not settled yet: settle it before a refund');
        settle(authorization.amount);
      }
      const left = authorization.settled - authorization.refunded;
      if (toMinorUnits(amount) > left) refuse(`a refund of ${amount} is more than what is left to refund (${fromMinorUnits(left)})`);
      authorization.refunded += toMinorUnits(amount);
      events.push({
        event: spendingEvent(ISSUER_SPENDING_EVENTS.refund, { card_id: authorization.card_id, amount, merchant_name: authorization.merchant_name, original_id: authorization.id }),
        amount,
      });
    }
    return events;
  }

  /** Sends the follow-up events in order and answers how each stands after at most followUpWaitMs (none when not waiting). */
  async function sendAll(cardId: string, events: Array<{ event: SimulatedEvent; amount?: string }>, waitForThem: boolean): Promise<SentEvent[]> {
    const deliveries = events.map(({ event }) => sendInLane(cardId, event));
    const states = waitForThem ? await Promise.all(deliveries.map((delivery) => within(delivery, followUpWaitMs))) : deliveries.map(() => 'retrying' as const);
    return events.map(({ event, amount }, index) => ({ id: event.id, type: event.type, ...(amount === undefined ? {} : { amount }), delivery: states[index] as DeliveryState }));
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

    /**
     * A purchase on a card, as a card network brings it to the issuer: the 3-D Secure code first when
     * asked, then the authorisation request to the portal, whose webhook answers the decision within
     * AUTHORIZATION_TIMEOUT_MS (else the issuer declines it, and reverses it in case the portal held
     * the amount after all), then, when approved, what `follow_up` says. A refund settles the purchase in
     * full first. Everything is checked before anything is sent.
     */
    async purchase(request: PurchaseRequest): Promise<PurchaseAnswer> {
      accepting();
      const parsed = purchaseBody.safeParse(request);
      if (!parsed.success) throw new SimulatorRefusal(`not a purchase: ${parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`).join('; ')}`);
      const { card_id, amount, currency, merchant_name, mcc, country, follow_up: then } = parsed.data;
      if (then?.action === 'refund' && toMinorUnits(then.amount) > toMinorUnits(amount)) {
        throw new SimulatorRefusal(`a refund of ${then.amount} is more than the purchase (${amount})`);
      }
      const waitForThem = parsed.data.wait !== false;

      let three_ds: PurchaseAnswer['three_ds'] = null;
      if (parsed.data.three_ds) {
        const code = randomDigits(6);
        const expires_at = new Date(now().getTime() + THREE_DS_VALID_MS).toISOString();
        const otp = spendingEvent(ISSUER_SPENDING_EVENTS.threeDsOtp, { card_id, code, merchant_name, amount, currency, expires_at });
        const delivery = sendInLane(card_id, otp);
        three_ds = { code, expires_at, delivery: waitForThem ? await within(delivery, followUpWaitMs) : 'retrying' };
      }

      const event = spendingEvent(ISSUER_SPENDING_EVENTS.authorizationRequest, { card_id, amount, currency, merchant_name, mcc, country });
      const decision = await askPortal(event);
      const authorization: Authorization = {
        id: event.id,
        card_id,
        amount,
        currency,
        merchant_name,
        state: decision.approved ? 'approved' : 'declined',
        settled: 0n,
        refunded: 0n,
      };
      remember(authorization);
      log.info(
        { authorization_id: event.id, card_id, amount, currency, approved: decision.approved, decline_code: decision.decline_code, decided_by: decision.decided_by, latency_ms: decision.latency_ms },
        'issuer simulator: authorisation decided',
      );
      let followed: SentEvent[] = [];
      if (decision.timedOut) {
        // the portal may still have held the amount after the issuer gave up waiting: that hold is released
        const reversal = spendingEvent(ISSUER_SPENDING_EVENTS.reversed, { authorization_id: event.id, card_id });
        followed = await sendAll(card_id, [{ event: reversal }], waitForThem);
      } else if (decision.approved && then) {
        followed = await sendAll(card_id, followUpEvents(authorization, then, true), waitForThem);
      }
      return {
        authorization_id: event.id,
        card_id,
        amount,
        currency,
        approved: decision.approved,
        decline_code: decision.approved ? null : decision.decline_code,
        decided_by: decision.decided_by,
        reason: decision.reason,
        latency_ms: decision.latency_ms,
        three_ds,
        followed,
      };
    },

    /** Settles, reverses or refunds an earlier authorisation of this simulator. */
    async followUp(authorizationId: string, then: FollowUp, { wait: waitForThem = true }: { wait?: boolean } = {}): Promise<FollowUpAnswer> {
      accepting();
      const parsed = followUpSchema.safeParse(then);
      if (!parsed.success) throw new SimulatorRefusal(`not a follow-up: ${parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`).join('; ')}`);
      const authorization = authorizations.get(authorizationId);
      if (!authorization) throw new SimulatorRefusal(`no authorisation ${authorizationId} is known to this simulator (it remembers those it asked about since it started)`);
      const followed = await sendAll(authorization.card_id, followUpEvents(authorization, parsed.data, false), waitForThem);
      return { authorization_id: authorization.id, card_id: authorization.card_id, followed };
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
