import { randomUUID } from 'node:crypto';
import type { OpenCardBody } from '@portal/contract/cards';
import type { Currency } from '@portal/contract/enums';
import { ErrorCode } from '@portal/contract/errors';
import { fromMinorUnits, toMinorUnits } from '@portal/contract/money';
import type { Tx } from '../../db/engine.ts';
import { cardCalls } from '@portal/contract/api/cards';
import { traceWithin } from '../../http/call-trace.ts';
import { AppError } from '../../http/errors.ts';
import { cardNotices } from './card-notices.ts';
import { IssuerUnavailable } from '../../providers/issuer/port.ts';
import { fingerprintOf, onceUnderKey } from '../../lib/keyed-call.ts';
import { cardAccountOf, MERCHANT_FEE_INCOME } from '../ledger/service.ts';
import { giveBackBudget, useBudget } from '../budgets/service.ts';
import { announceStatus } from './card-events.ts';
import type { CardDeps } from './deps.ts';
import { ledgerKeys } from './ledger-keys.ts';
import { type CardRow, findCardByOpenKey, insertCard, insertCardTransaction, lockCardById, updateCard } from './store.ts';


/** Why a card was not issued when the issuer would not take the request at all. */
export const ISSUER_REFUSED_REASON = '发卡机构暂时无法受理开卡申请，资金已退回钱包';

/** What the issuer sends with card.issued. */
export interface IssuedCard {
  pan: string;
  cvv: string;
  exp_month: string;
  exp_year: string;
}

/** What an opening under a key answers: the card, and for the request that made it, what the issuer is asked with. */
interface Opened {
  card: CardRow;
  made?: { product: { name: string; bin: string; brand: string }; currency: Currency; holder: { realName: string; latinName: string | null } };
}

/**
 * Opening a card: the cost (opening fee; first load and its top-up fee) is held on the wallet at once,
 * in two holds, while the issuer works; it is posted when the card is issued (OPEN_CARD, then
 * TRANSFER_OUT_TO_CARD) or released when it is not.
 */
