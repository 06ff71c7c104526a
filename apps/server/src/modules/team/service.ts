import { cardActionsFor, type FrozenBy } from '@portal/contract/cards';
import type { CardStatus } from '@portal/contract/enums';
import { fromMinorUnits, toMinorUnits } from '@portal/contract/money';
import { type MemberStatus, type Role, spendsWithinBudget, teamLimits, type TeamMember } from '@portal/contract/team';
import { teamCalls } from '@portal/contract/api/team';
import { TeamErrorCode } from '@portal/contract/team-errors';
import type { z } from 'zod';
import type { updateMemberBody } from '@portal/contract/team';
import type { Db, Tx } from '../../db/engine.ts';
import { traceWithin } from '../../http/call-trace.ts';
import { AppError } from '../../http/errors.ts';
import { refusedOn } from '../../http/field-refusal.ts';
import { permissionDenied } from '../../http/principal.ts';
import type { Clock } from '../../lib/clock.ts';
import { maskPhone } from '../../lib/mask.ts';
import { isUuid } from '../../lib/uuid.ts';
import { budgetMonth } from '../budgets/service.ts';
import { type CardService, cardName, holderLabel } from '../cards/service.ts';
import type { MessageService } from '../messages/service.ts';
import type { Authenticated, SessionService } from '../sessions/service.ts';
import { revokeInvitedBy } from './invitation-store.ts';
import { budgetUsed, countHeld, findMember, findOwner, listMembers, mailboxesOf, renameAccount, rolesOf, type TeamMemberRow, updateMember } from './store.ts';
import { teamNotices } from './team-notices.ts';

export { createInvitationService, type InvitationService } from './invitation-service.ts';


const budgetText = (units: bigint | null) => (units === null ? null : fromMinorUnits(units));

/** A member of the team as GET /team/members answers them. */
function memberItem(row: TeamMemberRow, used: bigint | string, cardsHeld: number, meId: string): TeamMember {
  return {
    id: row.id,
    phone_masked: maskPhone(row.phone),
    email: row.email,
    role: row.role as Role,
    status: row.status as MemberStatus,
    monthly_budget: budgetText(row.monthlyBudget),
    budget_used: fromMinorUnits(used),
    budget_currency: teamLimits.budgetCurrency,
    cards_held: cardsHeld,
    joined_at: row.createdAt.toISOString(),
    is_me: row.id === meId,
  };
}

const notFound = () => new AppError(TeamErrorCode.MEMBER_NOT_FOUND);

interface TeamDeps {
  db: Db;
  clock: Clock;
  sessions: Pick<SessionService, 'endAll'>;
  cards: Pick<CardService, 'giveTo' | 'itemOf' | 'handOverAll' | 'changeStatus'>;
  messages: Pick<MessageService, 'send'>;
}

/**
 * The team (shared/design/growing-customers.md §1): its members, their roles, budgets and status,
 * removing one, handing ownership over, the company's name, and who holds a card. Every call reaches
 * the signed-in member's own account only; the owner is changed only by handing ownership over.
 */
