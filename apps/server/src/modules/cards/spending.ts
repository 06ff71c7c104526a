import {
  AUTHORIZATION_REVERSED_CLOSED_REASON,
  AUTHORIZATION_REVERSED_REASON,
  authorizationExpiredReason,
  categoriesOfMcc,
  chinaDayStart,
  chinaMonthStart,
  type DeclineCode,
  declineReasons,
  maskedCode,
  SETTLEMENT_MAX_OVER_PERCENT,
  type ThreeDsOtp,
} from '@portal/contract/card-spending';
import { CardErrorCode } from '@portal/contract/card-errors';
import type { Currency } from '@portal/contract/enums';
import { ErrorCode } from '@portal/contract/errors';
import { EVENT_TYPES } from '@portal/contract/events';
import { fromMinorUnits, toMinorUnits } from '@portal/contract/money';
import type { z } from 'zod';
import type { Tx } from '../../db/engine.ts';
import { AppError } from '../../http/errors.ts';
import { escapeHtml } from '../../lib/html.ts';
import {
  adjustmentData,
  authorizationRequestData,
  refundData,
  reversalData,
  settlementData,
  threeDsData,
} from '../../providers/issuer/protocol.ts';
import { ISSUER_SPENDING_EVENTS } from '../../providers/issuer/port.ts';
import type { EventRecord, IssuerEvent, IssuerEventHandling, IssuerReply } from '../issuer/service.ts';
import type { AccountRef } from '../ledger/accounts.ts';
import { CARD_NETWORK, cardAccountOf } from '../ledger/service.ts';
import { cardNotices } from './card-notices.ts';
import { cardName, isUuid } from './card-view.ts';
import type { CardContext } from './context.ts';
import { returnFromClosedCard } from './lifecycle.ts';
import {
  type CardTransactionRow,
  type ControlsRow,
  cardOfAuthorization,
  findAuthorization,
  insertSpending,
  lockCardForAuthorization,
  pendingAuthorizationsBefore,
  recordOwed,
  type SignalledRow,
  spentSince,
  updateSpending,
} from './spending-store.ts';
import { type CardRow, findProduct, lockCardById } from './store.ts';

/** The ledger's idempotency keys of a card's spending: one per step of an authorisation or event. */
const spendingKeys = {
  hold: (cardId: string, authorizationId: string) => `card:${cardId}:auth:${authorizationId}:hold`,
  settle: (cardId: string, authorizationId: string) => `card:${cardId}:auth:${authorizationId}:settle`,
  settleExtra: (cardId: string, authorizationId: string) => `card:${cardId}:auth:${authorizationId}:settle-extra`,
  release: (cardId: string, authorizationId: string) => `card:${cardId}:auth:${authorizationId}:release`,
  declineFee: (cardId: string, authorizationId: string) => `card:${cardId}:auth:${authorizationId}:decline-fee`,
  /** what an authorisation's end (settled, reversed, expired) left on a cancelled card, to the wallet */
  returned: (cardId: string, authorizationId: string) => `card:${cardId}:auth:${authorizationId}:returned`,
  /**
   * a refund or an adjustment, by the issuer's own id of it: the same credit sent again under another
   * event id moves nothing (and one of the same id with other figures is not applied)
   */
  credit: (kind: 'REFUND' | 'ADJUST_IN', objectId: string) => `card-credit:${kind}:${objectId}`,
  creditReturned: (cardId: string, kind: 'REFUND' | 'ADJUST_IN', objectId: string) => `card:${cardId}:credit:${kind}:${objectId}:returned`,
};

/** The ledger's transaction types of a card's own spending (card ↔ the merchant's CARD_NETWORK). */
const LEDGER_TYPES = { consume: 'CARD_CONSUME', refund: 'CARD_REFUND', adjust: 'CARD_ADJUST_IN' } as const;

const parse = <S extends z.ZodType>(schema: S, event: IssuerEvent): z.infer<S> => {
  const parsed = schema.safeParse(event.data);
  if (!parsed.success) throw new AppError(CardErrorCode.ISSUER_EVENT_INVALID);
  return parsed.data;
};

