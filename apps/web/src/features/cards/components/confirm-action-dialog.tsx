import type { CardItem } from '@portal/contract/cards';
import { toMinorUnits } from '@portal/contract/money';
import { Modal } from 'antd';
import { busy } from '../../../lib/busy.ts';
import { formatAmount } from '../../../lib/money-format.ts';
import { cardDetailsText } from '../../../locales/zh-CN/card-details.ts';
import styles from './confirm-action-dialog.module.css';
import { TradePasswordConfirm, type TradePasswordConfirmation } from '../../../domain/trade-password/components/trade-password-confirm.tsx';
import { UnansweredNotice } from './unanswered-notice.tsx';

const text = cardDetailsText.confirm;

export type ConfirmedAction = 'FREEZE' | 'UNFREEZE' | 'DELETE';

interface ConfirmActionDialogProps {
  action: ConfirmedAction | null;
  card: CardItem;
  pending: boolean;
  /** 注销 of a card that holds money: its balance leaves the card, so the trade password is asked */
  trade: TradePasswordConfirmation;
  /** the last press got no answer: what the HTTP module said, shown here for a retry; null otherwise */
  unanswered: string | null;
  onConfirm: (action: ConfirmedAction) => void;
  onCancel: () => void;
}

/** 冻结, 解冻 and 注销 are asked once more; closing says where the card's balance goes. */
export function ConfirmActionDialog({ action, card, pending, trade, unanswered, onConfirm, onCancel }: ConfirmActionDialogProps) {
  const copy = action ? text[action] : null;
  return (
    <Modal
      open={action !== null}
      title={copy?.title}
      okText={copy?.ok}
      cancelText={text.cancel}
      okButtonProps={{ danger: action === 'DELETE', loading: busy(pending) }}
      cancelButtonProps={{ disabled: pending }}
      onOk={() => action && onConfirm(action)}
      onCancel={onCancel}
      closable={!pending}
      mask={{ closable: !pending }}
      centered
      destroyOnHidden
    >
      {copy ? <p className={styles.body}>{copy.body}</p> : null}
      {action === 'DELETE' ? (
        <p className={styles.refund} data-testid="delete-refund">
          {toMinorUnits(card.held) === 0n
            ? text.DELETE.refund(formatAmount(card.balance), card.currency)
            : toMinorUnits(card.balance) === 0n
              ? text.DELETE.heldOnly(formatAmount(card.held), card.currency)
              : `${text.DELETE.refund(formatAmount(card.balance), card.currency)}${text.DELETE.held(formatAmount(card.held), card.currency)}`}
        </p>
      ) : null}
      {action === 'DELETE' ? <TradePasswordConfirm confirmation={trade} onSubmit={() => onConfirm('DELETE')} /> : null}
      {action ? <UnansweredNotice message={unanswered} retry={cardDetailsText.retry[action]} /> : null}
    </Modal>
  );
}
