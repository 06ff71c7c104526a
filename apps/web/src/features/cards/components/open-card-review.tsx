import { Modal } from 'antd';
import { busy } from '../../../lib/busy.ts';
import { formatAmount } from '../../../lib/money-format.ts';
import { cardCreateText } from '../../../locales/zh-CN/card-create.ts';
import type { AvailableProduct } from '../../../domain/cards/api/get-opened-available.ts';
import { batchNickname } from '@portal/contract/card-batches';
import { cardBatchText } from '../../../locales/zh-CN/card-batch.ts';
import type { OpeningCost } from '../lib/opening-checks.ts';
import { CostBreakdown } from './cost-breakdown.tsx';
import styles from './open-card-review.module.css';
import { TradePasswordConfirm, type TradePasswordConfirmation } from '../../../domain/trade-password/components/trade-password-confirm.tsx';
import { UnansweredNotice } from './unanswered-notice.tsx';

const text = cardCreateText.review;

interface OpenCardReviewProps {
  open: boolean;
  product: AvailableProduct;
  nickname: string;
  cost: OpeningCost;
  available: string | undefined;
  feeRule: string;
  pending: boolean;
  /** the last attempt got no answer (what the HTTP module said): a new try sends the same request again */
  unanswered: string | null;
  /** the money leaves the wallet: the trade password, once one is set */
  trade: TradePasswordConfirmation;
  onConfirm: () => void;
  onCancel: () => void;
  /** cards opened at once: above one, `nickname` is their prefix */
  quantity?: number;
}

/** The last look before money leaves the wallet: what is opened, and what it costs line by line. */
export function OpenCardReview({ open, product, nickname, cost, available, feeRule, pending, unanswered, trade, onConfirm, onCancel, quantity = 1 }: OpenCardReviewProps) {
  const many = quantity > 1;
  return (
    <Modal
      open={open}
      title={many ? cardBatchText.review.title : text.title}
      okText={text.ok}
      cancelText={text.cancel}
      onOk={onConfirm}
      onCancel={onCancel}
      okButtonProps={{ loading: busy(pending) }}
      cancelButtonProps={{ disabled: pending }}
      mask={{ closable: !pending }}
      keyboard={!pending}
      closable={!pending}
      centered
      destroyOnHidden
    >
      <p className={styles.intro}>{many ? cardBatchText.review.intro : text.intro}</p>
      <dl className={styles.facts}>
        <div className={styles.fact}>
          <dt>{text.product}</dt>
          <dd>{product.name}</dd>
        </div>
        {many ? (
          <div className={styles.fact}>
            <dt>{cardBatchText.review.quantity}</dt>
            <dd data-testid="review-quantity">{cardBatchText.review.count(quantity)}</dd>
          </div>
        ) : null}
        <div className={styles.fact}>
          <dt>{text.nickname}</dt>
          <dd>{many ? cardBatchText.review.names(batchNickname(nickname, 1), batchNickname(nickname, quantity)) : nickname}</dd>
        </div>
        <div className={styles.fact}>
          <dt>{text.currency}</dt>
          <dd>{product.currency}</dd>
        </div>
      </dl>
      <CostBreakdown currency={product.currency} openFee={product.open_fee} cost={cost} available={available} feeRule={feeRule} quantity={quantity} />
      <p className={styles.declineFee} data-testid="review-decline-fee">
        {cardCreateText.cost.declineFee(formatAmount(product.decline_fee), product.currency)}
      </p>
      <TradePasswordConfirm confirmation={trade} onSubmit={onConfirm} />
      <UnansweredNotice message={unanswered} retry={text.retryHint} />
    </Modal>
  );
}
