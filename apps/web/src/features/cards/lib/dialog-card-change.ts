import type { CardAction, CardItem } from '@portal/contract/cards';
import type { CardStatus } from '@portal/contract/enums';

/** The dialogs of the card page: 查看卡号, a money dialog, or the confirmation of a status change. */
export type CardDialog = 'reveal' | 'recharge' | 'withdraw' | 'FREEZE' | 'UNFREEZE' | 'DELETE';

const ACTION_OF: Record<Exclude<CardDialog, 'reveal'>, CardAction> = {
  recharge: 'RECHARGE',
  withdraw: 'WITHDRAW',
  FREEZE: 'FREEZE',
  UNFREEZE: 'UNFREEZE',
  DELETE: 'DELETE',
};

/** 查看卡号 needs an issued card that is still in use. */
export const canRevealCard = (card: Pick<CardItem, 'last4' | 'status'>) => card.last4 !== null && card.status !== 'DELETE' && card.status !== 'FAIL';

/**
 * Whether a dialog opened on the card still applies to it as it is now (another tab or the operator
 * may have cancelled or frozen it meanwhile; the page learns it from the event stream): null when it
 * does, else the status that stops it.
 */
export function cardChangeFor(dialog: CardDialog, card: Pick<CardItem, 'actions' | 'last4' | 'status'>): CardStatus | null {
  const allowed = dialog === 'reveal' ? canRevealCard(card) : card.actions.includes(ACTION_OF[dialog]);
  return allowed ? null : card.status;
}
