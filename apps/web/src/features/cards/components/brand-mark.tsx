import type { CardBrand } from '@portal/contract/cards';
import { cardCommonText } from '../../../locales/zh-CN/card-common.ts';
import styles from './brand-mark.module.css';

/**
 * The card network's mark, drawn (no image to load): VISA's word mark, Mastercard's two circles.
 * `tone="light"` is for a dark card face.
 */
export function BrandMark({ brand, tone = 'dark', size = 'medium' }: { brand: CardBrand; tone?: 'dark' | 'light'; size?: 'small' | 'medium' | 'large' }) {
  const label = cardCommonText.brand[brand];
  const className = [styles.mark, styles[size], tone === 'light' ? styles.light : ''].filter(Boolean).join(' ');
  if (brand === 'VISA') {
    return (
      <span className={`${className} ${styles.visa}`} role="img" aria-label={label}>
        VISA
      </span>
    );
  }
  return (
    <span className={`${className} ${styles.mastercard}`} role="img" aria-label={label}>
      <svg viewBox="0 0 38 24" aria-hidden="true" focusable="false">
        <circle cx="14" cy="12" r="9" fill="#EB001B" />
        <circle cx="24" cy="12" r="9" fill="#F79E1B" />
        <path d="M19 4.9a9 9 0 0 1 0 14.2 9 9 0 0 1 0-14.2z" fill="#FF5F00" />
      </svg>
    </span>
  );
}
