import { fromMinorUnits } from '@portal/contract/money';
import type { Tx } from '../../db/engine.ts';
import { giveBackBudget } from '../budgets/service.ts';
import { cardNotices } from './card-notices.ts';
import { cardName } from './card-view.ts';
import type { CardDeps } from './deps.ts';
import { type CardRow, insertCardTransaction } from './store.ts';

/** What the card holds in all (balance, held on it included) and of that held, in minor units. */
export async function moneyOn(deps: Pick<CardDeps, 'books'>, tx: Tx, card: CardRow) {
  return (await deps.books.cardBalances(card.merchantId, [card.id], tx)).get(card.id) ?? { balance: 0n, held: 0n };
}

/**
 * Moves what the card has available (its balance less what is held) to the wallet, once per key; answers
 * the amount. As a withdrawal, it gives what it moves back to the holder's budget for this month.
 */
export async function availableToWallet(deps: Pick<CardDeps, 'ledger' | 'books' | 'clock'>, tx: Tx, card: CardRow, key: string, memo: string) {
  const money = await moneyOn(deps, tx, card);
  const available = money.balance - money.held;
  if (available <= 0n) return 0n;
  const now = deps.clock.now();
  const moved = await deps.ledger.within(tx).transferFromCard({
    merchantId: card.merchantId,
    accountId: card.accountId,
    cardId: card.id,
    currency: card.currency as 'USD' | 'CNY',
    amount: available,
    key,
    memo,
  });
  if (!moved.replayed) await giveBackBudget(tx, card.holderMemberId, available, card.currency, now);
  await insertCardTransaction(tx, {
    merchantId: card.merchantId,
    cardId: card.id,
    accountId: card.accountId,
    type: 'TRANSFER_OUT',
    status: 'CLOSED',
    amount: available,
    currency: card.currency,
    ledgerTransactionId: moved.answer.transactionId,
    createdAt: now,
    settledAt: now,
  });
  return available;
}

/**
 * Money that reaches a cancelled card (a reversal, a refund, an adjustment, what a settlement left or
 * an expired hold) goes on to the wallet at once, and the holder is told in a station message; on a
 * card not cancelled (yet) it stays, and cancelling sweeps it. Inside `tx`, the card locked; `key`
 * names what brought the money, so a repeat moves nothing. Answers the amount moved.
 */
export async function returnFromClosedCard(deps: Pick<CardDeps, 'ledger' | 'books' | 'clock' | 'messages'>, tx: Tx, card: CardRow, key: string, what: string) {
  if (card.status !== 'DELETE') return 0n;
  const amount = await availableToWallet(deps, tx, card, key, `已注销卡片的${what}退回钱包（${cardName(card)}）`);
  if (amount > 0n) {
    await deps.messages.post(tx, {
      merchantId: card.merchantId,
      accountId: card.accountId,
      holderMemberId: card.holderMemberId,
      type: 'CARD_FUNDS_RETURNED',
      status: 'success',
      ...cardNotices.fundsReturned({ card: cardName(card), what, amount: fromMinorUnits(amount), currency: card.currency }),
    });
  }
  return amount;
}

