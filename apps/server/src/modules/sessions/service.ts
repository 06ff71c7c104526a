import { ErrorCode } from '@portal/contract/errors';
import type { Db, Tx } from '../../db/engine.ts';
import { AppError } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { randomToken, sha256 } from '../../lib/crypto.ts';
import { findSessionByTokenHash, insertSession, revokeSession, type SessionRow, touchSession } from './store.ts';

export const SESSION_IDLE_MS = 7 * 24 * 60 * 60_000;
/** last_seen_at is written at most this often, so reads stay reads */
const TOUCH_EVERY_MS = 60_000;

export type SessionStage = 'VERIFY' | 'BIND_EMAIL' | 'FULL';

export interface NewSession {
  merchantId: string;
  accountId: string;
  stage: SessionStage;
  verifyChannel?: string | null;
  userAgent: string;
  ip: string;
}

/** Opens a session; the token is answered once and only its hash is kept. */
export async function openSession(tx: Tx, clock: Clock, values: NewSession) {
  const token = randomToken();
  const now = clock.now();
  const session = await insertSession(tx, {
    merchantId: values.merchantId,
    accountId: values.accountId,
    tokenHash: sha256(token),
    stage: values.stage,
    verifyChannel: values.verifyChannel ?? null,
    userAgent: values.userAgent.slice(0, 300),
    ip: values.ip,
    createdAt: now,
    lastSeenAt: now,
  });
  return { token, session };
}

/** A session moving to a higher stage gets a new token; the old one stops working at once. */
export async function promoteSession(tx: Tx, clock: Clock, current: SessionRow, stage: SessionStage) {
  await revokeSession(tx, current.id, clock.now(), 'promoted');
  return openSession(tx, clock, {
    merchantId: current.merchantId,
    accountId: current.accountId,
    stage,
    userAgent: current.userAgent,
    ip: current.ip,
  });
}

export interface Authenticated {
  session: SessionRow;
  account: { id: string; status: string; email: string | null; phone: string; phonePrefix: string };
}

/** The session behind a bearer token, or the catalogue code that says why there is none. */
export async function authenticate(db: Db, clock: Clock, merchantId: string, token: string | undefined): Promise<Authenticated> {
  if (!token) throw new AppError(ErrorCode.SESSION_MISSING);
  const found = await findSessionByTokenHash(db, sha256(token));
  if (!found || found.session.merchantId !== merchantId) throw new AppError(ErrorCode.SESSION_UNKNOWN);
  const { session, account } = found;
  if (session.revokedAt) throw new AppError(ErrorCode.SESSION_REVOKED);
  const now = clock.now();
  if (now.getTime() - session.lastSeenAt.getTime() > SESSION_IDLE_MS) throw new AppError(ErrorCode.SESSION_EXPIRED);
  if (account.status !== 'ACTIVE') throw new AppError(ErrorCode.ACCOUNT_DISABLED);
  if (now.getTime() - session.lastSeenAt.getTime() > TOUCH_EVERY_MS) await touchSession(db, session.id, now);
  return { session, account };
}

export function bearerToken(header: string | undefined) {
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
  return match?.[1];
}