export function openingPart(deps: Pick<CardDeps, 'db' | 'clock' | 'ledger' | 'issuer' | 'sealer' | 'messages' | 'events' | 'webhooks' | 'openingSettled' | 'products'>) {
  const { db, clock, ledger, issuer, sealer, messages, openingSettled, products } = deps;
  const checkHolder: CardDeps['products']['checkHolder'] = products.checkHolder;

  /** Releases what an opening held, marks the card failed with its reason and tells the holder; inside `tx`, the card locked. */
  async function failOpening(tx: Tx, card: CardRow, reason: string) {
    const books = ledger.within(tx);
    if (card.feeHoldId) await books.releaseHold({ merchantId: card.merchantId, holdId: card.feeHoldId, key: ledgerKeys.openFeeRelease(card.id) });
    if (card.loadHoldId) await books.releaseHold({ merchantId: card.merchantId, holdId: card.loadHoldId, key: ledgerKeys.openLoadRelease(card.id) });
    const failed = await updateCard(tx, card.id, { status: 'FAIL', failureReason: reason, updatedAt: clock.now() });
    // what the opening used of the holder's budget, back in the month it was asked in
    await giveBackBudget(tx, card.holderMemberId, card.openFee + card.firstLoad + card.topupFee, card.currency, card.createdAt);
    const total = fromMinorUnits(card.openFee + card.firstLoad + card.topupFee);
    // a batch's card is reported with the others of its batch, in one message when the batch ends
    if (!card.batchId) await messages.post(tx, {
      merchantId: card.merchantId,
      accountId: card.accountId,
      holderMemberId: card.holderMemberId,
      type: 'CARD_FAILED',
      status: 'fail',
      ...cardNotices.openFailed({ nickname: card.nickname, reason, total, currency: card.currency }),
    });
    await announceStatus(deps, tx, failed, true);
    await openingSettled(tx, failed);
    return failed;
  }

  /** card.issued: the numbers are sealed, the held cost is posted and the card is in use; inside `tx`, the card locked. */
  async function completeOpening(tx: Tx, card: CardRow, issued: IssuedCard) {
    const books = ledger.within(tx);
    const { merchantId, accountId } = card;
    if (card.feeHoldId) {
      await books.postHold({
        merchantId,
        holdId: card.feeHoldId,
        key: ledgerKeys.openFeePost(card.id),
        type: 'OPEN_CARD',
        to: [{ account: MERCHANT_FEE_INCOME, amount: card.openFee }],
        reference: `card:${card.id}`,
        memo: `开卡费（尾号 ${issued.pan.slice(-4)} 卡片）`,
      });
    }
    let ledgerTransactionId: string | null = null;
    if (card.loadHoldId) {
      const to = [{ account: cardAccountOf(card.id, accountId), amount: card.firstLoad }];
      if (card.topupFee > 0n) to.push({ account: MERCHANT_FEE_INCOME, amount: card.topupFee });
      const posted = await books.postHold({
        merchantId,
        holdId: card.loadHoldId,
        key: ledgerKeys.openLoadPost(card.id),
        type: 'TRANSFER_OUT_TO_CARD',
        to,
        reference: `card:${card.id}`,
        memo: `首充 ${fromMinorUnits(card.firstLoad)}，手续费 ${fromMinorUnits(card.topupFee)}（尾号 ${issued.pan.slice(-4)} 卡片）`,
      });
      ledgerTransactionId = posted.answer.transactionId;
    }
    const sealed = sealer.seal(JSON.stringify(issued));
    const now = clock.now();
    const opened = await updateCard(tx, card.id, {
      status: 'NORMAL',
      last4: issued.pan.slice(-4),
      bin: issued.pan.slice(0, 8),
      secretSealed: sealed,
      sealedKeyId: sealed.slice(0, sealed.indexOf('.')),
      issuedAt: now,
      updatedAt: now,
    });
    await insertCardTransaction(tx, {
      merchantId,
      cardId: card.id,
      accountId,
      type: 'TRANSFER_IN',
      status: 'CLOSED',
      amount: card.firstLoad,
      currency: card.currency,
      ledgerTransactionId,
      createdAt: now,
      settledAt: now,
    });
    await announceStatus(deps, tx, opened, true);
    await openingSettled(tx, opened);
    return opened;
  }

  return {
    failOpening,
    completeOpening,

    /**
     * POST /card: checks the product, the holder's verification and the quota, creates the card
     * (CARD_STATUS_INIT) with its cost held, then asks the issuer. An issuer that does not take the
     * request leaves the card failed and the money back. The same key answers the same card.
     * `holderMemberId`: the member who will hold it (who opens it; the account's first owner when none).
     */
    async open(merchantId: string, accountId: string, body: OpenCardBody, key: string, holderMemberId = accountId): Promise<{ card: CardRow; productName?: string }> {
      const nickname = body.nickname.trim();
      const fingerprint = fingerprintOf([body.product_id, toMinorUnits(body.amount), nickname]);
      const opened = await onceUnderKey<Opened>({
        fingerprint,
        earlier: async () => {
          const card = await findCardByOpenKey(db, merchantId, accountId, key);
          return card && { fingerprint: card.openFingerprint, answer: { card } };
        },
        conflict: () => new AppError(ErrorCode.IDEMPOTENCY_CONFLICT),
        work: async () => {
          const { product, currency, amount, openFee, topupFee, feeTerms } = await products.productToOpen(merchantId, body.product_id, body.amount);
          const cardId = randomUUID();
          return db.transaction(async (tx) => {
            const verification = await products.lockHolder(tx, merchantId, accountId);
            checkHolder(product, verification);
            await products.checkQuota(tx, accountId, product, 1);
            const now = clock.now();
            await useBudget(tx, holderMemberId, openFee + amount + topupFee, currency, now);
            // the cost first, in one hold split in two (the fee, and the first load with its fee), so the
            // card row is written once, naming its holds
            const books = ledger.within(tx);
            const reference = `card:${cardId}`;
            const parts = openFee > 0n ? [openFee, amount + topupFee] : [amount + topupFee];
            const held = await books.holdFunds({ merchantId, accountId, currency, amount: openFee + amount + topupFee, parts, key: ledgerKeys.openHold(cardId), reference });
            const holdIds = held.answer.holdIds ?? [];
            const saved = await insertCard(tx, {
              id: cardId,
              merchantId,
              accountId,
              holderMemberId,
              productId: product.id,
              nickname,
              brand: product.brand,
              bin: product.bin,
              currency,
              status: 'CARD_STATUS_INIT',
              openKey: key,
              openFingerprint: fingerprint,
              firstLoad: amount,
              openFee,
              topupFee,
              ...feeTerms,
              feeHoldId: openFee > 0n ? (holdIds[0] ?? null) : null,
              loadHoldId: holdIds[holdIds.length - 1] ?? null,
              createdAt: now,
              updatedAt: now,
            });
            await ledger.openCardAccount(tx, { merchantId, accountId, cardId, currency });
            // the opening's entry in the activity log commits with the card and its held cost
            await traceWithin(tx, cardCalls.open, saved);
            return { card: saved, made: { product, currency, holder: { realName: verification.realName, latinName: verification.latinName } } };
          });
        },
      });
      // the same key again: the card it opened, as it is now
      if (!opened.made) return { card: opened.card };
      const { card, made: { product, currency, holder } } = opened;

      try {
        await issuer.openCard({
          card_id: card.id,
          product: { bin: product.bin, brand: product.brand as 'VISA' | 'MASTERCARD', currency },
          holder: { real_name: holder.realName, latin_name: holder.latinName },
        });
      } catch (error) {
        if (!(error instanceof IssuerUnavailable)) throw error;
        const current = await db.transaction(async (tx) => {
          const locked = await lockCard(tx, card.id);
          return locked.status === 'CARD_STATUS_INIT' ? failOpening(tx, locked, ISSUER_REFUSED_REASON) : locked;
        });
        return { card: current };
      }
      // the card as it was made: nothing on it yet, its product at hand
      return { card, productName: product.name };
    },
  };
}

/** The card, locked; it exists (the caller holds its id from a row). */
export async function lockCard(tx: Tx, id: string) {
  const row = await lockCardById(tx, id);
  if (!row) throw new Error(`card ${id} vanished`);
  return row;
}

