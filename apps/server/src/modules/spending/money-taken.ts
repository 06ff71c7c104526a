import type { Currency } from '@portal/contract/enums';
import { ErrorCode } from '@portal/contract/errors';
import { toMinorUnits } from '@portal/contract/money';
import type { Tx } from '../../db/engine.ts';
import type { AccountRef } from '../ledger/service.ts';
import { type CardRow, cardName } from '../cards/service.ts';
import type { SpendingDeps } from './deps.ts';
import { availableIn, isRefusal, spendingKeys } from './keys.ts';
import { recordOwed } from './store.ts';

/** Money a card's spending takes from what is there, never more: a fee, or a settlement above its authorisation. */
export function moneyTakenPart({ ledger }: Pick<SpendingDeps, 'ledger'>) {
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

  /** The card's decline fee (the one it was opened under) from the wallet, once per authorisation: what the wallet holds of it, the rest owed. */
  async function chargeDeclineFee(tx: Tx, card: CardRow, authorizationId: string) {
    // the card's own column (minor units, 0 for none), copied from its product when it was opened
    const fee = card.declineFee;
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

  return { takeUpTo, chargeDeclineFee };
}
