import { ErrorCode } from '@portal/contract/errors';
import { fromMinorUnits, toMinorUnits } from '@portal/contract/money';
import { type InvitationBody, ROLE_LABELS, type Role, spendsWithinBudget, teamLimits } from '@portal/contract/team';
import { teamCalls } from '@portal/contract/api/team';
import { TeamErrorCode } from '@portal/contract/team-errors';
import type { z } from 'zod';
import type { invitationBody } from '@portal/contract/team';
import type { Config } from '../../config.ts';
import type { Db, Tx } from '../../db/engine.ts';
import type { Caller } from '../../http/caller.ts';
import { traceWithin, untraceWithin } from '../../http/call-trace.ts';
import { AppError } from '../../http/errors.ts';
import { refusedOn } from '../../http/field-refusal.ts';
import type { Clock } from '../../lib/clock.ts';
import { randomToken, sha256 } from '../../lib/crypto.ts';
import { maskEmail, maskPhone } from '../../lib/mask.ts';
import { isUniqueViolation } from '../../lib/refused.ts';
import { isUuid } from '../../lib/uuid.ts';
import type { MailSender } from '../../providers/mail/port.ts';
import type { SmsSender } from '../../providers/sms/port.ts';
import type { MerchantRow, MerchantService } from '../merchants/service.ts';
import type { Authenticated } from '../sessions/service.ts';
import { invitationMail, invitationSms } from './invitation-notices.ts';
import {
  acceptInvitation,
  addressTaken,
  deleteInvitation,
  findByTokenHash,
  findPendingTo,
  insertInvitation,
  type InvitationRow,
  listPending,
  lockAccount,
  lockActiveInviter,
  revokeExpiredTo,
  revokeInvitation,
  sentSince,
} from './invitation-store.ts';

export type { InvitationRow } from './invitation-store.ts';

/** How many invitations an account may send in 24 hours, in all and to one address. */
export const invitationPolicy = { perAccountPerDay: 50, perAddressPerDay: 5, dayMs: 24 * 60 * 60_000 } as const;

const HOUR_MS = 60 * 60_000;

/** The inviter as the team and the invitee read them: 138****8000（所有者） */
export const inviterLabel = (phone: string, role: string) => `${maskPhone(phone)}（${ROLE_LABELS[role as Role] ?? role}）`;

const budgetText = (units: bigint | null) => (units === null ? null : fromMinorUnits(units));

const waitRefusal = (now: Date, oldest: Date | null) => {
  const seconds = Math.max(1, Math.ceil(((oldest ?? now).getTime() + invitationPolicy.dayMs - now.getTime()) / 1000));
  return new AppError(ErrorCode.RATE_LIMITED, { params: { seconds }, data: { retry_after: seconds } });
};

interface InvitationDeps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'production' | 'port'>;
  merchants: Pick<MerchantService, 'mailLinkOrigin'>;
  sms: SmsSender;
  mail: MailSender;
}

/**
 * Invitations to a team (shared/design/growing-customers.md §1): sent by e-mail or SMS with a
 * single-use link valid 72 hours (only the token's SHA-256 is kept), listed, revoked, previewed by the
 * sign-up page, and used by sign-up, which makes the invitee a member of that team.
 */
