import type { CardItem } from '@portal/contract/cards';
import { cardCommonText } from '../../../locales/zh-CN/card-common.ts';
import { cardDetailsText } from '../../../locales/zh-CN/card-details.ts';
import { MASKED_EXPIRY, maskedNumber } from '../lib/card-format.ts';
import { BrandMark } from './brand-mark.tsx';
import styles from './card-face.module.css';

const text = cardDetailsText.face;

/** The card as it would look in a wallet, its number and expiry masked; a card no longer usable is drawn grey. */
export function CardFace({ card }: { card: Pick<CardItem, 'brand' | 'product_name' | 'last4' | 'currency' | 'status' | 'nickname'> }) {
  const inactive = card.status === 'FAIL' || card.status === 'DELETE';
  return (
    <figure className={`${styles.face} ${inactive ? styles.inactive : ''}`} aria-label={text.label} data-testid="card-face">
      <div className={styles.top}>
        <span className={styles.product}>{card.product_name}</span>
        <BrandMark brand={card.brand} tone="light" size="large" />
      </div>
      <span className={styles.chip} aria-hidden="true" />
      <p className={styles.number} data-testid="card-face-number">
        <span className={styles.hidden}>{text.number}</span>
        {card.last4 ? maskedNumber(card.last4) : cardCommonText.pendingNumber}
      </p>
      <div className={styles.bottom}>
        <span className={styles.field}>
          <span className={styles.label}>{text.expiry}</span>
          <span className={styles.value} data-testid="card-face-expiry">
            {MASKED_EXPIRY}
          </span>
        </span>
        <span className={styles.field}>
          <span className={styles.label}>{card.nickname}</span>
          <span className={styles.value}>{card.currency}</span>
        </span>
      </div>
    </figure>
  );
}
