import { EVENT_TYPES } from '@portal/contract/events';
import { fromMinorUnits } from '@portal/contract/money';
import type { CardRow } from '../cards/service.ts';
import type { SpendingDeps } from './deps.ts';
import type { SignalledRow } from './store.ts';
import type { Tx } from '../../db/engine.ts';

/** How the open tabs of the members who see the card hear of a row: sent by the statement that writes it, heard once the transaction commits. */
export const signalOf =
  ({ events }: Pick<SpendingDeps, 'events'>, card: CardRow) =>
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
    }, { audience: { card: card.holderMemberId } });

/** The account's webhooks hear of a card transaction written (`transaction.created`) or changed (`transaction.updated`), in the writer's transaction. */
export async function tellWebhooks({ webhooks }: Pick<SpendingDeps, 'webhooks'>, tx: Tx, card: CardRow, row: SignalledRow & { createdAt?: Date }, created: boolean) {
  if (!webhooks) return;
  await webhooks.emit(tx, {
    merchantId: card.merchantId,
    accountId: card.accountId,
    type: created ? 'transaction.created' : 'transaction.updated',
    cardId: card.id,
    data: {
      transaction_id: row.id,
      card_id: card.id,
      transaction_type: row.type,
      status: row.status,
      amount: fromMinorUnits(row.amount),
      currency: row.currency,
      merchant_name: row.merchantName ?? null,
      decline_code: row.declineCode ?? null,
    },
  });
}
