import type { CardSummaryAnswer } from '@portal/contract/cards';
import { type CardStatus, cardStatusLabel } from '@portal/contract/enums';
import { QuestionCircleOutlined } from '@ant-design/icons';
import { Skeleton, Tooltip } from 'antd';
import { formatAmount } from '../../../lib/money-format.ts';
import { cardListText } from '../../../locales/zh-CN/card-list.ts';
import styles from './card-summary-strip.module.css';

const text = cardListText.summary;
const PROCESSING: CardStatus[] = ['CARD_STATUS_INIT', 'FREEZING', 'UNFREEZING', 'DELETING'];
const OTHERS: CardStatus[] = ['FAIL', 'DELETE'];

const countOf = (summary: CardSummaryAnswer, status: CardStatus) => summary.by_status[status] ?? 0;

/** Above the list: how many cards in all and per status, and what the cards hold per currency. */
export function CardSummaryStrip({ summary, failed }: { summary: CardSummaryAnswer | undefined; failed: boolean }) {
  if (!summary) {
    return (
      <section className={styles.strip} aria-busy={!failed} aria-label={text.label} data-testid="card-summary">
        {failed ? (
          <p className={styles.failed}>{text.loadFailed}</p>
        ) : (
          <Skeleton active title={false} paragraph={{ rows: 2, width: ['40%', '70%'] }} className={styles.loading} />
        )}
      </section>
    );
  }
  const processing = PROCESSING.reduce((sum, status) => sum + countOf(summary, status), 0);
  const others = OTHERS.filter((status) => countOf(summary, status) > 0).map((status) => `${cardStatusLabel[status]} ${countOf(summary, status)}`);
  return (
    <section className={styles.strip} aria-label={text.label} data-testid="card-summary">
      <dl className={styles.counts}>
        <div className={styles.figure}>
          <dt className={styles.label}>{text.total}</dt>
          <dd className={styles.value} data-testid="summary-total">
            {summary.total}
          </dd>
          {others.length > 0 ? <dd className={styles.note}>{text.others(others)}</dd> : null}
        </div>
        <div className={styles.figure}>
          <dt className={styles.label}>
            <span className={`${styles.dot} ${styles.normal}`} aria-hidden="true" />
            {text.normal}
          </dt>
          <dd className={styles.value} data-testid="summary-normal">
            {countOf(summary, 'NORMAL')}
          </dd>
        </div>
        <div className={styles.figure}>
          <dt className={styles.label}>
            <span className={`${styles.dot} ${styles.frozen}`} aria-hidden="true" />
            {text.frozen}
          </dt>
          <dd className={styles.value} data-testid="summary-frozen">
            {countOf(summary, 'FREEZE')}
          </dd>
        </div>
        <div className={styles.figure}>
          <dt className={styles.label}>
            <span className={`${styles.dot} ${styles.processing}`} aria-hidden="true" />
            {text.processing}
            <Tooltip title={text.processingHint}>
              <button type="button" className={styles.hint} aria-label={text.processingHint}>
                <QuestionCircleOutlined aria-hidden />
              </button>
            </Tooltip>
          </dt>
          <dd className={styles.value} data-testid="summary-processing">
            {processing}
          </dd>
        </div>
      </dl>
      <dl className={styles.amounts}>
        <dt className={styles.label}>{text.amounts}</dt>
        {summary.amounts.length === 0 ? (
          <dd className={styles.amount}>
            <span className={styles.amountValue}>0.00</span>
          </dd>
        ) : (
          summary.amounts.map((item) => (
            <dd key={item.currency} className={styles.amount} data-testid={`summary-amount-${item.currency}`}>
              <span className={styles.amountValue}>{formatAmount(item.amount)}</span>
              <span className={styles.currency}>{item.currency}</span>
            </dd>
          ))
        )}
      </dl>
    </section>
  );
}
