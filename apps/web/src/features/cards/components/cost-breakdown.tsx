import type { Currency } from '@portal/contract/enums';
import { formatAmount } from '../../../lib/money-format.ts';
import { cardCommonText } from '../../../locales/zh-CN/card-common.ts';
import { cardCreateText } from '../../../locales/zh-CN/card-create.ts';
import { cardBatchText } from '../../../locales/zh-CN/card-batch.ts';
import { availableAfter, batchTotal, type OpeningCost } from '../lib/opening-checks.ts';
import styles from './cost-breakdown.module.css';

const text = cardCreateText.cost;

interface CostBreakdownProps {
  currency: Currency;
  /** the opening fee, known as soon as a product is chosen */
  openFee: string;
  /** the whole cost (contract openingCost) once the first load is valid, else null */
  cost: OpeningCost | null;
  /** the wallet's available money in this currency; undefined while it loads */
  available: string | undefined;
  /** the product's top-up fee rule as text, beside its fee */
  feeRule?: string;
  /** cards opened at once: above one, each card's total × 数量 = 合计 */
  quantity?: number;
}

/**
 * 开卡费 + 首充金额 + 充值手续费 = 合计, from the contract's openingCost (the code the server charges
 * with), and what the wallet keeps after paying it.
 */
export function CostBreakdown({ currency, openFee, cost, available, feeRule, quantity = 1 }: CostBreakdownProps) {
  const money = (amount: string) => `${formatAmount(amount)} ${currency}`;
  const pending = <span className={styles.pending}>{cardCommonText.none}</span>;
  const many = quantity > 1;
  const total = cost ? batchTotal(cost, quantity) : null;
  const after = total !== null && available !== undefined ? availableAfter(available, total) : null;
  return (
    <div className={styles.breakdown} data-testid="cost-breakdown">
      <dl className={styles.lines}>
        <div className={styles.line}>
          <dt>{text.openFee}</dt>
          <dd data-testid="cost-open-fee">{money(cost?.open_fee ?? openFee)}</dd>
        </div>
        <div className={styles.line}>
          <dt>{text.amount}</dt>
          <dd data-testid="cost-amount">{cost ? money(cost.amount) : pending}</dd>
        </div>
        <div className={styles.line}>
          <dt>
            {text.topupFee}
            {feeRule ? <span className={styles.rule}>{feeRule}</span> : null}
          </dt>
          <dd data-testid="cost-topup-fee">{cost ? money(cost.topup_fee) : pending}</dd>
        </div>
        {many ? (
          <>
            <div className={`${styles.line} ${styles.subtotal}`}>
              <dt>{cardBatchText.cost.perCard}</dt>
              <dd data-testid="cost-per-card">{cost ? money(cost.total) : pending}</dd>
            </div>
            <div className={styles.line}>
              <dt>{cardBatchText.cost.quantity}</dt>
              <dd data-testid="cost-quantity">{cardBatchText.cost.quantityValue(quantity)}</dd>
            </div>
          </>
        ) : null}
        <div className={`${styles.line} ${styles.total}`}>
          <dt>{text.total}</dt>
          <dd data-testid="cost-total">{total !== null ? money(total) : pending}</dd>
        </div>
      </dl>
      {cost ? null : <p className={styles.note}>{text.enterAmount}</p>}
      <dl className={`${styles.lines} ${styles.wallet}`}>
        <div className={styles.line}>
          <dt>{text.walletAvailable}</dt>
          <dd data-testid="wallet-available">{available !== undefined ? money(available) : pending}</dd>
        </div>
        <div className={styles.line}>
          <dt>{text.walletAfter}</dt>
          <dd data-testid="wallet-after" className={after?.startsWith('-') ? styles.short : undefined}>
            {after !== null ? money(after) : pending}
          </dd>
        </div>
      </dl>
    </div>
  );
}
