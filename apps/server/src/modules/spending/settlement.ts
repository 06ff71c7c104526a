import { AUTHORIZATION_REVERSED_CLOSED_REASON, AUTHORIZATION_REVERSED_REASON, SETTLEMENT_MAX_OVER_PERCENT } from '@portal/contract/card-spending';
import { CardErrorCode } from '@portal/contract/card-errors';
import { toMinorUnits } from '@portal/contract/money';
import type { Tx } from '../../db/engine.ts';
import { AppError } from '../../http/errors.ts';
import { escapeHtml } from '../../lib/html.ts';
import { reversalData, settlementData } from '../../providers/issuer/protocol.ts';
import type { IssuerEvent } from '../issuer/service.ts';
import { type CardRow, cardName } from '../cards/service.ts';
import { CARD_NETWORK, cardAccountOf } from '../ledger/service.ts';
import type { SpendingDeps } from './deps.ts';
import { LEDGER_TYPES, parse, spendingKeys } from './keys.ts';
import type { moneyTakenPart } from './money-taken.ts';
import { signalOf, tellWebhooks } from './row-signal.ts';
import { type CardTransactionRow, cardOfAuthorization, findAuthorization, recordOwed, updateSpending } from './store.ts';

/** An authorisation's end: settled, reversed, or let go when it expired. */
export function settlementPart(deps: Pick<SpendingDeps, 'clock' | 'ledger' | 'events' | 'webhooks' | 'cards'>, taken: Pick<ReturnType<typeof moneyTakenPart>, 'takeUpTo'>) {
  const { clock, ledger, cards } = deps;
  const { takeUpTo } = taken;

  /** The card and its authorisation, locked in that order; refused (the issuer retries) when the authorisation has not arrived. */
  async function authorizationOf(tx: Tx, authorizationId: string) {
    const cardId = await cardOfAuthorization(tx, authorizationId);
    if (!cardId) throw new AppError(CardErrorCode.AUTHORIZATION_NOT_YET);
    const card = await cards.lockForEvent(tx, cardId);
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
    const settled = await updateSpending(tx, row, { status: 'CLOSED', amount: final, declineReason: null, settledAt: clock.now(), ledgerTransactionId: transactionId }, signalOf(deps, card));
    await tellWebhooks(deps, tx, card, settled, false);
    await cards.returnFromClosedCard(tx, card, spendingKeys.returned(card.id, data.authorization_id), '结算后余下的预授权金额');
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
    const ended = await updateSpending(tx, row, { status: 'FAIL', declineReason: reason, settledAt: clock.now() }, signalOf(deps, card));
    await tellWebhooks(deps, tx, card, ended, false);
    await cards.returnFromClosedCard(tx, card, spendingKeys.returned(card.id, authorizationId), what);
  }

  return { settle, reverse, letGo };
}
