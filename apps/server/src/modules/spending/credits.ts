import type { Currency } from '@portal/contract/enums';
import { ErrorCode } from '@portal/contract/errors';
import { toMinorUnits } from '@portal/contract/money';
import type { Tx } from '../../db/engine.ts';
import { adjustmentData, refundData } from '../../providers/issuer/protocol.ts';
import type { IssuerEvent } from '../issuer/service.ts';
import { cardName, isUuid } from '../cards/service.ts';
import { CARD_NETWORK, cardAccountOf } from '../ledger/service.ts';
import type { SpendingDeps } from './deps.ts';
import { isRefusal, LEDGER_TYPES, parse, spendingKeys } from './keys.ts';
import { signalOf, tellWebhooks } from './row-signal.ts';
import { insertSpending } from './store.ts';

/** Refunds and adjustments the issuer credits to a card. */
export function creditsPart(deps: Pick<SpendingDeps, 'clock' | 'ledger' | 'events' | 'webhooks' | 'cards'>) {
  const { clock, ledger, cards } = deps;

  /** A credit of the card from CARD_NETWORK (a refund, an adjustment), once per event. */
  async function credit(tx: Tx, event: IssuerEvent, kind: 'REFUND' | 'ADJUST_IN') {
    const data = kind === 'REFUND' ? parse(refundData, event) : parse(adjustmentData, event);
    const card = isUuid(data.card_id) ? await cards.lockForEvent(tx, data.card_id) : undefined;
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
    const credited = await insertSpending(tx, {
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
    }, signalOf(deps, card));
    await tellWebhooks(deps, tx, card, credited, true);
    await cards.returnFromClosedCard(tx, card, spendingKeys.creditReturned(card.id, kind, data.id), kind === 'REFUND' ? '退款' : '调整转入');
  }

  return { credit };
}
