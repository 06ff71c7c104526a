import { type CardAction, cancelMovesMoney, cardActionLabel, cardActionsFor, cardTransitions, type FrozenBy } from '@portal/contract/cards';
import { type CardStatus, cardStatusLabel } from '@portal/contract/enums';
import { CardErrorCode } from '@portal/contract/card-errors';
import { cardCalls } from '@portal/contract/api/cards';
import type { Call } from '@portal/contract/api/call';
import type { Tx } from '../../db/engine.ts';
import { traceWithin, untraceWithin } from '../../http/call-trace.ts';
import { AppError } from '../../http/errors.ts';
import { Refused } from '../../lib/refused.ts';
import { IssuerUnavailable } from '../../providers/issuer/port.ts';
import { cardNotices } from './card-notices.ts';
import { cardName } from './card-view.ts';
import { announceStatus } from './card-events.ts';
import { availableToWallet, moneyOn } from './closed-card-money.ts';
import type { CardDeps } from './deps.ts';
import { ledgerKeys } from './ledger-keys.ts';
import { lockCard } from './opening.ts';
import type { CardScope } from './scope.ts';
import { type CardChanges, type CardRow, findOwnCard, updateCard } from './store.ts';

/** The issuer's verb for each status action. */
type IssuerAction = 'FREEZE' | 'UNFREEZE' | 'DELETE';

/** The refusal of an action the card's status does not allow, naming the status. */
export function notAllowed(card: Pick<CardRow, 'status' | 'frozenBy'>, action: CardAction | string) {
  const status = card.status as CardStatus;
  const label = action in cardActionLabel ? cardActionLabel[action as CardAction] : action;
  return new AppError(CardErrorCode.CARD_ACTION_NOT_ALLOWED, {
    params: { status: cardStatusLabel[status], action: label },
    data: { status, action, actions: cardActionsFor(status, (card.frozenBy as FrozenBy | null) ?? null) },
  });
}

/** Why an operator's freeze or unfreeze was refused. */
export type OperatorRefusal = 'NOT_FREEZABLE' | 'FROZEN_ALREADY' | 'NOT_FROZEN_BY_OPERATOR' | 'ISSUER_UNAVAILABLE';

/**
 * How an operator's freeze or unfreeze runs: the transaction it takes place in (the command line's own,
 * or the console's, which takes the operator's code in it), what is written with it (the console's audit
 * row), and how its refusals are worded (the command line's English, the console's catalogue).
 */
export interface OperatorChange {
  transact: <T>(work: (tx: Tx) => Promise<T>) => Promise<T>;
  recorded?: (tx: Tx, before: CardRow, after: CardRow) => Promise<void>;
  refuse: (why: OperatorRefusal, card: CardRow) => Error;
}

/** The command line's way: a transaction of its own, its refusals in English. */
export const commandLineChange = (db: CardDeps['db']): OperatorChange => ({
  transact: (work) => db.transaction(work),
  refuse: (why, card) => {
    const status = card.status as CardStatus;
    if (why === 'NOT_FREEZABLE') return new Refused(`the card is ${status} (${cardStatusLabel[status]}); only a card in use or frozen can be frozen`);
    if (why === 'FROZEN_ALREADY') return new Refused('the card is frozen by the operator already');
    if (why === 'NOT_FROZEN_BY_OPERATOR') {
      return new Refused(`the card is not frozen by the operator (it is ${status}${card.frozenBy ? `, frozen by ${card.frozenBy}` : ''})`);
    }
    return new Refused('the card issuer did not take the request; the card is as it was');
  },
});

/** Who froze it, as the refusal to unfreeze says: 平台 or 发卡机构. */
const frozenByWho: Record<Exclude<FrozenBy, 'CUSTOMER'>, string> = { OPERATOR: '平台', ISSUER: '发卡机构' };

/**
 * Freezing, unfreezing and cancelling: the card moves to its transitional status at once (FREEZING,
 * UNFREEZING, DELETING), the issuer is asked, and its event lands the card (FREEZE, NORMAL, DELETE). An
 * issuer that does not take the request puts the card back as it was. A cancelled card's balance goes
 * back to the wallet when the issuer confirms.
 */
