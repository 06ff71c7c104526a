import { CURRENCIES, WALLET_TRANSACTION_TYPES, walletTransactionTypeLabel } from '@portal/contract/enums';
import { Button, DatePicker, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import type { ReactNode } from 'react';
import 'dayjs/locale/zh-cn';
import { walletText } from '../../../locales/zh-CN/wallet.ts';
import type { TransactionFilters } from '../lib/transaction-filters.ts';
import styles from './transaction-filter-bar.module.css';
import { primaryControl } from '../../../lib/primary-control.ts';

// the pickers' month and weekday names follow the portal's language
dayjs.locale('zh-cn');

const DAY_FORMAT = 'YYYY-MM-DD';
const toDay = (value: Dayjs | null | undefined) => (value ? value.format(DAY_FORMAT) : undefined);
const fromDay = (day: string | undefined) => (day ? dayjs(day) : null);
/** Nothing happens in the future: later days cannot be picked. */
const afterToday = (current: Dayjs) => current.isAfter(dayjs().endOf('day'));

const typeOptions = WALLET_TRANSACTION_TYPES.map((type) => ({ value: type, label: walletTransactionTypeLabel[type] }));
const currencyOptions = CURRENCIES.map((currency) => ({ value: currency, label: `${currency} ${walletText.currencyName[currency]}` }));

function rangePresets(): { label: string; value: [Dayjs, Dayjs] }[] {
  const today = dayjs().startOf('day');
  return [
    { label: walletText.filters.presets.today, value: [today, today] },
    { label: walletText.filters.presets.last7, value: [today.subtract(6, 'day'), today] },
    { label: walletText.filters.presets.last30, value: [today.subtract(29, 'day'), today] },
    { label: walletText.filters.presets.thisMonth, value: [today.startOf('month'), today] },
  ];
}

interface TransactionFilterBarProps {
  filters: TransactionFilters;
  onChange: (filters: TransactionFilters) => void;
  /** narrow screens pick the two days one at a time: a two-month range panel does not fit */
  compact: boolean;
  /** what acts on the filtered rows (the export), at the end of the bar */
  actions?: ReactNode;
}

/** Type, currency and date range of the wallet list; each change applies at once. */
export function TransactionFilterBar({ filters, onChange, compact, actions }: TransactionFilterBarProps) {
  const change = (patch: Partial<Record<keyof TransactionFilters, string | undefined>>) => {
    const next = { ...filters, ...patch } as TransactionFilters;
    for (const key of Object.keys(next) as (keyof TransactionFilters)[]) {
      if (next[key] === undefined) delete next[key];
    }
    onChange(next);
  };
  const start = fromDay(filters.start);
  const end = fromDay(filters.end);
  const isFiltered = Boolean(filters.type || filters.currency || filters.start || filters.end);

  return (
    <fieldset className={styles.bar} aria-label={walletText.filters.label} data-testid="transaction-filters" {...primaryControl}>
      <Select
        className={styles.type}
        aria-label={walletText.filters.type}
        placeholder={walletText.filters.allTypes}
        allowClear
        value={filters.type ?? null}
        options={typeOptions}
        onChange={(value) => change({ type: value ?? undefined })}
        data-testid="filter-type"
      />
      <Select
        className={styles.currency}
        aria-label={walletText.filters.currency}
        placeholder={walletText.filters.allCurrencies}
        allowClear
        value={filters.currency ?? null}
        options={currencyOptions}
        onChange={(value) => change({ currency: value ?? undefined })}
        data-testid="filter-currency"
      />
      {compact ? (
        <div className={styles.days}>
          <DatePicker
            className={styles.day}
            aria-label={walletText.filters.start}
            placeholder={walletText.filters.start}
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
            aria-label={walletText.filters.end}
            placeholder={walletText.filters.end}
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
          placeholder={walletText.filters.range}
          value={[start, end]}
          allowEmpty={[true, true]}
          presets={rangePresets()}
          disabledDate={afterToday}
          onChange={(values) => change({ start: toDay(values?.[0]), end: toDay(values?.[1]) })}
          data-testid="filter-range"
        />
      )}
      <Button className={styles.reset} onClick={() => onChange({})} disabled={!isFiltered}>
        {walletText.filters.reset}
      </Button>
      {actions ? <div className={styles.actions}>{actions}</div> : null}
    </fieldset>
  );
}
