import type {
  CardItem,
  CardListQuery,
  CardSummaryAnswer,
  CardTransactionPage,
  CardTransactionExportQuery,
  CardTransactionQuery,
  OpenCardBody,
  RevealBody,
  VerificationAnswer,
  VerificationBody,
} from '@portal/contract/cards';
import { CARD_STATUSES, type CardStatus, } from '@portal/contract/enums';
import { CardErrorCode } from '@portal/contract/card-errors';
import type { cardControlsBody } from '@portal/contract/card-spending';
import { z } from 'zod';
import type { Tx } from '../../db/engine.ts';
import { AppError } from '../../http/errors.ts';
import { isLuhnValid } from '../../lib/luhn.ts';
import { ISSUER_CARD_EVENTS } from '../../providers/issuer/port.ts';
import type { IssuerEvent, IssuerEventHandler, IssuerEventHandling } from '../issuer/service.ts';
import type { Authenticated } from '../sessions/service.ts';
import { cardItem, isUuid } from './card-view.ts';
import { type CardContext, ledgerKeys } from './context.ts';
import { lifecyclePart } from './lifecycle.ts';
import { openingPart } from './opening.ts';
import { type RevealCaller, revealPart } from './reveal.ts';
import {
  type CardFilter,
  type CardRow,
  countCardsByStatus,
  findCardByOpenKey,
  findCardsForOperator,
  findOwnCard,
  findVerification,
  lockCardById,
  pageCards,
  productNameOf,
  saveVerification,
  updateCard,
} from './store.ts';
import { transfersPart } from './transfers.ts';
import { controlsPart } from './controls.ts';
import { spendingPart } from './spending.ts';
import { closedCardsHoldingMoney } from './spending-store.ts';
import { transactionsPart } from './transactions.ts';

/** "11010519491231002X" → "110***********002X": enough to recognise, not enough to use. */
export const maskIdNumber = (idNumber: string) => `${idNumber.slice(0, 3)}${'*'.repeat(Math.max(0, idNumber.length - 7))}${idNumber.slice(-4)}`;


/** What card.issued must carry; anything else is refused (400) and the issuer sends it again, corrected. */
const issuedData = z.object({
  card_id: z.string(),
  pan: z.string().regex(/^\d{12,19}$/).refine(isLuhnValid),
  cvv: z.string().regex(/^\d{3,4}$/),
  exp_month: z.string().regex(/^(0[1-9]|1[0-2])$/),
  exp_year: z.string().regex(/^20\d{2}$/),
});

/**
 * Cards: what a holder gives before opening cards (the ID number sealed with the card data key, never
 * answered whole), and the cards themselves — opened, funded, frozen and cancelled through the card
 * issuer, whose answers arrive as events (`issuerHandlers`). The merchant's products are the
 * catalogue's (products.ts).
 */