export function lifecyclePart(deps: Pick<CardDeps, 'db' | 'clock' | 'issuer' | 'messages' | 'events' | 'webhooks' | 'ledger' | 'books'>) {
  const { db, clock, issuer, messages } = deps;

  const ask = (action: IssuerAction, cardId: string) =>
    action === 'FREEZE' ? issuer.freeze(cardId) : action === 'UNFREEZE' ? issuer.unfreeze(cardId) : issuer.close(cardId);

  /**
   * Puts the card back as it was before a request the issuer did not take (unless something moved it
   * since); the activity entry of the customer's `call` goes with it.
   */
  async function undo(before: CardRow, through: CardStatus, call?: Call) {
    await db.transaction(async (tx) => {
      if (call) await untraceWithin(tx, call);
      const card = await lockCard(tx, before.id);
      if (card.status !== through) return;
      const restored = await updateCard(tx, card.id, {
        status: before.status,
        frozenBy: before.frozenBy,
        statusReason: before.statusReason,
        updatedAt: clock.now(),
      });
      await announceStatus(deps, tx, restored);
    });
  }

  /** Moves the card (locked in `tx`) to the action's transitional status; answers it as it was before. */
  async function begin(tx: Tx, card: CardRow, action: IssuerAction, changes: CardChanges = {}) {
    const next = await updateCard(tx, card.id, { status: cardTransitions[action].through, updatedAt: clock.now(), ...changes });
    await announceStatus(deps, tx, next);
    return next;
  }

  /**
   * Asks the issuer after the commit; when it does not take the request, the card goes back (with the
   * activity entry of `call`, the customer's call that asked) and the refusal is `refusal()`.
   */
  async function request(before: CardRow, after: CardRow, action: IssuerAction, refusal: () => Error, call?: Call) {
    try {
      await ask(action, after.id);
    } catch (error) {
      if (!(error instanceof IssuerUnavailable)) throw error;
      await undo(before, after.status as CardStatus, call);
      throw refusal();
    }
    return after;
  }

  /** The card's whole available balance back to the wallet and the card cancelled; inside `tx`, the card locked. */
  async function close(tx: Tx, card: CardRow) {
    const now = clock.now();
    await availableToWallet(deps, tx, card, ledgerKeys.close(card.id), `卡片注销，余额退回（尾号 ${card.last4 ?? '----'} 卡片）`);
    const closed = await updateCard(tx, card.id, { status: 'DELETE', frozenBy: null, closedAt: now, updatedAt: now });
    await announceStatus(deps, tx, closed);
    return closed;
  }

  return {
    close,

    /** PUT /card/{id}/status: the holder freezes or unfreezes the card. */
    async changeStatus(merchantId: string, scope: CardScope, id: string, action: 'FREEZE' | 'UNFREEZE') {
      const { before, after } = await db.transaction(async (tx) => {
        const card = await findOwnCard(tx, merchantId, scope, id, { lock: true });
        if (!card) throw new AppError(CardErrorCode.CARD_NOT_FOUND);
        const frozenBy = (card.frozenBy as FrozenBy | null) ?? null;
        if (action === 'UNFREEZE' && (card.status === 'FREEZE' || card.status === 'FREEZING') && frozenBy && frozenBy !== 'CUSTOMER') {
          throw new AppError(CardErrorCode.CARD_FROZEN_BY_OTHERS, { params: { who: frozenByWho[frozenBy] }, data: { frozen_by: frozenBy } });
        }
        if (!cardActionsFor(card.status as CardStatus, frozenBy).includes(action)) throw notAllowed(card, action);
        const changes: CardChanges = action === 'FREEZE' ? { frozenBy: 'CUSTOMER', statusReason: null } : {};
        const next = await begin(tx, card, action, changes);
        await traceWithin(tx, cardCalls.changeStatus, next);
        return { before: card, after: next };
      });
      return request(before, after, action, () => new AppError(CardErrorCode.ISSUER_UNAVAILABLE), cardCalls.changeStatus);
    },

    /**
     * DELETE /card/{id}: the holder cancels the card; its balance comes back when the issuer confirms.
     * Money leaving a card that holds some is confirmed first (`confirmMoneyOut`, the trade password),
     * outside the card's lock, and the card is then looked at again.
     */
    async remove(merchantId: string, scope: CardScope, id: string, confirmMoneyOut: () => Promise<void>) {
      const begun = (confirmed: boolean) =>
        db.transaction(async (tx) => {
          const card = await findOwnCard(tx, merchantId, scope, id, { lock: true });
          if (!card) throw new AppError(CardErrorCode.CARD_NOT_FOUND);
          if (!cardActionsFor(card.status as CardStatus, (card.frozenBy as FrozenBy | null) ?? null).includes('DELETE')) throw notAllowed(card, 'DELETE');
          const money = await moneyOn(deps, tx, card);
          if (!confirmed && cancelMovesMoney({ available: money.balance - money.held, held: money.held })) return null;
          const next = await begin(tx, card, 'DELETE');
          await traceWithin(tx, cardCalls.remove, next);
          return { before: card, after: next };
        });
      let started = await begun(false);
      if (!started) {
        await confirmMoneyOut();
        started = await begun(true);
      }
      if (!started) throw new Error('a confirmed cancellation always begins');
      return request(started.before, started.after, 'DELETE', () => new AppError(CardErrorCode.ISSUER_UNAVAILABLE), cardCalls.remove);
    },

    /**
     * `ops card:freeze`: the merchant's operator freezes a card, with a reason the holder reads; the
     * holder cannot undo it. A card its holder froze already stays frozen, now by the operator.
     */
    async operatorFreeze(card: CardRow, reason: string, how: OperatorChange = commandLineChange(db)) {
      const { before, after, asked } = await how.transact(async (tx) => {
        const current = await lockCard(tx, card.id);
        const status = current.status as CardStatus;
        if (!['NORMAL', 'FREEZE', 'FREEZING', 'UNFREEZING'].includes(status)) throw how.refuse('NOT_FREEZABLE', current);
        if (current.frozenBy === 'OPERATOR' && (status === 'FREEZE' || status === 'FREEZING')) throw how.refuse('FROZEN_ALREADY', current);
        const changes: CardChanges = { frozenBy: 'OPERATOR', statusReason: reason };
        let next: CardRow;
        let asked = false;
        if (status === 'FREEZE' || status === 'FREEZING') {
          next = await updateCard(tx, current.id, { ...changes, updatedAt: clock.now() });
          await announceStatus(deps, tx, next);
        } else {
          next = await begin(tx, current, 'FREEZE', changes);
          asked = true;
        }
        await messages.post(tx, {
          merchantId: current.merchantId,
          accountId: current.accountId,
          holderMemberId: current.holderMemberId,
          type: 'CARD_FROZEN',
          status: 'fail',
          ...cardNotices.frozenByPlatform({ card: cardName(current), reason }),
        });
        await how.recorded?.(tx, current, next);
        return { before: current, after: next, asked };
      });
      if (!asked) return after;
      return request(before, after, 'FREEZE', () => how.refuse('ISSUER_UNAVAILABLE', before));
    },

    /** `ops card:unfreeze`: lifts the operator's freeze. */
    async operatorUnfreeze(card: CardRow, how: OperatorChange = commandLineChange(db)) {
      const { before, after } = await how.transact(async (tx) => {
        const current = await lockCard(tx, card.id);
        const status = current.status as CardStatus;
        if (!(status === 'FREEZE' || status === 'FREEZING') || current.frozenBy !== 'OPERATOR') throw how.refuse('NOT_FROZEN_BY_OPERATOR', current);
        const next = await begin(tx, current, 'UNFREEZE');
        await messages.post(tx, {
          merchantId: current.merchantId,
          accountId: current.accountId,
          holderMemberId: current.holderMemberId,
          type: 'CARD_UNFROZEN',
          status: 'success',
          ...cardNotices.unfrozenByPlatform({ card: cardName(current) }),
        });
        await how.recorded?.(tx, current, next);
        return { before: current, after: next };
      });
      return request(before, after, 'UNFREEZE', () => how.refuse('ISSUER_UNAVAILABLE', before));
    },

    /**
     * card.frozen: lands a freeze the portal asked for (FREEZING → FREEZE). One the issuer made on its own
     * (`initiator: ISSUER`) freezes a card in use. Any other is stale (the card moved on) and changes nothing.
     */
    async frozen(tx: Tx, card: CardRow, data: { initiator?: unknown; reason?: unknown }) {
      if (card.status === 'FREEZING') return landed(tx, card, { status: 'FREEZE' });
      if (data.initiator === 'ISSUER' && card.status === 'NORMAL') {
        const reason = typeof data.reason === 'string' && data.reason.trim() ? data.reason.trim().slice(0, 200) : '发卡机构风控冻结';
        return landed(tx, card, { status: 'FREEZE', frozenBy: 'ISSUER', statusReason: reason });
      }
      return card;
    },

    /** card.unfrozen: lands an unfreeze the portal asked for, or the issuer lifting its own freeze. */
    async unfrozen(tx: Tx, card: CardRow, data: { initiator?: unknown }) {
      if (card.status === 'UNFREEZING' || (data.initiator === 'ISSUER' && card.status === 'FREEZE' && card.frozenBy === 'ISSUER')) {
        return landed(tx, card, { status: 'NORMAL', frozenBy: null, statusReason: null });
      }
      return card;
    },
  };

  async function landed(tx: Tx, card: CardRow, changes: CardChanges) {
    const next = await updateCard(tx, card.id, { ...changes, updatedAt: clock.now() });
    await announceStatus(deps, tx, next);
    return next;
  }
}
