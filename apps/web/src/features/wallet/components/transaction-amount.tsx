import { directionOf, formatSignedAmount } from '../../../lib/money-format.ts';
import styles from './transaction-amount.module.css';

/** A signed transaction amount: money into the wallet stands out, money out of it reads plainly. */
export function TransactionAmount({ amount, className }: { amount: string; className?: string }) {
  const direction = directionOf(amount);
  return (
    <span className={[styles.amount, styles[direction], className].filter(Boolean).join(' ')} data-testid="transaction-amount">
      {formatSignedAmount(amount)}
    </span>
  );
}
