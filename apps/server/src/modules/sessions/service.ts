import type { Role } from '@portal/contract/enums';
import { ErrorCode } from '@portal/contract/errors';
import { TeamErrorCode } from '@portal/contract/team-errors';
import type { Database, Db, Tx } from '../../db/engine.ts';
import { AppError } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { randomToken, sha256 } from '../../lib/crypto.ts';
import type { EventPublisher } from '../events/publisher.ts';
import { PRINCIPAL_CHANGED_CHANNEL, PrincipalCache } from '../../db/principal-cache.ts';
import {
  findSessionByTokenHash,
  insertSession,
  listLiveSessions,
  revokeMemberSessions,
  revokeOwnSession,
  revokeSession,
  type SessionRow,
  touchSession,
} from './store.ts';

export const SESSION_IDLE_MS = 7 * 24 * 60 * 60_000;
/** last_seen_at is written at most this often, so reads stay reads */
const TOUCH_EVERY_MS = 60_000;

export type SessionStage = 'VERIFY' | 'BIND_EMAIL' | 'FULL';

export interface NewSession {
  merchantId: string;
  accountId: string;
  memberId: string;
  stage: SessionStage;
  verifyChannel?: string | null;
  userAgent: string;
  ip: string;
}

/** The member signed in: the person, their role in the account's team, and their own credentials' state. */
export interface SignedInMember {
  id: string;
  role: Role;
  status: string;
  email: string | null;
  phone: string;
  phonePrefix: string;
  /** minor units a month; null: none */
  monthlyBudget: bigint | null;
  trxPasswordSet: boolean;
}

export interface Authenticated {
  session: SessionRow;
  /** the company the member acts for: its wallet, cards and messages */
  account: { id: string; status: string; name: string };
  member: SignedInMember;
}

const isLive = (session: { lastSeenAt: Date }, now: Date) => now.getTime() - session.lastSeenAt.getTime() <= SESSION_IDLE_MS;

/**
 * Sessions: opened with a token answered once (only its hash is kept), looked up per request, ended.
 * On PostgreSQL the callers looked up are kept in memory until anything about them changes (decision
 * 0012), once `followChanges` is hearing the changes.
 */
export function createSessionService({ db, clock, events }: { db: Db; clock: Clock; events: EventPublisher }) {
  const kept = new PrincipalCache<Authenticated>(() => clock.now().getTime());

  /** Opens a session inside the caller's transaction. */
  async function open(tx: Tx, values: NewSession) {
    const token = randomToken();
    const now = clock.now();
    const session = await insertSession(tx, {
      merchantId: values.merchantId,
      accountId: values.accountId,
      memberId: values.memberId,
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

  /** The session behind a bearer token, or the catalogue code that says why there is none. */
  async function authenticate(merchantId: string, token: string | undefined): Promise<Authenticated> {
    if (!token) throw new AppError(ErrorCode.SESSION_MISSING);
    const tokenHash = sha256(token);
    let found: Authenticated | undefined = kept.get(tokenHash);
    const ticket = found ? undefined : kept.ticket();
    found ??= (await findSessionByTokenHash(db, tokenHash)) as Authenticated | undefined;
    if (!found || found.session.merchantId !== merchantId) throw new AppError(ErrorCode.SESSION_UNKNOWN);
    const { session, account, member } = found;
    if (session.revokedAt) throw new AppError(ErrorCode.SESSION_REVOKED);
    const now = clock.now();
    if (now.getTime() - session.lastSeenAt.getTime() > SESSION_IDLE_MS) throw new AppError(ErrorCode.SESSION_EXPIRED);
    if (account.status !== 'ACTIVE') throw new AppError(ErrorCode.ACCOUNT_DISABLED);
    // a suspended or removed member's sessions were ended with it; this holds if one was not
    if (member.status !== 'ACTIVE') throw new AppError(TeamErrorCode.MEMBER_SUSPENDED);
    if (ticket !== undefined) kept.keep(ticket, tokenHash, account.id, found);
    if (now.getTime() - session.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
      await touchSession(db, session.id, now);
      found = { session: { ...session, lastSeenAt: now }, account, member };
      kept.update(tokenHash, found);
    }
    return found;
  }

  return {
    open,
    authenticate,

    /**
     * Keeps callers in memory while every change to them is heard (PostgreSQL); answers how to stop.
     * The embedded database reads the caller on every call.
     */
    /** How many callers this process keeps in memory now. */
    keptCallers: () => kept.size,

    followChanges: async (database: Pick<Database, 'follow'>) => (database.follow ? database.follow(PRINCIPAL_CHANGED_CHANNEL, kept) : async () => {}),

    /** A session moving to a higher stage gets a new token; the old one stops working at once. */
    async promote(tx: Tx, current: SessionRow, stage: SessionStage) {
      await revokeSession(tx, current.id, clock.now(), 'promoted');
      return open(tx, { merchantId: current.merchantId, accountId: current.accountId, memberId: current.memberId, stage, userAgent: current.userAgent, ip: current.ip });
    },

    /** Ends one session; its open streams close once the transaction commits. */
    async end(tx: Tx, session: { id: string; accountId: string }, reason: string) {
      await revokeSession(tx, session.id, clock.now(), reason);
      await events.sessionsEnded(tx, session.accountId, { session: session.id });
    },

    /**
     * Ends every session of the member (but `exceptId`); their open streams close once the
     * transaction commits. Answers how many of them were live (not idle past the expiry).
     */
    async endAll(tx: Tx, member: { id: string; accountId: string }, reason: string, exceptId?: string) {
      const now = clock.now();
      const ended = await revokeMemberSessions(tx, member.id, now, reason, exceptId);
      await events.sessionsEnded(tx, member.accountId, exceptId ? { member: member.id, except: exceptId } : { member: member.id });
      return ended.filter((session) => isLive(session, now)).length;
    },

    /**
     * Ends one live session of the member; false when they have none of that id (another member's
     * session is the same as none). Its open streams close once the transaction commits.
     */
    async endOwn(tx: Tx, member: { id: string; accountId: string }, id: string, reason: string) {
      const now = clock.now();
      if (!(await revokeOwnSession(tx, member.id, id, new Date(now.getTime() - SESSION_IDLE_MS), now, reason))) return false;
      await events.sessionsEnded(tx, member.accountId, { session: id });
      return true;
    },

    /** The member's live sessions: not ended, not idle past the expiry; the most recently active first. */
    live: (memberId: string) => listLiveSessions(db, memberId, new Date(clock.now().getTime() - SESSION_IDLE_MS)),
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
