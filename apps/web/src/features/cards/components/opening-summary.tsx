import type { OpenedAvailableAnswer } from '@portal/contract/cards';
import { Button } from 'antd';
import { cardBatchText } from '../../../locales/zh-CN/card-batch.ts';
import { cardCreateText } from '../../../locales/zh-CN/card-create.ts';
import type { OpeningBlocker, OpeningCost } from '../lib/opening-checks.ts';
import { CostBreakdown } from './cost-breakdown.tsx';
import styles from './create-card.module.css';
import { BlockerNotice } from './opening-blocker.tsx';
import { MyBudget } from '../../../domain/team/components/budget-bar.tsx';

const text = cardCreateText;

type Product = OpenedAvailableAnswer['products'][number];

/** The opening's cost beside the form: what it costs, the wallet it is paid from, what blocks it, and the button that reviews it. */
export function OpeningSummary({
  product,
  cost,
  wallet,
  feeRule,
  quantity,
  blockers,
  frozenReason,
  onSecondary,
  onSubmit,
}: {
  product: Product | null;
  cost: OpeningCost | null;
  wallet: string | undefined;
  feeRule: string;
  quantity: number;
  blockers: OpeningBlocker[];
  frozenReason: string;
  onSecondary?: (() => void) | undefined;
  onSubmit: () => void;
}) {
  return (
    <aside className={styles.summary} aria-labelledby="create-card-cost">
      <h2 id="create-card-cost" className={styles.summaryTitle}>
        {text.cost.title}
      </h2>
      {product ? (
        <>
          <p className={styles.summaryProduct}>
            {product.name}
            <span className={styles.summaryPaid}>{text.cost.paidFrom(product.currency)}</span>
          </p>
          <CostBreakdown currency={product.currency} openFee={product.open_fee} cost={cost} available={wallet} feeRule={feeRule} quantity={quantity} />
        </>
      ) : (
        <p className={styles.chooseFirst}>{text.chooseFirst}</p>
      )}
      <MyBudget className={styles.budget} />
      {blockers.length > 0 ? (
        <div className={styles.blockers} data-testid="opening-blockers">
          {blockers.map((blocker) => (
            <BlockerNotice
              key={blocker.kind}
              blocker={blocker}
              currency={product?.currency ?? ''}
              frozenReason={frozenReason}
              quantity={quantity}
              onSecondary={onSecondary}
            />
          ))}
        </div>
      ) : null}
      <Button
        className={styles.submit}
        type="primary"
        size="large"
        block
        disabled={!product || blockers.length > 0}
        onClick={onSubmit}
        data-testid="open-card-submit"
      >
        {quantity > 1 ? cardBatchText.submitBatch(quantity) : text.submit}
      </Button>
    </aside>
  );
}
