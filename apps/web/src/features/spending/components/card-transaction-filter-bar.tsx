import { CARD_TRANSACTION_STATUSES, CARD_TRANSACTION_TYPES, cardTransactionStatusLabel, cardTransactionTypeLabel } from '@portal/contract/enums';
import type { ReactNode } from 'react';
import type { CardTransactionFilters } from '../../../domain/cards/lib/card-transaction-filters.ts';
import { TransactionFilterBar } from '../../../domain/transactions/components/transaction-filter-bar.tsx';
import { cardDetailsText } from '../../../locales/zh-CN/card-details.ts';
import { cardSpendingText } from '../../../locales/zh-CN/card-spending.ts';
import styles from './card-transaction-filter-bar.module.css';

const text = cardDetailsText.transactions;
const spendingText = cardSpendingText.transactions;

const typeOptions = CARD_TRANSACTION_TYPES.map((type) => ({ value: type, label: cardTransactionTypeLabel[type] }));
const statusOptions = CARD_TRANSACTION_STATUSES.map((status) => ({ value: status, label: cardTransactionStatusLabel[status] }));

interface CardTransactionFilterBarProps {
  filters: CardTransactionFilters;
  onChange: (filters: CardTransactionFilters) => void;
  /** narrow screens pick the two days one at a time: a two-month range panel does not fit */
  compact: boolean;
  /** what acts on the filtered rows (the export), at the end of the bar */
  actions?: ReactNode;
}

/** Type, status and date range of a card's transactions; each change applies at once. */
export function CardTransactionFilterBar(props: CardTransactionFilterBarProps) {
  return (
    <TransactionFilterBar<CardTransactionFilters>
      {...props}
      label={text.filters}
      testId="card-transaction-filters"
      selects={[
        { key: 'type', className: styles.select, label: text.type, placeholder: text.allTypes, options: typeOptions, testId: 'filter-type' },
        { key: 'status', className: styles.select, label: text.status, placeholder: text.allStatuses, options: statusOptions, testId: 'filter-status' },
      ]}
      days={{
        start: spendingText.start,
        end: spendingText.end,
        presets: spendingText.presets,
        rangePlaceholder: [spendingText.start, spendingText.end],
        rangeLabel: spendingText.range,
      }}
      rangeClassName={styles.range}
      resetText={text.reset}
    />
  );
}
