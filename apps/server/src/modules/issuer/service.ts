import { CardErrorCode } from '@portal/contract/card-errors';
import { z } from 'zod';
import type { Db, Tx } from '../../db/engine.ts';
import { AppError } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { verifyIssuerSignature } from '../../lib/issuer-signature.ts';
import { EVENT_RECORD_PLACEHOLDERS, type EventRecord } from './event-record.ts';
import { recordEvent } from './store.ts';

export type { EventRecord };

/** What an issuer sends (shared/design/cards.md): an id, a type, and the type's data. */
const issuerEvent = z.object({
  id: z.string().min(1).max(100),
  type: z.string().min(1).max(100),
  data: z.record(z.string(), z.unknown()).default({}),
});
export type IssuerEvent = z.infer<typeof issuerEvent>;

/** What the issuer is told when it waits for a decision in the webhook's response (an authorisation): the body sent back. */
export interface IssuerReply {
  reply: Record<string, unknown>;
}

/** A module's handling of one type of event, inside the transaction that records the event's id. */
export type IssuerEventHandler = (tx: Tx, event: IssuerEvent) => Promise<unknown>;

/**
 * The handling of an event whose decision the issuer waits for. `decide` records the event's id (see
 * EventRecord) and answers the decision, or null when the id was recorded before; `repeat` answers a
 * repeated id from what the first `decide` wrote, so a repeat is answered the same and the answer is
 * kept nowhere else. An event the handler finds nothing of ours in may be answered without telling
 * whether its id was new: its answer is the same either way.
 */
export interface IssuerDecision {
  decide(tx: Tx, event: IssuerEvent, record: EventRecord): Promise<IssuerReply | null>;
  repeat(tx: Tx, event: IssuerEvent): Promise<IssuerReply>;
}

export type IssuerEventHandling = IssuerEventHandler | IssuerDecision;

/**
 * The card issuer's events: each signed request is checked over its exact bytes, each event id is
 * processed once (a repeat is answered again and changes nothing), and each type goes to the module
 * that handles it. Processing and recording the id are one transaction: an event whose handling
 * fails is not recorded, so the issuer's retry runs it again.
 */
export function createIssuerEventService({ db, clock, secret }: { db: Db; clock: Clock; secret: () => string }) {
  const handlers = new Map<string, IssuerEventHandling>();

  /** `Issuer-Signature` over the exact bytes received, within five minutes (lib/issuer-signature.ts). */
  function verify(rawBody: Buffer | undefined, header: string | undefined) {
    if (!verifyIssuerSignature({ secret: secret(), body: rawBody, header, now: clock.now() })) {
      throw new AppError(CardErrorCode.ISSUER_SIGNATURE_INVALID);
    }
  }

  return {
    /** A module takes the events of one type (one handler a type). */
    on(type: string, handler: IssuerEventHandling) {
      if (handlers.has(type)) throw new Error(`issuer: ${type} has a handler already`);
      handlers.set(type, handler);
    },

    /**
     * Checks the signature, then processes the event once. Answers what the issuer is told: the id,
     * whether it was a repeat, and whether a module handled its type; and `reply`, the body of a
     * handler that answers a decision (the same again for a repeat).
     */
    async receive(rawBody: Buffer | undefined, signature: string | undefined, body: unknown) {
      verify(rawBody, signature);
      const parsed = issuerEvent.safeParse(body);
      if (!parsed.success) throw new AppError(CardErrorCode.ISSUER_EVENT_INVALID);
      const event = parsed.data;
      const handler = handlers.get(event.type);
      return db.transaction(async (tx) => {
        const outcome = handler ? 'processed' : 'ignored';
        const values = { id: event.id, type: event.type, outcome, receivedAt: clock.now() };
        if (handler && typeof handler !== 'function') {
          const names = EVENT_RECORD_PLACEHOLDERS;
          const record: EventRecord = {
            values: { [names.id]: values.id, [names.type]: values.type, [names.outcome]: values.outcome, [names.receivedAt]: values.receivedAt },
            alone: (on) => recordEvent(on, values),
          };
          const decided = await handler.decide(tx, event, record);
          if (decided) return { id: event.id, duplicate: false, outcome, reply: decided.reply };
          return { id: event.id, duplicate: true, outcome: null, reply: (await handler.repeat(tx, event)).reply };
        }
        if (!(await recordEvent(tx, values))) return { id: event.id, duplicate: true, outcome: null };
        if (handler) await handler(tx, event);
        return { id: event.id, duplicate: false, outcome };
      });
    },
  };
}

export type IssuerEventService = ReturnType<typeof createIssuerEventService>;
