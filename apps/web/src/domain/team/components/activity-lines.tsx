import type { ActivityItem } from '@portal/contract/team';
import { Link } from 'react-router';
import { formatDateTime } from '../../../lib/date-time.ts';
import { formatAmount } from '../../../lib/money-format.ts';
import { paths } from '../../../lib/paths.ts';
import { activityText } from '../../../locales/zh-CN/activity.ts';
import styles from './activity-lines.module.css';

/** Where a change was made from: the address and the browser, as one line. */
export const activitySource = (item: Pick<ActivityItem, 'ip' | 'device'>) => [item.ip, item.device].filter(Boolean).join(' · ') || activityText.none;

/** An entry's amount with its currency, or nothing when it moved no money. */
export function ActivityAmount({ item, className, currencyClassName }: { item: ActivityItem; className?: string; currencyClassName?: string }) {
  if (item.amount === null) return null;
  return (
    <span className={className ?? styles.amount} data-testid="activity-amount">
      {formatAmount(item.amount)}
      {item.currency ? (
<span className={currencyClassName ?? styles.currency}>{item.currency}</span>
      ) : null}
    </span>
  );
}

/**
 * Activity entries a line each (the log on narrow screens, a card's 操作记录): what was done and its
 * amount, then who, when (and, with `cardLinks`, a link to the card when it is a card's), and from where.
 */
export function ActivityLines({ items, loading, cardLinks = true }: { items: ActivityItem[]; loading: boolean; cardLinks?: boolean }) {
  return (
    <ul className={styles.list} aria-busy={loading}>
      {items.map((item) => (
        <li key={item.id} className={styles.item} data-testid="activity-row">
          <span className={styles.line}>
            <span className={styles.summary} data-testid="activity-summary">
              {item.summary}
            </span>
            <ActivityAmount item={item} />
          </span>
          <span className={styles.line}>
            <span className={styles.meta}>
              <span data-testid="activity-member">{item.member_label}</span> · <span className={styles.time}>{formatDateTime(item.at, { seconds: true })}</span>
            </span>
            {cardLinks && item.card_id ? (
              <Link className={styles.link} to={paths.cardDetails.getHref(item.card_id)}>
                {activityText.openCard}
              </Link>
            ) : null}
          </span>
          <span className={styles.meta} data-testid="activity-source">
            {activitySource(item)}
          </span>
        </li>
      ))}
    </ul>
  );
}
