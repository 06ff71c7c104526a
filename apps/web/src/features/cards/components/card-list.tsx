import type { CardItem } from '@portal/contract/cards';
import { RightOutlined } from '@ant-design/icons';
import { formatAmount } from '../../../lib/money-format.ts';
import { cardCommonText } from '../../../locales/zh-CN/card-common.ts';
import { shortMaskedNumber } from '../lib/card-format.ts';
import { BrandMark } from './brand-mark.tsx';
import { CardStatusTag } from './card-status-tag.tsx';
import styles from './card-list.module.css';

interface CardListProps {
  items: CardItem[];
  loading: boolean;
  onOpen: (card: CardItem) => void;
}

/** The cards on narrow screens: a tappable card each, its name and status first, its balance at the right. */
export function CardList({ items, loading, onOpen }: CardListProps) {
  return (
    <ul className={styles.list} aria-busy={loading}>
      {items.map((card) => (
        <li key={card.id}>
          <button type="button" className={styles.item} onClick={() => onOpen(card)} data-testid="card-row">
            <span className={styles.brand}>
              <BrandMark brand={card.brand} size="small" />
            </span>
            <span className={styles.main}>
              <span className={styles.nickname} data-testid="card-nickname">
                {card.nickname}
              </span>
              <span className={styles.meta}>
                <span data-testid="card-number">{shortMaskedNumber(card.last4) ?? cardCommonText.pendingNumber}</span>
                <span aria-hidden="true">·</span>
                <span className={styles.product}>{card.product_name}</span>
              </span>
            </span>
            <span className={styles.figures}>
              <span className={styles.balance}>
                <span data-testid="card-balance">{formatAmount(card.balance)}</span>
                <span className={styles.currency}>{card.currency}</span>
              </span>
              <CardStatusTag status={card.status} />
            </span>
            <RightOutlined className={styles.chevron} aria-hidden />
          </button>
        </li>
      ))}
    </ul>
  );
}
