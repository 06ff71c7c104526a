import { type FrozenBy, rechargeCost, cardActionsFor } from '@portal/contract/cards';
import type { CardStatus, Currency } from '@portal/contract/enums';
import { CardErrorCode } from '@portal/contract/card-errors';
import { fromMinorUnits, toMinorUnits } from '@portal/contract/money';
import { cardCalls } from '@portal/contract/api/cards';
import { traceWithin } from '../../http/call-trace.ts';
import { AppError } from '../../http/errors.ts';
import type { CardDeps } from './deps.ts';
import { ledgerKeys } from './ledger-keys.ts';
import { cardFeesOf } from './card-view.ts';
import { notAllowed } from './lifecycle.ts';
import { giveBackBudget, useBudget } from '../budgets/service.ts';
import type { CardScope } from './scope.ts';
import { findOwnCard, insertCardTransaction } from './store.ts';
import { cardAccountOf, MERCHANT_FEE_INCOME } from '../ledger/service.ts';

/**
 * Money between the wallet and a card: a top-up (TRANSFER_OUT_TO_CARD of the wallet, with the top-up fee
 * the card was opened under; the card's TRANSFER_IN) and a withdrawal (TRANSFER_IN_FROM_CARD; the card's TRANSFER_OUT).
 * Each runs with the card locked, so it is ordered against a cancellation, and with the customer's
 * Idempotency-Key as the ledger's: the same key answers the first result and moves nothing again.
 * The key is looked at first, so a repeat is answered even if the card has moved on since.
 */
export function transfersPart({ db, clock, ledger, products }: Pick<CardDeps, 'db' | 'clock' | 'ledger' | 'products'>) {
  return {
    /**
     * POST /card/{id}/recharge: answers the card's id, the fee and what left the wallet. With `fromHold`,
     * the top-up and its fee are taken from that hold on the wallet (a bulk top-up held its whole cost
     * first), whatever of it is left going back to available.
     */
    async recharge(merchantId: string, scope: CardScope, id: string, amountText: string, key: string, fromHold?: { holdId: string }) {
      const { accountId } = scope;
      return db.transaction(async (tx) => {
        const card = await findOwnCard(tx, merchantId, scope, id, { lock: true });
        if (!card) throw new AppError(CardErrorCode.CARD_NOT_FOUND);
        const product = await products.find(merchantId, { id: card.productId }, tx);
        if (!product) throw new Error(`card ${id} has no product`);
        // the fee terms the card was opened under; the product's maximum balance as it is now
        const cost = rechargeCost(cardFeesOf(card), amountText);
        const amount = toMinorUnits(cost.amount);
        const currency = card.currency as Currency;
        const allowed = cardActionsFor(card.status as CardStatus, (card.frozenBy as FrozenBy | null) ?? null).includes('RECHARGE');
        const fee = toMinorUnits(cost.fee);
        const memo = `充值 ${cost.amount}，手续费 ${cost.fee}（尾号 ${card.last4 ?? '----'} 卡片）`;
        const books = ledger.within(tx);
        const moved = await (fromHold
          ? books.postHold({
              merchantId,
              holdId: fromHold.holdId,
              key: ledgerKeys.recharge(accountId, key),
              type: 'TRANSFER_OUT_TO_CARD',
              to: [{ account: cardAccountOf(card.id, accountId), amount }, ...(fee > 0n ? [{ account: MERCHANT_FEE_INCOME, amount: fee }] : [])],
              reference: `card:${card.id}`,
              memo,
            })
          : books.transferToCard({ merchantId, accountId, cardId: card.id, currency, amount, fee, key: ledgerKeys.recharge(accountId, key), memo })
        ).catch((error: unknown) => {
            throw allowed ? error : notAllowed(card, 'RECHARGE');
          });
        if (moved.replayed) return { card, fee: cost.fee, total: cost.total };
        // checked after the move (so that a repeat is answered first): a refusal here undoes it with the transaction
        if (!allowed) throw notAllowed(card, 'RECHARGE');
        const after = moved.answer.accounts.find((account) => account.kind === 'CARD' && account.ownerId === card.id);
        const balanceAfter = after ? toMinorUnits(after.balance) : amount;
        if (balanceAfter > product.maxBalance) {
          const max = fromMinorUnits(product.maxBalance);
          throw new AppError(CardErrorCode.CARD_BALANCE_ABOVE_MAX, {
            params: { max, currency },
            data: { max, currency, balance: fromMinorUnits(balanceAfter - amount) },
          });
        }
        const now = clock.now();
        // the holder's budget, whoever tops the card up: a refusal undoes the move with the transaction
        await useBudget(tx, card.holderMemberId, amount + toMinorUnits(cost.fee), currency, now);
        await insertCardTransaction(tx, {
          merchantId,
          cardId: card.id,
          accountId,
          type: 'TRANSFER_IN',
          status: 'CLOSED',
          amount,
          currency,
          ledgerTransactionId: moved.answer.transactionId,
          createdAt: now,
          settledAt: now,
        });
        // the top-up's entry in the activity log commits with the money
        await traceWithin(tx, cardCalls.recharge, { card });
        return { card, fee: cost.fee, total: cost.total };
      });
    },

    /** POST /card/{id}/withdraw: the amount from the card back to the wallet. */
    async withdraw(merchantId: string, scope: CardScope, id: string, amountText: string, key: string) {
      const { accountId } = scope;
      return db.transaction(async (tx) => {
        const card = await findOwnCard(tx, merchantId, scope, id, { lock: true });
        if (!card) throw new AppError(CardErrorCode.CARD_NOT_FOUND);
        const amount = toMinorUnits(amountText);
        const currency = card.currency as Currency;
        const allowed = cardActionsFor(card.status as CardStatus, (card.frozenBy as FrozenBy | null) ?? null).includes('WITHDRAW');
        // a card that was never funded has no ledger account: only a repeat could be answered, and there is none
        const moved = await ledger
          .within(tx)
          .transferFromCard({
            merchantId,
            accountId,
            cardId: card.id,
            currency,
            amount,
            key: ledgerKeys.withdraw(accountId, key),
            memo: `卡片提现（尾号 ${card.last4 ?? '----'} 卡片）`,
          })
          .catch((error: unknown) => {
            throw allowed ? error : notAllowed(card, 'WITHDRAW');
          });
        if (moved.replayed) return { card };
        if (!allowed) throw notAllowed(card, 'WITHDRAW');
        const now = clock.now();
        await giveBackBudget(tx, card.holderMemberId, amount, currency, now);
        await insertCardTransaction(tx, {
          merchantId,
          cardId: card.id,
          accountId,
          type: 'TRANSFER_OUT',
          status: 'CLOSED',
          amount,
          currency,
          ledgerTransactionId: moved.answer.transactionId,
          createdAt: now,
          settledAt: now,
        });
        await traceWithin(tx, cardCalls.withdraw, { card });
        return { card };
      });
    },
  };
}
