import { randomUUID } from 'node:crypto';
import { signIssuerPayload } from '../../lib/issuer-signature.ts';
import { randomDigits as cryptoDigits, luhnNumberIn } from '../../lib/luhn.ts';
import { fromMinorUnits, toMinorUnits } from '@portal/contract/money';
import { type CardIssuer, ISSUER_CARD_EVENTS, ISSUER_SPENDING_EVENTS, type IssueRequest } from './port.ts';
import type { SimulatorJournal } from './simulator-journal.ts';
import {
  AUTHORIZATION_TIMEOUT_MS,
  type CardStatusAnswer,
  type DeliveryState,
  type IssuerCardState,
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
 * growing pauses (for a day: deliveryRetryDelays) while the portal does not answer 2xx. Events of one
 * card are delivered in the order they were made. With a journal (simulator-journal.ts) what it
 * accepted and has not delivered yet survives a crash, and `getCard` answers what it knows of a card,
 * as a real issuer's status call does. Card numbers stay inside the product's BIN (well-known test
 * prefixes) and never leave the machine.
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
  /** where what it accepted and has not delivered is kept across restarts; none: in memory only */
  journal?: SimulatorJournal;
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

/** The reason given to the random share of failed issuances (ISSUER_SIM_FAIL_RATE). */
export const RANDOM_FAILURE_REASON = '发卡行风控拒绝开卡（模拟）';

/** How long a purchase's answer waits for the deliveries after the decision (they go on being retried after). */
export const FOLLOW_UP_WAIT_MS = 3_000;

/** How long a 3-D Secure code is valid. */
export const THREE_DS_VALID_MS = 5 * 60_000;

/** The authorisations the simulator remembers, to act on later; the oldest are forgotten first. */
const REMEMBERED_AUTHORIZATIONS = 100_000;

/** What the simulator knows of a card it was asked to open. */
interface SimulatedCard {
  card_id: string;
  /** until then the issuer is still at work on it: the status query answers PENDING */
  ready_at: string;
  outcome: 'ISSUED' | 'FAILED';
  numbers?: { pan: string; cvv: string; exp_month: string; exp_year: string };
  reason?: string;
  state: IssuerCardState;
}

/** An event made and not yet delivered: the card's lane, and when it is due. */
interface QueuedEvent {
  card_id: string;
  due_at: string;
  event: SimulatedEvent;
}

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

  const journal = options.journal;
  /** the reasons the next issuances fail with, one each, first asked first used */
  const failures: string[] = [];
  /** every number issued, so none is issued twice */
  const numbersIssued = new Set<string>();
  /** every card asked for: asked again to open it, the simulator sends the same outcome again */
  const cards = new Map<string, SimulatedCard>();
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

  function newNumbers(bin: string) {
    const month = (Number(randomDigits(2)) % 12) + 1;
    return {
      pan: newCardNumber(bin),
      cvv: randomDigits(3),
      exp_month: String(month).padStart(2, '0'),
      exp_year: String(now().getUTCFullYear() + VALID_YEARS),
    };
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

  function keepCard(card: SimulatedCard) {
    cards.set(card.card_id, card);
    journal?.write({ kind: 'card', card: card as unknown as Record<string, unknown> });
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

  const authorizations = new Map<string, Authorization>();
  const ask = options.ask;
  const followUpWaitMs = options.followUpWaitMs ?? FOLLOW_UP_WAIT_MS;
  const authorizationTimeoutMs = options.authorizationTimeoutMs ?? AUTHORIZATION_TIMEOUT_MS;

  /** Keeps an authorisation as it stands now (written again at each change). */
  function keepAuthorization(authorization: Authorization) {
    journal?.write({ kind: 'authorization', authorization: { ...authorization, settled: String(authorization.settled), refunded: String(authorization.refunded) } });
  }

  /**
   * A new authorisation; past the cap the oldest finished one is forgotten. One still open (approved,
   * neither settled nor reversed) is never forgotten, whatever became of its card: the merchant may
   * settle or reverse it after the card was closed, as on a real network.
   */
  function remember(authorization: Authorization) {
    authorizations.set(authorization.id, authorization);
    keepAuthorization(authorization);
    if (authorizations.size > REMEMBERED_AUTHORIZATIONS) {
      for (const [id, older] of authorizations) {
        if (older.state !== 'approved') {
          authorizations.delete(id);
          break;
        }
      }
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
  async function sendAll(cardId: string, events: Array<{ event: SimulatedEvent; amount?: string }>, waitForThem: boolean, about?: Authorization): Promise<SentEvent[]> {
    const deliveries = events.map(({ event }) => sendInLane(cardId, event));
    // the events are kept first: a crash in between leaves them to be sent, never an authorisation marked done without them
    if (about) keepAuthorization(about);
    const states = waitForThem ? await Promise.all(deliveries.map((delivery) => within(delivery, followUpWaitMs))) : deliveries.map(() => 'retrying' as const);
    return events.map(({ event, amount }, index) => ({ id: event.id, type: event.type, ...(amount === undefined ? {} : { amount }), delivery: states[index] as DeliveryState }));
  }

  /** A lifecycle request: the card's state changes at once in the issuer's books, its event follows. */
  function simpleAction(type: string, state: IssuerCardState) {
    return async (cardId: string) => {
      accepting();
      const id = cardIdOf(cardId);
      const card = cards.get(id);
      if (card?.outcome === 'ISSUED' && card.state !== 'CLOSED') keepCard({ ...card, state });
      schedule(id, type, { card_id: id });
    };
  }

  /** What the status query answers of a card now. */
  function statusOf(cardId: string): CardStatusAnswer {
    const card = cards.get(cardId);
    if (!card) return { status: 'UNKNOWN', card_id: cardId };
    if (now().getTime() < Date.parse(card.ready_at)) return { status: 'PENDING', card_id: cardId };
    if (card.outcome === 'FAILED' || !card.numbers) return { status: 'FAILED', card_id: cardId, reason: card.reason ?? RANDOM_FAILURE_REASON };
    return { status: 'ISSUED', card_id: cardId, ...card.numbers, state: card.state };
  }

  /** The event that tells a card's outcome. */
  function outcomeEvent(card: SimulatedCard): [string, Record<string, unknown>] {
    return card.outcome === 'ISSUED' && card.numbers
      ? [ISSUER_CARD_EVENTS.issued, { card_id: card.card_id, ...card.numbers }]
      : [ISSUER_CARD_EVENTS.failed, { card_id: card.card_id, reason: card.reason ?? RANDOM_FAILURE_REASON }];
  }

  /**
   * Reads the journal back: the cards, authorisations and fail-nexts as they stood, and the events not
   * delivered, which go out again in the order they were made (each when due, at once if overdue).
   * The journal is then rewritten with only what is still live, so it does not grow without end.
   */
  function resume() {
    if (!journal) return;
    const { records, unreadable } = journal.read();
    if (unreadable > 0) log.warn({ unreadable }, 'issuer simulator: records of its journal could not be read (cut short, or written with another secret) and were skipped');
    for (const record of records) {
      if (record.kind === 'card') {
        const card = record.card as unknown as SimulatedCard;
        cards.set(card.card_id, card);
        if (card.numbers) numbersIssued.add(card.numbers.pan);
      } else if (record.kind === 'event') {
        const queued = record.queued as unknown as QueuedEvent;
        undelivered.set(queued.event.id, queued);
      } else if (record.kind === 'done') {
        undelivered.delete(record.id);
      } else if (record.kind === 'authorization') {
        const kept = record.authorization as unknown as Authorization & { settled: string; refunded: string };
        authorizations.delete(kept.id);
        authorizations.set(kept.id, { ...kept, settled: BigInt(kept.settled), refunded: BigInt(kept.refunded) });
      } else if (record.kind === 'fail-next') {
        failures.splice(0, failures.length, ...record.reasons);
      }
    }
    journal.compact([
      ...[...cards.values()].map((card) => ({ kind: 'card' as const, card: card as unknown as Record<string, unknown> })),
      ...[...authorizations.values()].map((a) => ({ kind: 'authorization' as const, authorization: { ...a, settled: String(a.settled), refunded: String(a.refunded) } })),
      ...(failures.length ? [{ kind: 'fail-next' as const, reasons: [...failures] }] : []),
      ...[...undelivered.values()].map((queued) => ({ kind: 'event' as const, queued: queued as unknown as Record<string, unknown> })),
    ]);
    if (undelivered.size > 0) log.info({ events: undelivered.size }, 'issuer simulator: delivering the events it had not delivered before it stopped');
    for (const queued of undelivered.values()) void enqueue(queued, Math.max(0, Date.parse(queued.due_at) - now().getTime()));
  }
  resume();

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
      const earlier = cards.get(cardId);
      if (earlier) {
        // asked again (the portal did not hear the first answer): the same outcome, not a second card
        schedule(cardId, ...outcomeEvent(earlier));
        return;
      }
      const fromQueue = failures.length > 0;
      const reason = failures.shift() ?? (random() < failRate ? RANDOM_FAILURE_REASON : undefined);
      if (fromQueue) journal?.write({ kind: 'fail-next', reasons: [...failures] });
      const ready_at = new Date(now().getTime() + delayMs).toISOString();
      const card: SimulatedCard =
        reason !== undefined
          ? { card_id: cardId, ready_at, outcome: 'FAILED', reason, state: 'CLOSED' }
          : { card_id: cardId, ready_at, outcome: 'ISSUED', numbers: newNumbers(bin), state: 'ACTIVE' };
      keepCard(card);
      schedule(cardId, ...outcomeEvent(card));
    },
    freeze: simpleAction(ISSUER_CARD_EVENTS.frozen, 'FROZEN'),
    unfreeze: simpleAction(ISSUER_CARD_EVENTS.unfrozen, 'ACTIVE'),
    close: simpleAction(ISSUER_CARD_EVENTS.closed, 'CLOSED'),

    /** The status query: what the issuer knows of the card now (protocol.ts cardStatusAnswer). */
    async getCard(cardId: string): Promise<CardStatusAnswer> {
      accepting();
      return statusOf(cardIdOf(cardId));
    },

    /** The next issuance fails with this reason (each call fails one more); answers how many will. */
    failNext(reason: string) {
      accepting();
      const text = typeof reason === 'string' ? reason.trim() : '';
      if (!text || text.length > 200) throw new SimulatorRefusal('reason must be 1 to 200 characters');
      failures.push(text);
      journal?.write({ kind: 'fail-next', reasons: [...failures] });
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
        followed = await sendAll(card_id, followUpEvents(authorization, then, true), waitForThem, authorization);
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
      if (!authorization) throw new SimulatorRefusal(`no authorisation ${authorizationId} is known to this simulator`);
      const followed = await sendAll(authorization.card_id, followUpEvents(authorization, parsed.data, false), waitForThem, authorization);
      return { authorization_id: authorization.id, card_id: authorization.card_id, followed };
    },

    /** Resolves once every scheduled delivery, retries included, has finished (or been given up). */
    async settled() {
      while (pending.size > 0) await Promise.all([...pending]);
    },

    /** Accepts nothing more, stops delivering (what is in the journal goes out at the next start), and waits for a delivery under way. */
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