export function createTeamService({ db, clock, sessions, cards, messages }: TeamDeps) {
  /** Another member of the caller's team, locked, that the caller may change: not themselves, not the owner. */
  async function changeable(tx: Tx, auth: Authenticated, id: string) {
    const target = isUuid(id) ? await findMember(tx, auth.account.id, id, { lock: true }) : undefined;
    if (!target) throw notFound();
    if (target.id === auth.member.id) throw new AppError(TeamErrorCode.NOT_YOURSELF);
    if (target.role === 'OWNER') throw new AppError(TeamErrorCode.LAST_OWNER);
    return target;
  }

  /** The account's card goes to an active member of the same team; answers the card row once committed. */
  function giveCard(merchantId: string, accountId: string, cardId: string, holderId: string) {
    return db.transaction(async (tx) => {
      const holder = isUuid(holderId) ? await findMember(tx, accountId, holderId, { lock: true }) : undefined;
      if (holder?.status !== 'ACTIVE') throw new AppError(TeamErrorCode.HOLDER_INVALID);
      const given = await cards.giveTo(tx, merchantId, accountId, cardId, holder.id);
      // the entry of PUT /card/{id}/holder when that is the call (a bulk action has its own)
      await traceWithin(tx, teamCalls.setCardHolder, { ...given, holder_label: holderLabel(holder) });
      return given;
    });
  }

  async function itemOf(tx: Tx, row: TeamMemberRow, meId: string) {
    return memberItem(row, await budgetUsed(tx, row.id, budgetMonth(clock.now())), await countHeld(tx, row.id), meId);
  }

  return {
    /** The roles of these members of the account now (for the event streams they hold open). */
    async rolesOf(accountId: string, memberIds: string[]) {
      return new Map((await rolesOf(db, accountId, memberIds)).map((row) => [row.id, row.role as Role]));
    },

    /** Where a notice to these roles and members of the account goes by e-mail (active members with an address). */
    mailboxesOf: (accountId: string, roles: readonly Role[], memberIds: readonly string[] = []) => mailboxesOf(db, accountId, roles, memberIds),

    /** The account's members (not removed) as the merchant's console reads them, oldest first. */
    async membersOf(accountId: string) {
      const rows = await listMembers(db, accountId, budgetMonth(clock.now()));
      return rows.map((row) => memberItem(row.member, row.used, row.cardsHeld, ''));
    },

    /** GET /team/members */
    async members(auth: Authenticated) {
      const rows = await listMembers(db, auth.account.id, budgetMonth(clock.now()));
      return { items: rows.map((row) => memberItem(row.member, row.used, row.cardsHeld, auth.member.id)) };
    },

    /**
     * PUT /team/members/{id}: a suspended member's sessions and streams end at once, and the
     * invitations they sent that are still pending are revoked; a new role holds from their next call.
     */
    async updateMember(auth: Authenticated, id: string, body: z.output<typeof updateMemberBody>) {
      return db.transaction(async (tx) => {
        const target = await changeable(tx, auth, id);
        if (body.role === 'OWNER') throw new AppError(TeamErrorCode.OWNER_BY_TRANSFER);
        // a budget binds only a MEMBER's cards: given to another role it is refused, and one moved off MEMBER loses it
        const role = (body.role ?? target.role) as Role;
        if (typeof body.monthly_budget === 'string' && !spendsWithinBudget(role)) throw refusedOn(TeamErrorCode.BUDGET_MEMBER_ONLY, 'monthly_budget');
        const changes: Parameters<typeof updateMember>[2] = {};
        if (body.role !== undefined) changes.role = body.role;
        if (body.monthly_budget !== undefined) changes.monthlyBudget = body.monthly_budget === null ? null : toMinorUnits(body.monthly_budget);
        else if (!spendsWithinBudget(role) && target.monthlyBudget !== null) changes.monthlyBudget = null;
        if (body.status !== undefined) changes.status = body.status;
        const updated = Object.keys(changes).length > 0 ? await updateMember(tx, target.id, changes) : target;
        if (updated.status === 'SUSPENDED' && target.status !== 'SUSPENDED') {
          await sessions.endAll(tx, { id: target.id, accountId: auth.account.id }, 'suspended');
          await revokeInvitedBy(tx, target.id, clock.now());
        }
        const item = await itemOf(tx, updated, auth.member.id);
        await traceWithin(tx, teamCalls.updateMember, item);
        return item;
      });
    },

    /**
     * DELETE /team/members/{id}: the member is removed (their row stays, their phone and e-mail are
     * free again), their sessions end, their pending invitations are revoked, the cards they hold go
     * to the owner; with `freezeCards` those cards are frozen as the customer's 冻结 freezes a card.
     * The removal stands whatever the issuer answers: each card is asked on its own, and the ones it
     * did not freeze are named to the remover in a station message. A card the issuer refused is back
     * as it was (frozen again from its page); one whose answer is unknown stays FREEZING for the
     * reconciliation to finish.
     */
    async removeMember(merchantId: string, auth: Authenticated, id: string, freezeCards: boolean) {
      const { moved, target } = await db.transaction(async (tx) => {
        const target = await changeable(tx, auth, id);
        await updateMember(tx, target.id, { status: 'REMOVED', removedAt: clock.now() });
        await sessions.endAll(tx, { id: target.id, accountId: auth.account.id }, 'removed');
        await revokeInvitedBy(tx, target.id, clock.now());
        const owner = await findOwner(tx, auth.account.id);
        await traceWithin(tx, teamCalls.removeMember, null);
        return { moved: await cards.handOverAll(tx, auth.account.id, target.id, owner.id), target };
      });
      if (!freezeCards) return;
      const unfrozen: string[] = [];
      for (const card of moved) {
        if (!cardActionsFor(card.status as CardStatus, card.frozenBy as FrozenBy | null).includes('FREEZE')) continue;
        try {
          await cards.changeStatus(merchantId, { accountId: auth.account.id }, card.id, 'FREEZE');
        } catch {
          unfrozen.push(cardName(card));
        }
      }
      if (unfrozen.length === 0) return;
      const notice = teamNotices.freezeFailed({ member: maskPhone(target.phone), cards: unfrozen });
      await messages.send({ merchantId, accountId: auth.account.id, memberId: auth.member.id, status: 'fail', ...notice });
    },

    /**
     * POST /team/ownership: the member becomes the owner, the owner an ADMIN, in one transaction. The
     * caller's own row is locked first, so that hand-overs at once run one after the other: the later
     * one reads its caller as they are now, and is refused once they are no longer the owner.
     */
    async transferOwnership(auth: Authenticated, memberId: string) {
      await db.transaction(async (tx) => {
        const owner = await findMember(tx, auth.account.id, auth.member.id, { lock: true });
        if (owner?.role !== 'OWNER') throw permissionDenied('team.ownership');
        const target = isUuid(memberId) ? await findMember(tx, auth.account.id, memberId, { lock: true }) : undefined;
        if (!target) throw notFound();
        if (target.id === auth.member.id) throw new AppError(TeamErrorCode.NOT_YOURSELF);
        if (target.status !== 'ACTIVE') throw new AppError(TeamErrorCode.MEMBER_NOT_FOUND, { message: '只能将所有权转让给正常状态的成员' });
        // one owner at a time: the old one steps down before the new one takes over
        await updateMember(tx, owner.id, { role: 'ADMIN' });
        await updateMember(tx, target.id, { role: 'OWNER' });
        await traceWithin(tx, teamCalls.transferOwnership, null);
      });
    },

    /** PUT /team/name */
    async rename(accountId: string, name: string) {
      await db.transaction(async (tx) => {
        await renameAccount(tx, accountId, name.trim());
        await traceWithin(tx, teamCalls.rename, null);
      });
    },

    /** GET /team/budget: the caller's own budget this China-time month. */
    async budget(auth: Authenticated) {
      const used = await budgetUsed(db, auth.member.id, budgetMonth(clock.now()));
      const budget = auth.member.monthlyBudget;
      return {
        monthly_budget: budgetText(budget),
        used: fromMinorUnits(used),
        left: budget === null ? null : fromMinorUnits(budget > used ? budget - used : 0n),
        currency: teamLimits.budgetCurrency,
      };
    },

    /** PUT /card/{id}/holder: the account's card goes to an active member of the same team. */
    async setCardHolder(merchantId: string, auth: Authenticated, cardId: string, holderId: string) {
      return cards.itemOf(await giveCard(merchantId, auth.account.id, cardId, holderId));
    },

    /** The account's card to an active member of the team (a holder change, one card or many). */
    giveCard,
  };
}

export type TeamService = ReturnType<typeof createTeamService>;
