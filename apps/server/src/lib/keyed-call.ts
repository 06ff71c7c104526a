import { sha256 } from './crypto.ts';
import { isUniqueViolation } from './refused.ts';

/**
 * The one idempotency layer of the money calls (docs/decisions/0006-idempotency.md): a request's
 * fingerprint, its first answer replayed under the same key, a conflict under the same key with
 * another request, and two requests racing on one key settled as a repeat of the winner. Where the
 * first answer is kept is the caller's: the ledger's key table for a movement, the row a call makes
 * (a card, a batch) for an opening.
 */

/** The fingerprint a key keeps of its request (bigints as their decimal text, so it reads the same on every engine). */
export const fingerprintOf = (request: unknown) =>
  sha256(JSON.stringify(request, (_key, value) => (typeof value === 'bigint' ? value.toString() : value)));

/** What a key answered first, and the fingerprint of the request it answered. */
export interface Earlier<A> {
  fingerprint: string;
  answer: A;
}

/** The first answer when the same request comes again under its key; `conflict()` when another request uses the key. */
export function replayOf<A>(earlier: Earlier<A>, fingerprint: string, conflict: () => Error): A {
  if (earlier.fingerprint !== fingerprint) throw conflict();
  return earlier.answer;
}

/**
 * A keyed call whose claim of the key is the row it writes (a card, a batch, unique per key): the key
 * is looked at first, so a repeat is answered even when things moved on since; then `work`, which
 * writes the key with its row. Two at once with one key: the loser's unique violation is answered as a
 * repeat of the winner; a violation with no earlier row under the key is `otherwise`'s (rethrown by default).
 */
export async function onceUnderKey<A>(call: {
  fingerprint: string;
  earlier: () => Promise<Earlier<A> | undefined>;
  conflict: () => Error;
  work: () => Promise<A>;
  otherwise?: (error: unknown) => Promise<A>;
}): Promise<A> {
  const first = await call.earlier();
  if (first) return replayOf(first, call.fingerprint, call.conflict);
  try {
    return await call.work();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const other = await call.earlier();
    if (other) return replayOf(other, call.fingerprint, call.conflict);
    if (call.otherwise) return call.otherwise(error);
    throw error;
  }
}
