import type { CardItem } from '@portal/contract/cards';
import { RightOutlined } from '@ant-design/icons';
import { Checkbox } from 'antd';
import { formatAmount } from '../../../lib/money-format.ts';
import { bulkExportText } from '../../../locales/zh-CN/bulk-export.ts';
import { cardCommonText } from '../../../locales/zh-CN/card-common.ts';
import { cardSpendingText } from '../../../locales/zh-CN/card-spending.ts';
import { shortMaskedNumber } from '../lib/card-format.ts';
import { percentText } from '../../../domain/cards/lib/spending-format.ts';
import { BrandMark } from './brand-mark.tsx';
import { CardStatusTag } from './card-status-tag.tsx';
import { RiskTag } from './risk-tag.tsx';
import { CardTagList } from './card-tags.tsx';
import styles from './card-list.module.css';
import { primaryControl } from '../../../lib/primary-control.ts';
import { AutoRechargeMark } from './auto-recharge-mark.tsx';

interface CardListProps {
  items: CardItem[];
  loading: boolean;
  onOpen: (card: CardItem) => void;
  /** the cards ticked for an export (kept across pages), when the list offers ticking */
  selection?: { ids: string[]; onChange: (ids: string[]) => void };
}

/**
 * The cards on narrow screens: a tappable card each, its name and status first, its balance at the
 * right, what it spent this month and its decline rate below; a card at risk says why under it.
 */
export function CardList({ items, loading, onOpen, selection }: CardListProps) {
  return (
    <ul className={styles.list} aria-busy={loading}>
      {items.map((card) => (
        <li key={card.id} className={selection ? styles.selectable : undefined} {...primaryControl}>
          {selection ? (
            <Checkbox
              className={styles.tick}
              checked={selection.ids.includes(card.id)}
              onChange={(event) =>
                selection.onChange(event.target.checked ? [...selection.ids, card.id] : selection.ids.filter((id) => id !== card.id))
              }
              aria-label={bulkExportText.select(card.nickname)}
            />
          ) : null}
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
                {card.holder_label ? (
                  <>
                    <span aria-hidden="true">·</span>
                    <span className={styles.product} data-testid="card-holder-label">
                      {card.holder_label}
                    </span>
                  </>
                ) : null}
              </span>
              {card.spent_this_month !== undefined || card.decline_rate_30d !== undefined ? (
                <span className={`${styles.meta} ${styles.spending}`}>
                  <span>
                    {cardSpendingText.list.spentThisMonth} <span data-testid="card-spent">{card.spent_this_month === undefined ? cardCommonText.none : formatAmount(card.spent_this_month)}</span>
                  </span>
                  <span aria-hidden="true">·</span>
                  <span>
                    {cardSpendingText.list.declineRate}{' '}
                    <span data-testid="card-decline-rate">{card.decline_rate_30d === undefined ? cardCommonText.none : percentText(card.decline_rate_30d)}</span>
                  </span>
                </span>
              ) : null}
              {card.tags.length > 0 ? (
                <span className={styles.meta}>
                  <CardTagList tags={card.tags} />
                </span>
              ) : null}
            </span>
            <span className={styles.figures}>
              <span className={styles.balance}>
                <span data-testid="card-balance">{formatAmount(card.balance)}</span>
                <span className={styles.currency}>{card.currency}</span>
                <AutoRechargeMark card={card} />
              </span>
              <CardStatusTag status={card.status} />
            </span>
            <RightOutlined className={styles.chevron} aria-hidden />
          </button>
          {card.risk === 'HIGH' ? (
            <div className={styles.risk}>
              <RiskTag card={card} />
              {card.risk_reason ? <span className={styles.riskReason}>{card.risk_reason}</span> : null}
            </div>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
