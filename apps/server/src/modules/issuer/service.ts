import { CardErrorCode } from '@portal/contract/card-errors';
import { z } from 'zod';
import type { Db, Tx } from '../../db/engine.ts';
import { AppError } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { verifyIssuerSignature } from '../../lib/issuer-signature.ts';
import { eventAnswer, recordEvent, saveEventAnswer } from './store.ts';

/** What an issuer sends (shared/design/cards.md): an id, a type, and the type's data. */
const issuerEvent = z.object({
  id: z.string().min(1).max(100),
  type: z.string().min(1).max(100),
  data: z.record(z.string(), z.unknown()).default({}),
});
export type IssuerEvent = z.infer<typeof issuerEvent>;

/**
 * What a handler answers when the issuer waits for a decision in the webhook's response (an
 * authorisation): the body sent back, kept with the event id so that a repeat is answered the same.
 */
export interface IssuerReply {
  reply: Record<string, unknown>;
}
const isReply = (value: unknown): value is IssuerReply =>
  typeof value === 'object' && value !== null && 'reply' in value && typeof (value as IssuerReply).reply === 'object';

/** A module's handling of one type of event, inside the transaction that records the event's id. */
export type IssuerEventHandler = (tx: Tx, event: IssuerEvent) => Promise<unknown>;

/**
 * The card issuer's events: each signed request is checked over its exact bytes, each event id is
 * processed once (a repeat is answered again and changes nothing), and each type goes to the module
 * that handles it. Processing and recording the id are one transaction: an event whose handling
 * fails is not recorded, so the issuer's retry runs it again.
 */
export function createIssuerEventService({ db, clock, secret }: { db: Db; clock: Clock; secret: () => string }) {
  const handlers = new Map<string, IssuerEventHandler>();

  /** `Issuer-Signature` over the exact bytes received, within five minutes (lib/issuer-signature.ts). */
  function verify(rawBody: Buffer | undefined, header: string | undefined) {
    if (!verifyIssuerSignature({ secret: secret(), body: rawBody, header, now: clock.now() })) {
      throw new AppError(CardErrorCode.ISSUER_SIGNATURE_INVALID);
    }
  }

  return {
    /** A module takes the events of one type (one handler a type). */
    on(type: string, handler: IssuerEventHandler) {
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
        const first = await recordEvent(tx, { id: event.id, type: event.type, outcome, receivedAt: clock.now() });
        if (!first) {
          const answer = await eventAnswer(tx, event.id);
          return { id: event.id, duplicate: true, outcome: null, ...(answer ? { reply: answer } : {}) };
        }
        const handled = handler ? await handler(tx, event) : undefined;
        if (isReply(handled)) {
          await saveEventAnswer(tx, event.id, handled.reply);
          return { id: event.id, duplicate: false, outcome, reply: handled.reply };
        }
        return { id: event.id, duplicate: false, outcome };
      });
    },
  };
}

export type IssuerEventService = ReturnType<typeof createIssuerEventService>;
