import { TRANSITIONAL_STATUSES } from '@portal/contract/cards';
import { type CardStatus, cardStatusLabel } from '@portal/contract/enums';
import styles from './card-status-tag.module.css';

/**
 * A card's status in the contract's words, each in a colour of its own (text at 4.5 : 1 on its
 * tint); a status waiting on the issuer carries a pulsing dot.
 */
export function CardStatusTag({ status }: { status: CardStatus }) {
  const waiting = TRANSITIONAL_STATUSES.includes(status);
  return (
    <span className={`${styles.tag} ${styles[status]}`} data-testid="card-status" data-status={status}>
      {waiting ? <span className={styles.dot} aria-hidden="true" /> : null}
      {cardStatusLabel[status]}
    </span>
  );
}
