import { CURRENCIES, WALLET_TRANSACTION_TYPES, walletTransactionTypeLabel } from '@portal/contract/enums';
import type { ReactNode } from 'react';
import { TransactionFilterBar as FilterBar } from '../../../domain/transactions/components/transaction-filter-bar.tsx';
import { walletText } from '../../../locales/zh-CN/wallet.ts';
import type { TransactionFilters } from '../lib/transaction-filters.ts';
import styles from './transaction-filter-bar.module.css';

const text = walletText.filters;
const typeOptions = WALLET_TRANSACTION_TYPES.map((type) => ({ value: type, label: walletTransactionTypeLabel[type] }));
const currencyOptions = CURRENCIES.map((currency) => ({ value: currency, label: `${currency} ${walletText.currencyName[currency]}` }));

interface TransactionFilterBarProps {
  filters: TransactionFilters;
  onChange: (filters: TransactionFilters) => void;
  /** narrow screens pick the two days one at a time: a two-month range panel does not fit */
  compact: boolean;
  /** what acts on the filtered rows (the export), at the end of the bar */
  actions?: ReactNode;
}

/** Type, currency and date range of the wallet list; each change applies at once. */
export function TransactionFilterBar(props: TransactionFilterBarProps) {
  return (
    <FilterBar<TransactionFilters>
      {...props}
      label={text.label}
      testId="transaction-filters"
      selects={[
        { key: 'type', className: styles.type, label: text.type, placeholder: text.allTypes, options: typeOptions, testId: 'filter-type' },
        { key: 'currency', className: styles.currency, label: text.currency, placeholder: text.allCurrencies, options: currencyOptions, testId: 'filter-currency' },
      ]}
      days={{ start: text.start, end: text.end, presets: text.presets, rangePlaceholder: text.range }}
      rangeClassName={styles.range}
      resetText={text.reset}
    />
  );
}
