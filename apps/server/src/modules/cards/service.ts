import type { CardItem, CardSummaryAnswer, OpenCardBody } from '@portal/contract/cards';
import type { CardListQuery, CardTagsAnswer } from '@portal/contract/card-list';
import { CARD_STATUSES, type CardStatus } from '@portal/contract/enums';
import { CardErrorCode } from '@portal/contract/card-errors';
import { figureMoment } from '../../db/card-figures.ts';
import { readsOn, type Tx } from '../../db/engine.ts';
import { cardCalls } from '@portal/contract/api/cards';
import { traceWithin } from '../../http/call-trace.ts';
import { AppError } from '../../http/errors.ts';
import type { IssuerEventHandling } from '../issuer/service.ts';
import { cardItem, holderLabel, isUuid } from './card-view.ts';
import { returnFromClosedCard } from './closed-card-money.ts';
import type { CardDeps } from './deps.ts';
import { cardEventHandlers } from './issuer-handlers.ts';
import { ledgerKeys } from './ledger-keys.ts';
import { lifecyclePart, type OperatorChange } from './lifecycle.ts';
import { ISSUER_REFUSED_REASON, lockCard, openingPart } from './opening.ts';
import {
  type CardListWhereFilter,
  type CardRow,
  closedCardsHoldingMoney,
  countCardsByStatus,
  countTags,
  findCard,
  findCardByOpenKey,
  findCardsForOperator,
  findOwnCard,
  holdersOf,
  lockCardById,
  moveHolder,
  pageCards,
  productNameOf,
  updateCard,
} from './store.ts';
import type { CardScope } from './scope.ts';
import { transfersPart } from './transfers.ts';

export type { CardRow } from './store.ts';
/** Where a card list's filter chooses the scope's cards (GET /card, and what acts on all cards that match). */
export { cardListWhere, type CardListWhereFilter, findOwnCard } from './store.ts';
export type { SpendingFigures } from './deps.ts';
export { cardFeesOf, cardName, holderLabel, isUuid } from './card-view.ts';
export { type CardScope, cardScopeOf } from './scope.ts';
export { cardNotices } from './card-notices.ts';
export { commandLineChange, notAllowed, type OperatorChange, type OperatorRefusal } from './lifecycle.ts';
export { ISSUER_REFUSED_REASON } from './opening.ts';

/**
 * Cards: what a holder gives before opening cards, and the cards themselves — opened, funded, frozen,
 * cancelled and revealed through the card issuer, whose answers arrive as events (`issuerHandlers`).
 * Their spending and their batches are modules of their own, which reach a card through this service.
 */
