import { CURRENCIES, type Currency } from '@portal/contract/enums';
import type { AccountBalanceItem, CardAmountItem } from '@portal/contract/wallet';
import { LockOutlined, QuestionCircleOutlined } from '@ant-design/icons';
import { Skeleton, Tooltip } from 'antd';
import { walletText } from '../../../locales/zh-CN/wallet.ts';
import { formatAmount } from '../../../lib/money-format.ts';
import styles from './balance-cards.module.css';

interface BalanceCardsProps {
  balances: AccountBalanceItem[] | undefined;
  cardAmounts: CardAmountItem[] | undefined;
  frozen: boolean;
}

/** One card per currency: what can be spent, what is held for operations in flight, what is on cards. */
export function BalanceCards({ balances, cardAmounts, frozen }: BalanceCardsProps) {
  const currencies: Currency[] = balances ? balances.map((balance) => balance.currency) : [...CURRENCIES];
  return (
    <ul className={styles.balances} aria-label={walletText.available}>
      {currencies.map((currency) => {
        const balance = balances?.find((item) => item.currency === currency);
        const onCards = cardAmounts?.find((item) => item.currency === currency);
        return (
          <li key={currency} className={styles.balance} data-testid={`balance-${currency}`}>
            <div className={styles.head}>
              <span className={styles.currency}>
                {walletText.currency[currency]}
                <span className={styles.code}>{currency}</span>
              </span>
              {frozen ? (
                <span className={styles.frozenTag} data-testid="balance-frozen-tag">
                  <LockOutlined aria-hidden />
                  {walletText.frozenTag}
                </span>
              ) : null}
            </div>
            <span className={styles.label}>{walletText.available}</span>
            {balance ? (
              <span className={styles.amount} data-testid="balance-available">
                {formatAmount(balance.available)}
              </span>
            ) : (
              <Skeleton.Input active size="large" className={styles.amountLoading} />
            )}
            <dl className={styles.figures}>
              <div className={styles.figure}>
                <dt className={styles.figureLabel}>
                  {walletText.anew}
                  <FigureHint text={walletText.anewHint} />
                </dt>
                <dd className={styles.figureValue} data-testid="balance-anew">
                  {balance ? formatAmount(balance.anew) : '—'}
                </dd>
              </div>
              <div className={styles.figure}>
                <dt className={styles.figureLabel}>
                  {walletText.cardAmount}
                  <FigureHint text={walletText.cardAmountHint} />
                </dt>
                <dd className={styles.figureValue} data-testid="balance-card-amount">
                  {onCards ? formatAmount(onCards.amount) : '—'}
                </dd>
              </div>
            </dl>
          </li>
        );
      })}
    </ul>
  );
}

/** What a figure means, on hover and on keyboard focus. */
function FigureHint({ text }: { text: string }) {
  return (
    <Tooltip title={text}>
      <button type="button" className={styles.hint} aria-label={text}>
        <QuestionCircleOutlined aria-hidden />
      </button>
    </Tooltip>
  );
}