export function createInvitationService({ db, clock, config, merchants, sms, mail }: InvitationDeps) {
  /** The invitation of this merchant behind a token, if it can still be used; else the refusal that says why not. */
  async function live(merchantId: string, token: string) {
    const found = await findByTokenHash(db, merchantId, sha256(token));
    if (!found) throw new AppError(TeamErrorCode.INVITATION_INVALID);
    const { invitation } = found;
    if (invitation.acceptedAt) throw new AppError(TeamErrorCode.INVITATION_USED);
    if (invitation.revokedAt) throw new AppError(TeamErrorCode.INVITATION_REVOKED);
    if (invitation.expiresAt.getTime() <= clock.now().getTime()) throw new AppError(TeamErrorCode.INVITATION_EXPIRED);
    return found;
  }

  return {
    /** POST /team/invitations */
    async invite(merchant: MerchantRow, auth: Authenticated, body: z.output<typeof invitationBody>, caller: Pick<Caller, 'log'>) {
      // a budget binds only a MEMBER's cards
      if (typeof body.monthly_budget === 'string' && !spendsWithinBudget(body.role)) throw refusedOn(TeamErrorCode.BUDGET_MEMBER_ONLY, 'monthly_budget');
      const to = body.email
        ? { email: body.email.toLowerCase(), phonePrefix: null, phone: null }
        : { email: null, phonePrefix: body.phone_info?.phone_prefix ?? '86', phone: body.phone_info?.phone ?? '' };
      const address = to.email ?? `+${to.phonePrefix} ${to.phone}`;
      const now = clock.now();
      const token = randomToken();
      const origin = await merchants.mailLinkOrigin(config, merchant, caller.log);
      const created = await db
        .transaction(async (tx) => {
          // the inviter's row before the account's, in the order a removal or suspension takes them
          if (!(await lockActiveInviter(tx, auth.member.id))) throw new AppError(TeamErrorCode.MEMBER_SUSPENDED);
          await lockAccount(tx, auth.account.id);
          if (await addressTaken(tx, merchant.id, to)) throw new AppError(TeamErrorCode.ALREADY_IN_TEAM);
          const dayAgo = new Date(now.getTime() - invitationPolicy.dayMs);
          const sent = await sentSince(tx, auth.account.id, dayAgo);
          if (sent.n >= invitationPolicy.perAccountPerDay) throw waitRefusal(now, sent.oldest);
          const toAddress = await sentSince(tx, auth.account.id, dayAgo, address);
          if (toAddress.n >= invitationPolicy.perAddressPerDay) throw waitRefusal(now, toAddress.oldest);
          await revokeExpiredTo(tx, auth.account.id, address, now);
          if (await findPendingTo(tx, auth.account.id, address)) throw new AppError(TeamErrorCode.INVITATION_PENDING);
          const invitation = await insertInvitation(tx, {
            merchantId: merchant.id,
            accountId: auth.account.id,
            tokenHash: sha256(token),
            channel: to.email ? 'EMAIL' : 'SMS',
            address,
            ...to,
            role: body.role,
            monthlyBudget: body.monthly_budget ? toMinorUnits(body.monthly_budget) : null,
            invitedBy: auth.member.id,
            createdAt: now,
            expiresAt: new Date(now.getTime() + teamLimits.invitationHours * HOUR_MS),
          });
          await traceWithin(tx, teamCalls.invite, null);
          return invitation;
        })
        .catch((error: unknown) => {
          if (isUniqueViolation(error)) throw new AppError(TeamErrorCode.INVITATION_PENDING);
          throw error;
        });
      const link = `${origin}/sign-up?invitation=${encodeURIComponent(token)}`;
      const words = { merchantName: merchant.name, teamName: auth.account.name, inviter: inviterLabel(auth.member.phone, auth.member.role), role: ROLE_LABELS[body.role], link };
      try {
        if (to.email) await mail.send({ to: to.email, ...invitationMail(words) });
        else {
          const invitation = { inviter: words.inviter, team: words.teamName, role: words.role, link };
          await sms.send({ phone: to.phone ?? '', phonePrefix: to.phonePrefix ?? '86', purpose: 'TEAM_INVITATION', invitation, text: invitationSms(words) });
        }
      } catch (error) {
        // an invitation nobody got is no invitation: the address may be invited again at once, and the log does not tell of it
        await db.transaction(async (tx) => {
          await deleteInvitation(tx, created.id);
          await untraceWithin(tx, teamCalls.invite);
        });
        throw error;
      }
      return { id: created.id, expires_at: created.expiresAt.toISOString() };
    },

    /** GET /team/invitations: the pending ones, newest first. */
    async list(accountId: string) {
      const rows = await listPending(db, accountId, clock.now());
      return {
        items: rows.map(({ invitation, inviterPhone, inviterRole }) => ({
          id: invitation.id,
          sent_to: invitation.email ? invitation.email : `+${invitation.phonePrefix} ${maskPhone(invitation.phone ?? '')}`,
          channel: invitation.channel as 'EMAIL' | 'SMS',
          role: invitation.role as Role,
          monthly_budget: budgetText(invitation.monthlyBudget),
          invited_by: inviterLabel(inviterPhone, inviterRole),
          created_at: invitation.createdAt.toISOString(),
          expires_at: invitation.expiresAt.toISOString(),
        })),
      };
    },

    /** DELETE /team/invitations/{id} */
    async revoke(accountId: string, id: string) {
      if (!isUuid(id)) throw new AppError(TeamErrorCode.INVITATION_NOT_FOUND);
      await db.transaction(async (tx) => {
        if (!(await revokeInvitation(tx, accountId, id, clock.now()))) throw new AppError(TeamErrorCode.INVITATION_NOT_FOUND);
        await traceWithin(tx, teamCalls.revokeInvitation, null);
      });
    },

    /** GET /team/invitations/by-token/{token}: what the sign-up page shows. */
    async preview(merchantId: string, token: string) {
      const { invitation, accountName, inviterPhone, inviterRole } = await live(merchantId, token);
      return {
        account_name: accountName,
        role: invitation.role as Role,
        invited_by: inviterLabel(inviterPhone, inviterRole),
        phone_masked: invitation.phone ? maskPhone(invitation.phone) : null,
        email: invitation.email ? maskEmail(invitation.email) : null,
        expires_at: invitation.expiresAt.toISOString(),
      };
    },

    /** Sign-up with an invitation: the live invitation of this merchant behind the token, or its refusal. */
    forSignUp: async (merchantId: string, token: string): Promise<InvitationRow> => (await live(merchantId, token)).invitation,

    /**
     * Uses the invitation up for the member who joined by it, inside sign-up's transaction: only one
     * of two sign-ups at once gets it; the other is refused (and its transaction rolled back).
     */
    async accept(tx: Tx, invitation: InvitationRow, memberId: string) {
      if (!(await acceptInvitation(tx, invitation.id, memberId, clock.now()))) throw new AppError(TeamErrorCode.INVITATION_USED);
    },
  };
}

export type InvitationService = ReturnType<typeof createInvitationService>;
export type { InvitationBody };
