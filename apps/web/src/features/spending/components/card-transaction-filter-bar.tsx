import { CARD_TRANSACTION_STATUSES, CARD_TRANSACTION_TYPES, cardTransactionStatusLabel, cardTransactionTypeLabel } from '@portal/contract/enums';
import { Button, DatePicker, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import type { ReactNode } from 'react';
import 'dayjs/locale/zh-cn';
import { primaryControl } from '../../../lib/primary-control.ts';
import { cardDetailsText } from '../../../locales/zh-CN/card-details.ts';
import { cardSpendingText } from '../../../locales/zh-CN/card-spending.ts';
import type { CardTransactionFilters } from '../../../domain/cards/lib/card-transaction-filters.ts';
import styles from './card-transaction-filter-bar.module.css';

// the pickers' month and weekday names follow the portal's language
dayjs.locale('zh-cn');

const text = cardDetailsText.transactions;
const spendingText = cardSpendingText.transactions;
const DAY_FORMAT = 'YYYY-MM-DD';
const toDay = (value: Dayjs | null | undefined) => (value ? value.format(DAY_FORMAT) : undefined);
const fromDay = (day: string | undefined) => (day ? dayjs(day) : null);
/** Nothing happens in the future: later days cannot be picked. */
const afterToday = (current: Dayjs) => current.isAfter(dayjs().endOf('day'));

const typeOptions = CARD_TRANSACTION_TYPES.map((type) => ({ value: type, label: cardTransactionTypeLabel[type] }));
const statusOptions = CARD_TRANSACTION_STATUSES.map((status) => ({ value: status, label: cardTransactionStatusLabel[status] }));

function rangePresets(): { label: string; value: [Dayjs, Dayjs] }[] {
  const today = dayjs().startOf('day');
  return [
    { label: spendingText.presets.today, value: [today, today] },
    { label: spendingText.presets.last7, value: [today.subtract(6, 'day'), today] },
    { label: spendingText.presets.last30, value: [today.subtract(29, 'day'), today] },
    { label: spendingText.presets.thisMonth, value: [today.startOf('month'), today] },
  ];
}

interface CardTransactionFilterBarProps {
  filters: CardTransactionFilters;
  onChange: (filters: CardTransactionFilters) => void;
  /** narrow screens pick the two days one at a time: a two-month range panel does not fit */
  compact: boolean;
  /** what acts on the filtered rows (the export), at the end of the bar */
  actions?: ReactNode;
}

/** Type, status and date range of a card's transactions; each change applies at once. */
export function CardTransactionFilterBar({ filters, onChange, compact, actions }: CardTransactionFilterBarProps) {
  const change = (patch: Partial<Record<keyof CardTransactionFilters, string | undefined>>) => {
    const next = { ...filters, ...patch } as CardTransactionFilters;
    for (const key of Object.keys(next) as (keyof CardTransactionFilters)[]) {
      if (next[key] === undefined) delete next[key];
    }
    onChange(next);
  };
  const start = fromDay(filters.start);
  const end = fromDay(filters.end);
  const isFiltered = Boolean(filters.type || filters.status || filters.start || filters.end);

  return (
    <fieldset className={styles.bar} aria-label={text.filters} data-testid="card-transaction-filters" {...primaryControl}>
      <Select
        className={styles.select}
        aria-label={text.type}
        placeholder={text.allTypes}
        allowClear
        value={filters.type ?? null}
        options={typeOptions}
        onChange={(value) => change({ type: value ?? undefined })}
        data-testid="filter-type"
      />
      <Select
        className={styles.select}
        aria-label={text.status}
        placeholder={text.allStatuses}
        allowClear
        value={filters.status ?? null}
        options={statusOptions}
        onChange={(value) => change({ status: value ?? undefined })}
        data-testid="filter-status"
      />
      {compact ? (
        <div className={styles.days}>
          <DatePicker
            className={styles.day}
            aria-label={spendingText.start}
            placeholder={spendingText.start}
            value={start}
            inputReadOnly
            disabledDate={(current) => afterToday(current) || Boolean(end && current.isAfter(end, 'day'))}
            onChange={(value: Dayjs | null) => change({ start: toDay(value) })}
            data-testid="filter-start"
          />
          <span className={styles.to} aria-hidden>
            ~
          </span>
          <DatePicker
            className={styles.day}
            aria-label={spendingText.end}
            placeholder={spendingText.end}
            value={end}
            inputReadOnly
            disabledDate={(current) => afterToday(current) || Boolean(start && current.isBefore(start, 'day'))}
            onChange={(value: Dayjs | null) => change({ end: toDay(value) })}
            data-testid="filter-end"
          />
        </div>
      ) : (
        <DatePicker.RangePicker
          className={styles.range}
          aria-label={spendingText.range}
          placeholder={[spendingText.start, spendingText.end]}
          value={[start, end]}
          allowEmpty={[true, true]}
          presets={rangePresets()}
          disabledDate={afterToday}
          onChange={(values) => change({ start: toDay(values?.[0]), end: toDay(values?.[1]) })}
          data-testid="filter-range"
        />
      )}
      <Button className={styles.reset} onClick={() => onChange({})} disabled={!isFiltered}>
        {text.reset}
      </Button>
      {actions ? <div className={styles.actions}>{actions}</div> : null}
    </fieldset>
  );
}
