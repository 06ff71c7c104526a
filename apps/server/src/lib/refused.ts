/**
 * A request an operator made that a rule refuses (a host another merchant owns, a slug taken): the
 * message says why and what to do, and nothing was changed. The operator command line prints it.
 */
export class Refused extends Error {
  override name = 'Refused';
}

/** A unique index turned the write away (SQLSTATE 23505), however deep the driver wrapped it. */
export function isUniqueViolation(error: unknown): boolean {
  for (let at = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; at && depth < 5; depth++) {
    if (at.code === '23505') return true;
    at = at.cause as typeof at;
  }
  return false;
}