const isRefusal = (error: unknown, code: number): error is AppError => error instanceof AppError && error.code === code;
const availableIn = (error: AppError) => toMinorUnits(String((error.data as { available?: string } | null)?.available ?? '0'));

/**
 * A card's spending from the issuer's events (shared/design/cards.md "Spending"): authorisations
 * decided on our books and answered in the webhook's response, their settlement or reversal, refunds,
 * adjustments and 3-D Secure codes. Each runs in the webhook's transaction with the card's row locked,
 * so a card's authorisations are decided one at a time and never spend the same money twice.
 */
export function spendingPart(context: CardContext) {
  const { db, clock, ledger, events, messages } = context;

  /** How the holder's open tabs hear of a row: sent by the statement that writes it, heard once the transaction commits. */
  const signalOf =
    (card: CardRow) =>
    (row: SignalledRow) =>
      events.accountsNotification(card.merchantId, [card.accountId], EVENT_TYPES.cardTransaction, {
        card_id: card.id,
        transaction_id: row.id,
        // `type` names the event itself
        transaction_type: row.type,
        status: row.status,
        amount: fromMinorUnits(row.amount),
        currency: row.currency,
        merchant_name: row.merchantName ?? null,
        decline_code: row.declineCode ?? null,
      });

  /**
   * Takes up to `amount` from `from` to `to` (a fee, or a settlement above its authorisation): what
   * the account holds, once per key, and answers what moved; never below zero, nothing from a frozen
   * wallet. A concurrent movement may lower what is there between two tries; three tries at most.
   */
  async function takeUpTo(tx: Tx, card: CardRow, request: { from: AccountRef; to: AccountRef; type: string; amount: bigint; key: string; memo: string }) {
    const books = ledger.within(tx);
    let due = request.amount;
    for (let attempt = 0; attempt < 3 && due > 0n; attempt += 1) {
      try {
        const moved = await books.transfer({
          merchantId: card.merchantId,
          key: request.key,
          currency: card.currency as Currency,
          type: request.type,
          holderId: card.accountId,
          lines: [
            { account: request.from, amount: -due },
            { account: request.to, amount: due },
          ],
          reference: `card:${card.id}`,
          memo: request.memo,
        });
        return { taken: toMinorUnits(moved.answer.amount), transactionId: moved.answer.transactionId };
      } catch (error) {
        if (isRefusal(error, ErrorCode.WALLET_FROZEN)) break;
        if (!isRefusal(error, ErrorCode.INSUFFICIENT_FUNDS) && !isRefusal(error, ErrorCode.CARD_BALANCE_INSUFFICIENT)) throw error;
        const available = availableIn(error);
        if (available <= 0n) break;
        due = available < due ? available : due;
      }
    }
    return { taken: 0n, transactionId: null };
  }

  /** The product's decline fee from the wallet, once per authorisation: what the wallet holds of it, the rest owed. */
  async function chargeDeclineFee(tx: Tx, card: CardRow, authorizationId: string) {
    const product = await findProduct(tx, card.merchantId, { id: card.productId });
    const fee = product?.declineFee ?? 0n;
    if (fee <= 0n) return { fee: 0n, owed: 0n };
    const { taken } = await takeUpTo(tx, card, {
      from: { kind: 'WALLET', holderId: card.accountId },
      to: { kind: 'MERCHANT_FEE_INCOME' },
      type: 'DECLINED_FEE',
      amount: fee,
      key: spendingKeys.declineFee(card.id, authorizationId),
      memo: `交易被拒手续费（${cardName(card)}，授权 ${authorizationId}）`,
    });
    const owed = fee - taken;
    if (owed > 0n) {
      await recordOwed(tx, { merchantId: card.merchantId, accountId: card.accountId, cardId: card.id, kind: 'DECLINED_FEE', currency: card.currency, amount: owed, authorizationId });
    }
    return { fee, owed };
  }

  /** Why the card may not pay this now, from its status, currency and controls; null: it may (if it holds enough). */
  async function declineOf(
    tx: Tx,
    card: CardRow,
    controls: ControlsRow | null,
    request: { amount: bigint; currency: string; mcc: string; country: string },
  ): Promise<DeclineCode | null> {
    if (card.status === 'DELETE' || card.status === 'DELETING') return 'CARD_CLOSED';
    if (card.status === 'FREEZE' || card.status === 'FREEZING' || card.status === 'UNFREEZING') return 'CARD_FROZEN';
    if (card.status !== 'NORMAL') return 'ISSUER_DECLINED';
    if (request.currency !== card.currency) return 'CURRENCY_MISMATCH';
    if (!controls) return null;
    if (controls.singleLimit !== null && request.amount > controls.singleLimit) return 'OVER_SINGLE_LIMIT';
    const blocked = new Set(controls.blockedCategories);
    if (categoriesOfMcc(request.mcc).some((category) => blocked.has(category))) return 'CATEGORY_BLOCKED';
    if (controls.allowedCountries.length > 0 && !controls.allowedCountries.includes(request.country)) return 'COUNTRY_BLOCKED';
    const now = clock.now();
    if (controls.dailyLimit !== null && (await spentSince(tx, card.id, chinaDayStart(now))) + request.amount > controls.dailyLimit) return 'OVER_DAILY_LIMIT';
    if (controls.monthlyLimit !== null && (await spentSince(tx, card.id, chinaMonthStart(now))) + request.amount > controls.monthlyLimit) return 'OVER_MONTHLY_LIMIT';
    return null;
  }

  /** The answer for a card that is not ours. */
  const notOurs: IssuerReply = { reply: { approved: false, decline_code: 'ISSUER_DECLINED' satisfies DeclineCode } };

  const replyOf = (row: Pick<CardTransactionRow, 'declineCode'>): IssuerReply => ({
    reply: row.declineCode ? { approved: false, decline_code: row.declineCode } : { approved: true },
  });

  /**
   * authorization.request: approve (the amount held on the card, PENDING) or decline (FAIL, with its
   * reason, a message and the fee); its event id recorded in the statement that locks the card.
   */
  async function authorize(tx: Tx, event: IssuerEvent, record: EventRecord): Promise<IssuerReply | null> {
    const request = parse(authorizationRequestData, event);
    // not a card id of ours: declined, whether the event id is new or not
    if (!isUuid(request.card_id)) return (await record.alone(tx)) ? notOurs : null;
    const locked = await lockCardForAuthorization(tx, request.card_id, request.id, record);
    if (!locked) return notOurs;
    const { card, controls, earlier, first } = locked;
    // the event id again: answered as it was the first time (repeatAuthorization)
    if (!first) return null;
    // the same authorisation again under another event id: the decision made then
    if (earlier) return replyOf(earlier);

    const amount = toMinorUnits(request.amount);
    const now = clock.now();
    const base = {
      merchantId: card.merchantId,
      cardId: card.id,
      accountId: card.accountId,
      type: 'CONSUME',
      amount,
      authorizedAmount: amount,
      currency: card.currency,
      merchantName: request.merchant_name,
      mcc: request.mcc,
      country: request.country,
      authorizationId: request.id,
      createdAt: now,
    };
    let code = await declineOf(tx, card, controls, { amount, currency: request.currency, mcc: request.mcc, country: request.country });
    if (code === null) {
      try {
        // no savepoint: a refusal (not enough on the card) leaves nothing, and anything else fails the
        // whole authorisation, which the issuer then asks again
        const held = await ledger.within(tx, { savepoint: false }).holdFunds({
          merchantId: card.merchantId,
          accountId: card.accountId,
          account: cardAccountOf(card.id, card.accountId),
          currency: card.currency as Currency,
          amount,
          key: spendingKeys.hold(card.id, request.id),
          reference: `card:${card.id}`,
        });
        const row = await insertSpending(tx, { ...base, status: 'PENDING', holdId: held.answer.holdId }, signalOf(card));
        return replyOf(row);
      } catch (error) {
        if (!isRefusal(error, ErrorCode.CARD_BALANCE_INSUFFICIENT)) throw error;
        code = 'INSUFFICIENT_FUNDS';
      }
    }
    const { reason, fix } = declineReasons[code];
    const row = await insertSpending(tx, { ...base, status: 'FAIL', declineCode: code, declineReason: reason }, signalOf(card));
    const { fee, owed } = await chargeDeclineFee(tx, card, request.id);
    await messages.post(tx, {
      merchantId: card.merchantId,
      accountId: card.accountId,
      type: 'CARD_DECLINED',
      status: 'fail',
      ...cardNotices.declined({
        card: cardName(card),
        merchant: request.merchant_name,
        amount: fromMinorUnits(amount),
        currency: request.currency,
        reason,
        fix,
        fee: fee > 0n ? fromMinorUnits(fee) : null,
        owed: owed > 0n ? fromMinorUnits(owed) : null,
        feeCurrency: card.currency,
      }),
    });
    return replyOf(row);
  }

  /** The card and its authorisation, locked in that order; refused (the issuer retries) when the authorisation has not arrived. */
  async function authorizationOf(tx: Tx, authorizationId: string) {
    const cardId = await cardOfAuthorization(tx, authorizationId);
    if (!cardId) throw new AppError(CardErrorCode.AUTHORIZATION_NOT_YET);
    const card = await lockCardById(tx, cardId);
    const row = card ? await findAuthorization(tx, card.id, authorizationId) : undefined;
    if (!card || !row) throw new AppError(CardErrorCode.AUTHORIZATION_NOT_YET);
    return { card, row };
  }

  /**
   * transaction.settled: the hold is posted to CARD_NETWORK (a smaller final amount releases the
   * rest); a larger one (at most 15 % over) takes the extra from what the card has available, and what
   * it lacks is recorded as owed. A reversed authorisation that settles after all is charged the same way.
   */
  async function settle(tx: Tx, event: IssuerEvent) {
    const data = parse(settlementData, event);
    const { card, row } = await authorizationOf(tx, data.authorization_id);
    if (row.status === 'CLOSED' || row.declineCode) return;
    const final = toMinorUnits(data.amount);
    const authorized = row.authorizedAmount ?? row.amount;
    if (final * 100n > authorized * (100n + SETTLEMENT_MAX_OVER_PERCENT)) throw new AppError(CardErrorCode.ISSUER_EVENT_INVALID);
    const memo = `消费 ${escapeHtml(row.merchantName ?? '')}（${cardName(card)}）`;
    let posted = 0n;
    let transactionId: string | null = null;
    if (row.status === 'PENDING' && row.holdId) {
      posted = final < authorized ? final : authorized;
      const result = await ledger.within(tx).postHold({
        merchantId: card.merchantId,
        holdId: row.holdId,
        key: spendingKeys.settle(card.id, data.authorization_id),
        type: LEDGER_TYPES.consume,
        to: [{ account: CARD_NETWORK, amount: posted }],
        reference: `card:${card.id}`,
        memo,
      });
      transactionId = result.answer.transactionId;
    }
    const extra = final - posted;
    if (extra > 0n) {
      const taken = await takeUpTo(tx, card, {
        from: cardAccountOf(card.id, card.accountId),
        to: CARD_NETWORK,
        type: LEDGER_TYPES.consume,
        amount: extra,
        key: spendingKeys.settleExtra(card.id, data.authorization_id),
        memo,
      });
      transactionId ??= taken.transactionId;
      if (taken.taken < extra) {
        await recordOwed(tx, {
          merchantId: card.merchantId,
          accountId: card.accountId,
          cardId: card.id,
          kind: 'SETTLEMENT_OVER',
          currency: card.currency,
          amount: extra - taken.taken,
          authorizationId: data.authorization_id,
        });
      }
    }
    await updateSpending(tx, row, { status: 'CLOSED', amount: final, declineReason: null, settledAt: clock.now(), ledgerTransactionId: transactionId }, signalOf(card));
    await returnFromClosedCard(context, tx, card, spendingKeys.returned(card.id, data.authorization_id), '结算后余下的预授权金额');
  }

  /** authorization.reversed: the hold goes back to the card's available, the authorisation FAIL (without a decline code). After settlement it changes nothing: a refund does. */
  async function reverse(tx: Tx, event: IssuerEvent) {
    const data = parse(reversalData, event);
    const { card, row } = await authorizationOf(tx, data.authorization_id);
    if (row.status !== 'PENDING') return;
    await letGo(tx, card, row, card.status === 'DELETE' ? AUTHORIZATION_REVERSED_CLOSED_REASON : AUTHORIZATION_REVERSED_REASON, '撤销的授权金额');
  }

  /** A pending authorisation ended without a settlement: its hold released, the row FAIL with `reason`, and on a cancelled card the money on to the wallet. */
  async function letGo(tx: Tx, card: CardRow, row: CardTransactionRow, reason: string, what: string) {
    const authorizationId = row.authorizationId as string;
    if (row.holdId) await ledger.within(tx).releaseHold({ merchantId: card.merchantId, holdId: row.holdId, key: spendingKeys.release(card.id, authorizationId) });
    await updateSpending(tx, row, { status: 'FAIL', declineReason: reason, settledAt: clock.now() }, signalOf(card));
    await returnFromClosedCard(context, tx, card, spendingKeys.returned(card.id, authorizationId), what);
  }

  /**
   * The hourly job: authorisations the issuer neither settled nor reversed within `expiryDays` have
   * their holds released, back to the card's available or, on a cancelled card, to the wallet; the
   * holder is told. A settlement arriving later is charged as one after a reversal. Answers how many.
   */
  async function expireHolds(expiryDays: number) {
    const before = new Date(clock.now().getTime() - expiryDays * 86_400_000);
    let count = 0;
    for (;;) {
      const due = await pendingAuthorizationsBefore(db, before, 100);
      if (due.length === 0) return count;
      for (const { cardId, authorizationId } of due) {
        const released = await db.transaction(async (tx) => {
          const card = await lockCardById(tx, cardId);
          const row = card ? await findAuthorization(tx, card.id, authorizationId) : undefined;
          // settled, reversed or expired by another process meanwhile
          if (!card || !row || row.status !== 'PENDING') return false;
          const closed = card.status === 'DELETE';
          await letGo(tx, card, row, authorizationExpiredReason(expiryDays, closed), '过期释放的预授权金额');
          if (!closed) {
            await messages.post(tx, {
              merchantId: card.merchantId,
              accountId: card.accountId,
              type: 'CARD_HOLD_EXPIRED',
              status: 'success',
              ...cardNotices.holdExpired({ card: cardName(card), merchant: row.merchantName ?? '', amount: fromMinorUnits(row.amount), currency: card.currency, days: expiryDays }),
            });
          }
          return true;
        });
        // a row another process took meanwhile is not counted, and is not found again
        if (released) count += 1;
      }
    }
  }

  /** A credit of the card from CARD_NETWORK (a refund, an adjustment), once per event. */
  async function credit(tx: Tx, event: IssuerEvent, kind: 'REFUND' | 'ADJUST_IN') {
    const data = kind === 'REFUND' ? parse(refundData, event) : parse(adjustmentData, event);
    const card = isUuid(data.card_id) ? await lockCardById(tx, data.card_id) : undefined;
    if (!card) return;
    const amount = toMinorUnits(data.amount);
    const merchantName = 'merchant_name' in data ? data.merchant_name : null;
    const memoText = 'memo' in data ? data.memo : '';
    const moved = await ledger.within(tx).transfer({
      merchantId: card.merchantId,
      key: spendingKeys.credit(kind, data.id),
      currency: card.currency as Currency,
      type: kind === 'REFUND' ? LEDGER_TYPES.refund : LEDGER_TYPES.adjust,
      holderId: card.accountId,
      lines: [
        { account: CARD_NETWORK, amount: -amount },
        { account: cardAccountOf(card.id, card.accountId), amount },
      ],
      reference: `card:${card.id}`,
      memo: kind === 'REFUND' ? `退款 ${merchantName ?? ''}（${cardName(card)}）` : `调整转入${memoText ? `：${memoText}` : ''}（${cardName(card)}）`,
    }).catch((error: unknown) => {
      // the same refund or adjustment with other figures: the first one stands, this one changes nothing
      if (isRefusal(error, ErrorCode.IDEMPOTENCY_CONFLICT)) return null;
      throw error;
    });
    // applied before (under another event id): nothing more
    if (!moved || moved.replayed) return;
    const now = clock.now();
    await insertSpending(tx, {
      merchantId: card.merchantId,
      cardId: card.id,
      accountId: card.accountId,
      type: kind,
      status: 'CLOSED',
      amount,
      currency: card.currency,
      merchantName,
      memo: memoText || null,
      authorizationId: 'original_id' in data ? (data.original_id ?? null) : null,
      ledgerTransactionId: moved.answer.transactionId,
      createdAt: now,
      settledAt: now,
    }, signalOf(card));
    await returnFromClosedCard(context, tx, card, spendingKeys.creditReturned(card.id, kind, data.id), kind === 'REFUND' ? '退款' : '调整转入');
  }

  /** 3ds.otp: the code on every open tab of the holder, and as a station message that masks it once it expires. */
  async function threeDs(tx: Tx, event: IssuerEvent) {
    const data = parse(threeDsData, event);
    const card = isUuid(data.card_id) ? await lockCardById(tx, data.card_id) : undefined;
    if (!card) return;
    const expiresAt = new Date(data.expires_at);
    const amount = fromMinorUnits(toMinorUnits(data.amount));
    const notice = (code: string) => cardNotices.threeDs({ card: cardName(card), merchant: data.merchant_name, amount, currency: data.currency, code, expiresAt });
    await messages.post(tx, {
      merchantId: card.merchantId,
      accountId: card.accountId,
      type: 'CARD_3DS',
      status: 'success',
      ...notice(data.code),
      expiring: { expiresAt, expiredContent: notice(maskedCode(data.code)).content },
    });
    const otp: ThreeDsOtp = {
      card_id: card.id,
      last4: card.last4,
      nickname: card.nickname,
      code: data.code,
      merchant_name: data.merchant_name,
      amount,
      currency: data.currency,
      expires_at: expiresAt.toISOString(),
    };
    await events.toAccount(tx, card.merchantId, card.accountId, EVENT_TYPES.threeDs, otp);
  }

  /** The same authorization.request again (its event id repeated): the decision it was answered, from its row. */
  async function repeatAuthorization(tx: Tx, event: IssuerEvent): Promise<IssuerReply> {
    const request = parse(authorizationRequestData, event);
    const row = isUuid(request.card_id) ? await findAuthorization(tx, request.card_id, request.id) : undefined;
    // no row: the card was not ours, and that is declined again
    return row ? replyOf(row) : notOurs;
  }

  /** The handlers of the issuer's spending events, by type. */
  const handlers: Record<string, IssuerEventHandling> = {
    [ISSUER_SPENDING_EVENTS.authorizationRequest]: { decide: authorize, repeat: repeatAuthorization },
    [ISSUER_SPENDING_EVENTS.settled]: settle,
    [ISSUER_SPENDING_EVENTS.reversed]: reverse,
    [ISSUER_SPENDING_EVENTS.refund]: (tx, event) => credit(tx, event, 'REFUND'),
    [ISSUER_SPENDING_EVENTS.adjust]: (tx, event) => credit(tx, event, 'ADJUST_IN'),
    [ISSUER_SPENDING_EVENTS.threeDsOtp]: threeDs,
  };
  return { handlers, expireHolds };
}
