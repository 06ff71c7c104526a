import { fromMinorUnits, toMinorUnits } from '@portal/contract/money';
import { signIssuerPayload } from '../../lib/issuer-signature.ts';
import { ISSUER_SPENDING_EVENTS } from './port.ts';
import type { FollowUp } from './protocol.ts';
import { type DeliveryLanes, type SimulatedEvent, SimulatorRefusal } from './simulator-delivery.ts';
import type { SimulatorJournal } from './simulator-journal.ts';

/** The authorisations the simulator remembers, to act on later; the oldest are forgotten first. */
const REMEMBERED_AUTHORIZATIONS = 100_000;

/** What the simulator knows of an authorisation it asked about. */
export interface Authorization {
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

/** The authorisations the simulator asked about, kept in its journal at each change. */
export function createAuthorizationBook(journal: SimulatorJournal | undefined) {
  const authorizations = new Map<string, Authorization>();

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

  return { authorizations, keepAuthorization, remember };
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
 * Asks the portal about an authorisation and waits at most `timeoutMs`: a decision in its answer
 * counts; anything else (no answer in time, another status, no decision) is a decline by the issuer.
 */
export function portalAsker(options: {
  ask: ((body: string, signature: string, timeoutMs: number) => Promise<{ status: number; text: string }>) | undefined;
  secret: () => string;
  now: () => Date;
  authorizationTimeoutMs: number;
}) {
  const { ask, secret, now, authorizationTimeoutMs } = options;
  return async function askPortal(event: SimulatedEvent) {
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
  };
}

/**
 * The events that act on an authorisation, made and counted at once (a second call sees the first's
 * effect), then delivered in the card's lane; `settleFirst` settles an approved one in full before a refund.
 */
export function followUpEvents(lanes: Pick<DeliveryLanes, 'spendingEvent'>, authorization: Authorization, then: FollowUp, settleFirst: boolean) {
  const events: Array<{ event: SimulatedEvent; amount?: string }> = [];
  const refuse = (why: string) => {
    throw new SimulatorRefusal(`authorisation ${authorization.id}: ${why}`);
  };
  if (authorization.state === 'declined') refuse('was declined: nothing to settle, reverse or refund');
  if (authorization.state === 'reversed') refuse('was reversed already');
  const settle = (amount: string) => {
    authorization.state = 'settled';
    authorization.settled = toMinorUnits(amount);
    events.push({ event: lanes.spendingEvent(ISSUER_SPENDING_EVENTS.settled, { authorization_id: authorization.id, card_id: authorization.card_id, amount }), amount });
  };
  if (then.action === 'settle') {
    if (authorization.state !== 'approved') refuse('was settled already');
    settle(then.amount ?? authorization.amount);
  } else if (then.action === 'reverse') {
    if (authorization.state !== 'approved') refuse('was settled already: refund it instead');
    authorization.state = 'reversed';
    events.push({ event: lanes.spendingEvent(ISSUER_SPENDING_EVENTS.reversed, { authorization_id: authorization.id, card_id: authorization.card_id }) });
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
      event: lanes.spendingEvent(ISSUER_SPENDING_EVENTS.refund, { card_id: authorization.card_id, amount, merchant_name: authorization.merchant_name, original_id: authorization.id }),
      amount,
    });
  }
  return events;
}

