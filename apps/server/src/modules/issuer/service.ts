import { createHmac, timingSafeEqual } from 'node:crypto';
import { ErrorCode } from '@portal/contract/errors';
import { z } from 'zod';
import type { Db, Tx } from '../../db/engine.ts';
import { AppError } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { recordEvent } from './store.ts';

/** How old a signature may be: older ones are refused, so a captured request cannot be sent again later. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** What an issuer sends (shared/design/cards.md): an id, a type, and the type's data. */
const issuerEvent = z.object({
  id: z.string().min(1).max(100),
  type: z.string().min(1).max(100),
  data: z.record(z.string(), z.unknown()).default({}),
});
export type IssuerEvent = z.infer<typeof issuerEvent>;

/** A module's handling of one type of event, inside the transaction that records the event's id. */
export type IssuerEventHandler = (tx: Tx, event: IssuerEvent) => Promise<unknown>;

/** `Issuer-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">` (several v1 while a secret is rotated). */
export function signatureHeader(secret: string, body: Buffer | string, at: Date) {
  const t = Math.floor(at.getTime() / 1000);
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex')}`;
}

/**
 * The card issuer's events: each signed request is checked over its exact bytes, each event id is
 * processed once (a repeat is answered again and changes nothing), and each type goes to the module
 * that handles it. Processing and recording the id are one transaction: an event whose handling
 * fails is not recorded, so the issuer's retry runs it again.
 */
export function createIssuerEventService({ db, clock, secret }: { db: Db; clock: Clock; secret: () => string }) {
  const handlers = new Map<string, IssuerEventHandler>();

  function verify(rawBody: Buffer | undefined, header: string | undefined) {
    const refuse = () => new AppError(ErrorCode.ISSUER_SIGNATURE_INVALID);
    if (!rawBody || !header) throw refuse();
    const parts = header.split(',').map((part) => part.trim().split('='));
    const t = parts.find(([name]) => name === 't')?.[1];
    const signatures = parts.filter(([name, value]) => name === 'v1' && value && /^[0-9a-f]{64}$/.test(value)).map(([, value]) => value as string);
    if (!t || !/^\d{1,12}$/.test(t) || signatures.length === 0) throw refuse();
    if (Math.abs(clock.now().getTime() / 1000 - Number(t)) > SIGNATURE_TOLERANCE_SECONDS) throw refuse();
    const expected = createHmac('sha256', secret()).update(`${t}.`).update(rawBody).digest();
    if (!signatures.some((signature) => timingSafeEqual(Buffer.from(signature, 'hex'), expected))) throw refuse();
  }

  return {
    /** A module takes the events of one type (one handler a type). */
    on(type: string, handler: IssuerEventHandler) {
      if (handlers.has(type)) throw new Error(`issuer: ${type} has a handler already`);
      handlers.set(type, handler);
    },

    /**
     * Checks the signature, then processes the event once. Answers what the issuer is told: the id,
     * whether it was a repeat, and whether a module handled its type.
     */
    async receive(rawBody: Buffer | undefined, signature: string | undefined, body: unknown) {
      verify(rawBody, signature);
      const parsed = issuerEvent.safeParse(body);
      if (!parsed.success) throw new AppError(ErrorCode.ISSUER_EVENT_INVALID);
      const event = parsed.data;
      const handler = handlers.get(event.type);
      return db.transaction(async (tx) => {
        const outcome = handler ? 'processed' : 'ignored';
        const first = await recordEvent(tx, { id: event.id, type: event.type, outcome, receivedAt: clock.now() });
        if (!first) return { id: event.id, duplicate: true, outcome: null };
        if (handler) await handler(tx, event);
        return { id: event.id, duplicate: false, outcome };
      });
    },
  };
}

export type IssuerEventService = ReturnType<typeof createIssuerEventService>;
