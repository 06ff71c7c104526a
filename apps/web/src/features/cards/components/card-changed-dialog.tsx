import type { CardStatus } from '@portal/contract/enums';
import { Button, Modal } from 'antd';
import { cardDetailsText } from '../../../locales/zh-CN/card-details.ts';
import styles from './money-dialog.module.css';

const text = cardDetailsText.changed;

interface CardChangedDialogProps {
  /** the status that stops the dialog's action; null when nothing changed */
  status: CardStatus | null;
  /** the title of the dialog it stands in for */
  title: string;
  /** what that dialog was for, e.g. 充值 */
  action: string;
  onClose: () => void;
}

/**
 * Stands in for a dialog whose card changed while it was open (cancelled or frozen in another tab, by
 * the operator or the issuer): says what happened instead of offering what the card no longer allows.
 */
export function CardChangedDialog({ status, title, action, onClose }: CardChangedDialogProps) {
  return (
    <Modal
      open={status !== null}
      title={title}
      onCancel={onClose}
      footer={
        <Button type="primary" onClick={onClose}>
          {text.close}
        </Button>
      }
      centered
      destroyOnHidden
    >
      {status ? (
        <div className={styles.changed} role="alert" data-testid="card-changed">
          <strong className={styles.changedTitle}>{text.status[status]}</strong>
          <span>{text.hint(action)}</span>
        </div>
      ) : null}
    </Modal>
  );
}