export function createCardService(context: CardContext) {
  const { db, clock, sealer, ledger } = context;
  const opening = openingPart(context);
  const lifecycle = lifecyclePart(context);
  const transfers = transfersPart(context);
  const reveals = revealPart(context);
  const controls = controlsPart(context);
  const spending = spendingPart(context);
  const cardTransactionsOf = transactionsPart(context);

  /** The cards as answered, with their money and products' names. */
  async function items(merchantId: string, rows: Array<{ card: CardRow; productName: string }>, tx?: Tx): Promise<CardItem[]> {
    const ids = rows.map((row) => row.card.id);
    const money = await ledger.cardBalances(merchantId, ids, tx);
    const figures = await controls.figures(ids, tx);
    return rows.map((row) => cardItem(row.card, row.productName, money.get(row.card.id), figures.get(row.card.id)));
  }
  const itemOf = async (row: CardRow) => (await items(row.merchantId, [{ card: row, productName: await productNameOf(db, row.productId) }]))[0] as CardItem;

  async function ownCard(merchantId: string, accountId: string, id: string) {
    const card = isUuid(id) ? await findOwnCard(db, merchantId, accountId, id) : undefined;
    if (!card) throw new AppError(CardErrorCode.CARD_NOT_FOUND);
    return card;
  }
  const checkedId = (id: string) => {
    if (!isUuid(id)) throw new AppError(CardErrorCode.CARD_NOT_FOUND);
    return id;
  };

  /** An issuer's event about one card: the card locked, or nothing for an id the portal never made. */
  const aboutCard =
    (handle: (tx: Tx, card: CardRow, event: IssuerEvent) => Promise<unknown>): IssuerEventHandler =>
    async (tx, event) => {
      const id = event.data.card_id;
      if (typeof id !== 'string' || !isUuid(id)) throw new AppError(CardErrorCode.ISSUER_EVENT_INVALID);
      const card = await lockCardById(tx, id);
      if (!card) return;
      await handle(tx, card, event);
    };

  const verificationOf = async (merchantId: string, accountId: string): Promise<VerificationAnswer> => {
    const row = await findVerification(db, merchantId, accountId);
    return {
      basic: row?.basicAt && row.realName && row.idNumberMasked ? { real_name: row.realName, id_number_masked: row.idNumberMasked } : null,
      secondary: row?.secondaryAt && row.latinName && row.website ? { latin_name: row.latinName, website: row.website } : null,
    };
  };

  return {
    openedAvailable: opening.openedAvailable,

    /** POST /card: the new card (CARD_STATUS_INIT, or FAIL when the issuer would not take it). */
    async open(merchantId: string, accountId: string, body: OpenCardBody, key: string) {
      const { card, productName } = await opening.open(merchantId, accountId, body, key);
      return productName === undefined ? itemOf(card) : cardItem(card, productName, undefined);
    },

    /**
     * Whether the account's call under its Idempotency-Key kept a first answer: the card it opened
     * (failed or not), the top-up or withdrawal that moved. A refused one left nothing behind.
     */
    async answeredUnderKey(merchantId: string, accountId: string, call: 'open' | 'recharge' | 'withdraw', key: string) {
      if (call === 'open') return (await findCardByOpenKey(db, merchantId, accountId, key)) !== undefined;
      return ledger.answered(merchantId, call === 'recharge' ? ledgerKeys.recharge(accountId, key) : ledgerKeys.withdraw(accountId, key));
    },

    /** GET /card: a page of the account's cards, newest first. */
    async list(merchantId: string, accountId: string, query: CardListQuery) {
      const filter: CardFilter = { status: query.status, productId: query.product_id && isUuid(query.product_id) ? query.product_id : undefined, keyword: query.keyword };
      if (query.product_id && !filter.productId) return { items: [], total: 0, page: query.page, page_size: query.page_size };
      const { rows, total } = await pageCards(db, merchantId, accountId, filter, query.page_size, (query.page - 1) * query.page_size);
      return { items: await items(merchantId, rows), total, page: query.page, page_size: query.page_size };
    },

    /** GET /card/summary: how many cards in each status, and what the cards hold per currency. */
    async summary(merchantId: string, accountId: string): Promise<CardSummaryAnswer> {
      const counts = await countCardsByStatus(db, merchantId, accountId);
      const balances = await ledger.customerBalances(merchantId, accountId);
      const byStatus = Object.fromEntries(CARD_STATUSES.map((status) => [status, 0])) as Record<CardStatus, number>;
      for (const row of counts) byStatus[row.status as CardStatus] = row.n;
      return { total: counts.reduce((sum, row) => sum + row.n, 0), by_status: byStatus, amounts: balances.cardAmount };
    },

    /** GET /card/{id} */
    async detail(merchantId: string, accountId: string, id: string) {
      return itemOf(await ownCard(merchantId, accountId, id));
    },

    /** PATCH /card/{id}: a new nickname. */
    async rename(merchantId: string, accountId: string, id: string, nickname: string) {
      checkedId(id);
      const renamed = await db.transaction(async (tx) => {
        const card = await findOwnCard(tx, merchantId, accountId, id, { lock: true });
        if (!card) throw new AppError(CardErrorCode.CARD_NOT_FOUND);
        return updateCard(tx, card.id, { nickname: nickname.trim(), updatedAt: clock.now() });
      });
      return itemOf(renamed);
    },

    async changeStatus(merchantId: string, accountId: string, id: string, action: 'FREEZE' | 'UNFREEZE') {
      return itemOf(await lifecycle.changeStatus(merchantId, accountId, checkedId(id), action));
    },

    async remove(merchantId: string, accountId: string, id: string, confirmMoneyOut: () => Promise<void>) {
      return itemOf(await lifecycle.remove(merchantId, accountId, checkedId(id), confirmMoneyOut));
    },

    async recharge(merchantId: string, accountId: string, id: string, amount: string, key: string) {
      // the card's row as locked for the move (its status unchanged by it), with its money read after the commit
      const { card, fee, total } = await transfers.recharge(merchantId, accountId, checkedId(id), amount, key);
      return { card: await itemOf(card), fee, total };
    },

    async withdraw(merchantId: string, accountId: string, id: string, amount: string, key: string) {
      const { card } = await transfers.withdraw(merchantId, accountId, checkedId(id), amount, key);
      return { card: await itemOf(card) };
    },

    reveal: (merchantId: string, auth: Authenticated, id: string, body: RevealBody, caller: RevealCaller) =>
      reveals.reveal(merchantId, auth, checkedId(id), body, caller),

    /** GET /card/{id}/transactions: the card's movements, newest first. */
    async transactions(merchantId: string, accountId: string, id: string, query: CardTransactionQuery): Promise<CardTransactionPage> {
      return cardTransactionsOf.page(await ownCard(merchantId, accountId, id), query);
    },

    /** GET /card/{id}/transactions/export: the same, every page, as an .xlsx stream. */
    async exportTransactions(merchantId: string, accountId: string, id: string, query: CardTransactionExportQuery) {
      const card = await ownCard(merchantId, accountId, id);
      return { card, stream: await cardTransactionsOf.export(card, query) };
    },

    /** GET /card/{id}/controls */
    async controls(merchantId: string, accountId: string, id: string) {
      return controls.controls(await ownCard(merchantId, accountId, id));
    },

    /** PUT /card/{id}/controls: the whole set replaced. */
    async saveControls(merchantId: string, accountId: string, id: string, body: z.output<typeof cardControlsBody>) {
      return controls.saveControls(await ownCard(merchantId, accountId, id), body);
    },

    /** The operator's view: a merchant's cards, one account's, one by id or last four digits. */
    async forOperator(merchantId: string, which: { id?: string; last4?: string; accountId?: string }) {
      if (which.id && !isUuid(which.id)) return { rows: [], items: [] };
      const rows = await findCardsForOperator(db, merchantId, which);
      return { rows, items: await items(merchantId, rows) };
    },

    /** Cancelled cards still holding money (`ops ledger:check`): what is available on them, and held past `overdueBefore`. */
    closedCardsHoldingMoney: (overdueBefore: Date) => closedCardsHoldingMoney(db, overdueBefore),

    /** Releases the holds of authorisations pending longer than `expiryDays` (the hourly job, spending-expiry.ts). */
    expireHolds: (expiryDays: number) => spending.expireHolds(expiryDays),

    operatorFreeze: (card: CardRow, reason: string) => lifecycle.operatorFreeze(card, reason).then(itemOf),
    operatorUnfreeze: (card: CardRow) => lifecycle.operatorUnfreeze(card).then(itemOf),

    /** The handlers of the issuer's card events, by type (registered with the issuer's event service). */
    issuerHandlers(): Record<string, IssuerEventHandling> {
      return {
        [ISSUER_CARD_EVENTS.issued]: aboutCard(async (tx, card, event) => {
          const parsed = issuedData.safeParse(event.data);
          if (!parsed.success) throw new AppError(CardErrorCode.ISSUER_EVENT_INVALID);
          if (card.status !== 'CARD_STATUS_INIT') return;
          const { pan, cvv, exp_month, exp_year } = parsed.data;
          await opening.completeOpening(tx, card, { pan, cvv, exp_month, exp_year });
        }),
        [ISSUER_CARD_EVENTS.failed]: aboutCard(async (tx, card, event) => {
          if (card.status !== 'CARD_STATUS_INIT') return;
          const reason = typeof event.data.reason === 'string' && event.data.reason.trim() ? event.data.reason.trim().slice(0, 200) : '发卡机构拒绝了开卡申请';
          await opening.failOpening(tx, card, reason);
        }),
        [ISSUER_CARD_EVENTS.frozen]: aboutCard((tx, card, event) => lifecycle.frozen(tx, card, event.data)),
        [ISSUER_CARD_EVENTS.unfrozen]: aboutCard((tx, card, event) => lifecycle.unfrozen(tx, card, event.data)),
        [ISSUER_CARD_EVENTS.closed]: aboutCard(async (tx, card) => {
          if (card.status === 'DELETE' || card.status === 'FAIL') return;
          if (card.status === 'CARD_STATUS_INIT') {
            await opening.failOpening(tx, card, '发卡机构未能开通此卡');
            return;
          }
          await lifecycle.close(tx, card);
        }),
        ...spending.handlers,
      };
    },

    /** GET /card/verification: what the account has given, the ID number masked. */
    verification: verificationOf,

    /**
     * PUT /card/verification: keeps each pair given (a pair given again replaces the one before) and
     * answers what the account has given now. The body has passed the contract's rules.
     */
    async saveVerification(merchantId: string, accountId: string, body: VerificationBody): Promise<VerificationAnswer> {
      const now = clock.now();
      const basic =
        body.real_name !== undefined && body.id_number !== undefined
          ? {
              realName: body.real_name.trim(),
              idNumberSealed: sealer.seal(body.id_number.toUpperCase()),
              idNumberMasked: maskIdNumber(body.id_number.toUpperCase()),
              basicAt: now,
            }
          : {};
      const secondary =
        body.latin_name !== undefined && body.website !== undefined
          ? { latinName: body.latin_name.trim().replace(/\s+/g, ' '), website: body.website.trim(), secondaryAt: now }
          : {};
      await saveVerification(db, { accountId, merchantId, ...basic, ...secondary });
      return verificationOf(merchantId, accountId);
    },
  };
}

export type CardService = ReturnType<typeof createCardService>;
