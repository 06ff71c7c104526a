import { type CardItem, frozenByHint, frozenByLabel, TRANSITIONAL_STATUSES } from '@portal/contract/cards';
import { Alert, Button } from 'antd';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../../../lib/paths.ts';
import { cardCommonText } from '../../../locales/zh-CN/card-common.ts';
import { cardDetailsText } from '../../../locales/zh-CN/card-details.ts';
import styles from './card-state-notice.module.css';

const text = cardDetailsText;

/**
 * What the card's status means for its holder: who froze it and why (and whom to ask when it is not
 * theirs to undo), that the issuer is still working on it, why it was not issued, that it is closed.
 */
export function CardStateNotice({ card }: { card: CardItem }) {
  const navigate = useNavigate();
  const waiting = TRANSITIONAL_STATUSES.includes(card.status);
  const lines = (...parts: (ReactNode | null | false)[]) => (
    <div className={styles.lines}>
      {parts.filter(Boolean).map((part, index) => (
        // the lines of one notice never move
        // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list of sentences
        <p key={index}>{part}</p>
      ))}
    </div>
  );

  if ((card.status === 'FREEZE' || card.status === 'FREEZING') && card.frozen_by) {
    const who = frozenByLabel[card.frozen_by];
    const ownFreeze = card.frozen_by === 'CUSTOMER';
    return (
      <Alert
        className={styles.notice}
        type={ownFreeze ? 'info' : 'warning'}
        showIcon
        title={card.status === 'FREEZING' ? text.frozen.freezingTitle(who) : text.frozen.title(who)}
        description={lines(
          card.status_reason ? text.frozen.reason(card.status_reason) : null,
          // the holder is told whom to ask when the freeze is not theirs; their own can be undone here
          !ownFreeze || card.actions.includes('UNFREEZE') ? frozenByHint[card.frozen_by] : null,
          card.status === 'FREEZING' ? cardCommonText.processingHint : null,
        )}
        data-testid="card-frozen-notice"
      />
    );
  }
  if (waiting) {
    const title = cardCommonText.processingTitle[card.status as keyof typeof cardCommonText.processingTitle];
    return <Alert className={styles.notice} type="info" showIcon title={title} description={cardCommonText.processingHint} data-testid="card-processing-notice" />;
  }
  if (card.status === 'FAIL') {
    return (
      <Alert
        className={styles.notice}
        type="error"
        showIcon
        title={text.failed.title}
        description={lines(card.failure_reason ? text.failed.reason(card.failure_reason) : null, text.failed.refund)}
        action={
          <Button size="small" onClick={() => navigate(`${paths.createCard.path}?product=${encodeURIComponent(card.product_id)}`)}>
            {text.failed.again}
          </Button>
        }
        data-testid="card-failed-notice"
      />
    );
  }
  if (card.status === 'DELETE') {
    return <Alert className={styles.notice} type="info" showIcon title={text.deleted} data-testid="card-deleted-notice" />;
  }
  return null;
}
