import { toMinorUnits } from '@portal/contract/money';
import { randomDigits as cryptoDigits, luhnNumberIn } from '../../lib/luhn.ts';
import { type CardIssuer, ISSUER_CARD_EVENTS, ISSUER_SPENDING_EVENTS, type IssueRequest } from './port.ts';
import {
  AUTHORIZATION_TIMEOUT_MS,
  type CardStatusAnswer,
  type DeliveryState,
  type FollowUp,
  type FollowUpAnswer,
  followUp as followUpSchema,
  type IssuerCardState,
  type PurchaseAnswer,
  type PurchaseRequest,
  purchaseBody,
  type SentEvent,
} from './protocol.ts';
import { type Authorization, createAuthorizationBook, followUpEvents, portalAsker } from './simulator-authorizations.ts';
import {
  createDeliveryLanes,
  DELIVERY_RETRY_DELAYS_MS,
  type QueuedEvent,
  type SimulatedEvent,
  type SimulatorLog,
  SimulatorRefusal,
} from './simulator-delivery.ts';
import type { SimulatorJournal } from './simulator-journal.ts';

export { DELIVERY_RETRY_DELAYS_MS, deliveryRetryDelays, type SimulatedEvent, type SimulatorLog, SimulatorRefusal } from './simulator-delivery.ts';


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

/** The reason given to the random share of failed issuances (ISSUER_SIM_FAIL_RATE). */
export const RANDOM_FAILURE_REASON = '发卡行风控拒绝开卡（模拟）';

/** How long a purchase's answer waits for the deliveries after the decision (they go on being retried after). */
export const FOLLOW_UP_WAIT_MS = 3_000;

/** How long a 3-D Secure code is valid. */
export const THREE_DS_VALID_MS = 5 * 60_000;

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

/** How many years ahead a new card expires. */
const VALID_YEARS = 3;

const quiet: SimulatorLog = { info() {}, warn() {}, error() {} };

export function createIssuerSimulator(options: IssuerSimulatorOptions) {
  const { secret, deliver, delayMs, failRate } = options;
  const random = options.random ?? Math.random;
  const randomDigits = options.randomDigits ?? cryptoDigits;
  const now = options.now ?? (() => new Date());
  const log = options.log ?? quiet;
  if (!Number.isFinite(delayMs) || delayMs < 0) throw new Error('issuer simulator: delayMs must be 0 or more');
  if (!(failRate >= 0 && failRate <= 1)) throw new Error('issuer simulator: failRate must be between 0 and 1');

  const journal = options.journal;
  const lanes = createDeliveryLanes({ secret, deliver, now, log, retryDelays: options.retryDelaysMs ?? DELIVERY_RETRY_DELAYS_MS, journal, delayMs });
  const { undelivered, accepting, enqueue, schedule, spendingEvent, sendInLane, within } = lanes;
  /** the reasons the next issuances fail with, one each, first asked first used */
  const failures: string[] = [];
  /** every number issued, so none is issued twice */
  const numbersIssued = new Set<string>();
  /** every card asked for: asked again to open it, the simulator sends the same outcome again */
  const cards = new Map<string, SimulatedCard>();

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

  function keepCard(card: SimulatedCard) {
    cards.set(card.card_id, card);
    journal?.write({ kind: 'card', card: card as unknown as Record<string, unknown> });
  }

  const { authorizations, keepAuthorization, remember } = createAuthorizationBook(journal);
  const followUpWaitMs = options.followUpWaitMs ?? FOLLOW_UP_WAIT_MS;
  const askPortal = portalAsker({ ask: options.ask, secret, now, authorizationTimeoutMs: options.authorizationTimeoutMs ?? AUTHORIZATION_TIMEOUT_MS });

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
        followed = await sendAll(card_id, followUpEvents(lanes, authorization, then, true), waitForThem, authorization);
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
      const followed = await sendAll(authorization.card_id, followUpEvents(lanes, authorization, parsed.data, false), waitForThem, authorization);
      return { authorization_id: authorization.id, card_id: authorization.card_id, followed };
    },

    /** Resolves once every scheduled delivery, retries included, has finished (or been given up). */
    settled: () => lanes.settled(),

    /** Accepts nothing more, stops delivering (what is in the journal goes out at the next start), and waits for a delivery under way. */
    stop: () => lanes.stop(),
  } satisfies CardIssuer & Record<string, unknown>;
}

export type IssuerSimulator = ReturnType<typeof createIssuerSimulator>;