export function createCardService(deps: CardDeps) {
  const { db, clock, ledger } = deps;
  const opening = openingPart(deps);
  const lifecycle = lifecyclePart(deps);
  const transfers = transfersPart(deps);

  /** The cards as answered, with their money, spending figures, holders and products' names. */
  async function items(merchantId: string, rows: Array<{ card: CardRow; productName: string }>, tx?: Tx): Promise<CardItem[]> {
    const ids = rows.map((row) => row.card.id);
    const holderIds = [...new Set(rows.map((row) => row.card.holderMemberId))];
    const [money, figures, holders, rules] = await readsOn(tx ?? db, [
      () => deps.books.cardBalances(merchantId, ids, tx),
      () => deps.spendingFigures(ids, tx),
      () => holdersOf(tx ?? db, holderIds),
      async () => (deps.autoRechargeOf ? await deps.autoRechargeOf(ids, tx) : undefined),
    ]);
    return rows.map((row) =>
      cardItem(
        row.card,
        row.productName,
        holderLabel(holders.get(row.card.holderMemberId)),
        money.get(row.card.id),
        figures.get(row.card.id),
        rules ? (rules.get(row.card.id) ?? null) : undefined,
      ),
    );
  }
  const itemOf = async (row: CardRow) => (await items(row.merchantId, [{ card: row, productName: await productNameOf(db, row.productId) }]))[0] as CardItem;

  async function ownCard(merchantId: string, scope: CardScope, id: string) {
    const card = isUuid(id) ? await findOwnCard(db, merchantId, scope, id) : undefined;
    if (!card) throw new AppError(CardErrorCode.CARD_NOT_FOUND);
    return card;
  }
  const checkedId = (id: string) => {
    if (!isUuid(id)) throw new AppError(CardErrorCode.CARD_NOT_FOUND);
    return id;
  };

  return {
    /** POST /card: the new card (CARD_STATUS_INIT, or FAIL when the issuer would not take it). */
    async open(merchantId: string, accountId: string, body: OpenCardBody, key: string, holderMemberId = accountId) {
      const { card, productName } = await opening.open(merchantId, accountId, body, key, holderMemberId);
      if (productName === undefined) return itemOf(card);
      return cardItem(card, productName, holderLabel((await holdersOf(db, [card.holderMemberId])).get(card.holderMemberId)), undefined);
    },

    /**
     * Whether the account's call under its Idempotency-Key kept a first answer: the card it opened
     * (failed or not), the top-up or withdrawal that moved. A refused one left nothing behind.
     */
    async answeredUnderKey(merchantId: string, accountId: string, call: 'open' | 'recharge' | 'withdraw', key: string) {
      if (call === 'open') return (await findCardByOpenKey(db, merchantId, accountId, key)) !== undefined;
      return ledger.answered(merchantId, call === 'recharge' ? ledgerKeys.recharge(accountId, key) : ledgerKeys.withdraw(accountId, key));
    },

    /** GET /card: a page of the scope's cards, filtered and sorted as asked. */
    async list(merchantId: string, scope: CardScope, query: CardListQuery) {
      const offset = (query.page - 1) * query.page_size;
      const { rows, total } = await pageCards(db, merchantId, scope, query, query.sort, figureMoment(clock.now()), query.page_size, offset);
      return { items: await items(merchantId, rows), total, page: query.page, page_size: query.page_size };
    },

    /** GET /card/tags: the tags on the scope's cards, with how many carry each. */
    async tagCounts(merchantId: string, scope: CardScope): Promise<CardTagsAnswer> {
      return { items: await countTags(db, merchantId, scope) };
    },

    /** PUT /card/{id}/tags: the card's tags replaced (checked and trimmed by the contract's rules). */
    async setTags(merchantId: string, scope: CardScope, id: string, tags: string[]) {
      checkedId(id);
      const tagged = await db.transaction(async (tx) => {
        const card = await findOwnCard(tx, merchantId, scope, id, { lock: true });
        if (!card) throw new AppError(CardErrorCode.CARD_NOT_FOUND);
        const tagged = await updateCard(tx, card.id, { tags, updatedAt: clock.now() });
        await deps.tagsChanged?.(tx, tagged);
        await traceWithin(tx, cardCalls.setTags, cardItem(tagged, '', '', undefined));
        return tagged;
      });
      return itemOf(tagged);
    },

    /** GET /card/summary: how many of the scope's cards in each status, and what they hold per currency. */
    async summary(merchantId: string, scope: CardScope): Promise<CardSummaryAnswer> {
      const counts = await countCardsByStatus(db, merchantId, scope);
      const amounts = await deps.books.cardAmount(merchantId, scope.accountId, scope.heldBy);
      const byStatus = Object.fromEntries(CARD_STATUSES.map((status) => [status, 0])) as Record<CardStatus, number>;
      for (const row of counts) byStatus[row.status as CardStatus] = row.n;
      return { total: counts.reduce((sum, row) => sum + row.n, 0), by_status: byStatus, amounts };
    },

    /** GET /card/{id} */
    async detail(merchantId: string, scope: CardScope, id: string) {
      return itemOf(await ownCard(merchantId, scope, id));
    },

    /** PATCH /card/{id}: a new nickname. */
    async rename(merchantId: string, scope: CardScope, id: string, nickname: string) {
      checkedId(id);
      const renamed = await db.transaction(async (tx) => {
        const card = await findOwnCard(tx, merchantId, scope, id, { lock: true });
        if (!card) throw new AppError(CardErrorCode.CARD_NOT_FOUND);
        const renamed = await updateCard(tx, card.id, { nickname: nickname.trim(), updatedAt: clock.now() });
        await traceWithin(tx, cardCalls.rename, renamed);
        return renamed;
      });
      return itemOf(renamed);
    },

    async changeStatus(merchantId: string, scope: CardScope, id: string, action: 'FREEZE' | 'UNFREEZE') {
      return itemOf(await lifecycle.changeStatus(merchantId, scope, checkedId(id), action));
    },

    async remove(merchantId: string, scope: CardScope, id: string, confirmMoneyOut: () => Promise<void>) {
      return itemOf(await lifecycle.remove(merchantId, scope, checkedId(id), confirmMoneyOut));
    },

    async recharge(merchantId: string, scope: CardScope, id: string, amount: string, key: string, fromHold?: { holdId: string }) {
      // the card's row as locked for the move (its status unchanged by it), with its money read after the commit
      const { card, fee, total } = await transfers.recharge(merchantId, scope, checkedId(id), amount, key, fromHold);
      return { card: await itemOf(card), fee, total };
    },

    async withdraw(merchantId: string, scope: CardScope, id: string, amount: string, key: string) {
      const { card } = await transfers.withdraw(merchantId, scope, checkedId(id), amount, key);
      return { card: await itemOf(card) };
    },

    /**
     * PUT /card/{id}/holder, inside the caller's transaction (which has checked the member): the
     * account's card goes to `memberId` to hold; answered as GET /card/{id} once committed.
     */
    async giveTo(tx: Tx, merchantId: string, accountId: string, id: string, memberId: string) {
      const card = isUuid(id) ? await findOwnCard(tx, merchantId, { accountId }, id, { lock: true }) : undefined;
      if (!card) throw new AppError(CardErrorCode.CARD_NOT_FOUND);
      return updateCard(tx, card.id, { holderMemberId: memberId, updatedAt: clock.now() });
    },

    /** The card as GET /card/{id} answers it. */
    itemOf,

    /** A member leaves the team: the cards they hold go to `to` (the owner), inside the caller's transaction. */
    handOverAll: (tx: Tx, accountId: string, from: string, to: string) => moveHolder(tx, accountId, from, to, clock.now()),

    /** A card of the scope, or CARD_NOT_FOUND (the spending calls and the reveal start from it). */
    ownCard,

    /** The operator's view: a merchant's cards, one account's, one by id or last four digits. */
    async forOperator(merchantId: string, which: { id?: string; last4?: string; accountId?: string }) {
      if (which.id && !isUuid(which.id)) return { rows: [], items: [] };
      const rows = await findCardsForOperator(db, merchantId, which);
      return { rows, items: await items(merchantId, rows) };
    },

    /** Cancelled cards still holding money (`ops ledger:check`): what is available on them, and held past `overdueBefore`. */
    closedCardsHoldingMoney: (overdueBefore: Date) => closedCardsHoldingMoney(db, overdueBefore),

    operatorFreeze: (card: CardRow, reason: string, how?: OperatorChange) => lifecycle.operatorFreeze(card, reason, how).then(itemOf),
    operatorUnfreeze: (card: CardRow, how?: OperatorChange) => lifecycle.operatorUnfreeze(card, how).then(itemOf),

    /**
     * The console's cards across every customer of the merchant (or one account's), with GET /card's
     * filter, newest first; each with the account it belongs to.
     */
    async listForMerchant(merchantId: string, accountId: string | undefined, query: CardListWhereFilter & { page: number; page_size: number }) {
      const offset = (query.page - 1) * query.page_size;
      const scope = accountId ? { accountId } : null;
      const { rows, total } = await pageCards(db, merchantId, scope, query, '-created_at', figureMoment(clock.now()), query.page_size, offset);
      const listed = await items(merchantId, rows);
      return { items: listed.map((item, index) => ({ ...item, account_id: (rows[index] as (typeof rows)[number]).card.accountId })), total, page: query.page, page_size: query.page_size };
    },


    /** The handlers of the issuer's events about the cards' own life, by type (registered with the issuer's event service). */
    issuerHandlers: (): Record<string, IssuerEventHandling> => cardEventHandlers(opening, lifecycle),

    // ── what the spending of a card needs of it, inside the event's transaction ──

    /** The card, locked, or undefined for an id the portal never made. */
    lockForEvent: (tx: Tx, id: string) => lockCardById(tx, id),
    /** Money reaching a cancelled card goes on to the wallet, its holder told (closed-card-money.ts). */
    returnFromClosedCard: (tx: Tx, card: CardRow, key: string, what: string) => returnFromClosedCard(deps, tx, card, key, what),

    // ── what batch opening and the reconciliation need of the cards ──

    /** A card by id (unlocked). */
    find: (id: string) => findCard(db, id),
    /** The card fails its opening (the issuer would not take it), unless it was answered meanwhile. */
    async failStillOpening(cardId: string) {
      await db.transaction(async (tx) => {
        const locked = await lockCard(tx, cardId);
        if (locked.status === 'CARD_STATUS_INIT') await opening.failOpening(tx, locked, ISSUER_REFUSED_REASON);
      });
    },
  };
}

export type CardService = ReturnType<typeof createCardService>;
