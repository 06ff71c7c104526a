import { Button, DatePicker, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import type { ReactNode } from 'react';
import 'dayjs/locale/zh-cn';
import { primaryControl } from '../../../lib/primary-control.ts';
import styles from './transaction-filter-bar.module.css';

// the pickers' month and weekday names follow the portal's language
dayjs.locale('zh-cn');

const DAY_FORMAT = 'YYYY-MM-DD';
const toDay = (value: Dayjs | null | undefined) => (value ? value.format(DAY_FORMAT) : undefined);
const fromDay = (day: string | undefined) => (day ? dayjs(day) : null);
/** Nothing happens in the future: later days cannot be picked. */
const afterToday = (current: Dayjs) => current.isAfter(dayjs().endOf('day'));

/** Filters of a transaction list: some chosen values and a range of days, each absent when not chosen. */
type DayFilters = { start?: string; end?: string };

/** One drop-down of the bar, over one of the filters. */
export interface FilterSelect<F> {
  key: Exclude<keyof F, 'start' | 'end'> & string;
  className: string | undefined;
  label: string;
  placeholder: string;
  options: { value: string; label: string }[];
  testId: string;
}

/** What the bar says about its days, in its list's words. */
export interface FilterDaysText {
  start: string;
  end: string;
  presets: { today: string; last7: string; last30: string; thisMonth: string };
  rangePlaceholder: [string, string];
  /** the range picker's own name, where its list gives it one */
  rangeLabel?: string;
}

function rangePresets(presets: FilterDaysText['presets']): { label: string; value: [Dayjs, Dayjs] }[] {
  const today = dayjs().startOf('day');
  return [
    { label: presets.today, value: [today, today] },
    { label: presets.last7, value: [today.subtract(6, 'day'), today] },
    { label: presets.last30, value: [today.subtract(29, 'day'), today] },
    { label: presets.thisMonth, value: [today.startOf('month'), today] },
  ];
}

interface TransactionFilterBarProps<F extends DayFilters> {
  filters: F;
  onChange: (filters: F) => void;
  /** narrow screens pick the two days one at a time: a two-month range panel does not fit */
  compact: boolean;
  /** what acts on the filtered rows (the export), at the end of the bar */
  actions?: ReactNode;
  label: string;
  testId: string;
  selects: FilterSelect<F>[];
  days: FilterDaysText;
  /** the range picker's width, the list's own */
  rangeClassName: string | undefined;
  resetText: string;
}

/** The filter bar of a transaction list (the wallet's, a card's): drop-downs and a range of days, each change applied at once. */
export function TransactionFilterBar<F extends DayFilters>({
  filters,
  onChange,
  compact,
  actions,
  label,
  testId,
  selects,
  days,
  rangeClassName,
  resetText,
}: TransactionFilterBarProps<F>) {
  const change = (patch: Partial<Record<keyof F, string | undefined>>) => {
    const next = { ...filters, ...patch } as F;
    for (const key of Object.keys(next) as (keyof F)[]) {
      if (next[key] === undefined) delete next[key];
    }
    onChange(next);
  };
  const start = fromDay(filters.start);
  const end = fromDay(filters.end);
  const isFiltered = selects.some((select) => Boolean(filters[select.key])) || Boolean(filters.start || filters.end);

  return (
    <fieldset className={styles.bar} aria-label={label} data-testid={testId} {...primaryControl}>
      {selects.map((select) => (
        <Select
          key={select.key}
          className={[select.className, styles.half].filter(Boolean).join(' ')}
          aria-label={select.label}
          placeholder={select.placeholder}
          allowClear
          value={(filters[select.key] as string | undefined) ?? null}
          options={select.options}
          onChange={(value) => change({ [select.key]: value ?? undefined } as Partial<Record<keyof F, string | undefined>>)}
          data-testid={select.testId}
        />
      ))}
      {compact ? (
        <div className={styles.days}>
          <DatePicker
            className={styles.day}
            aria-label={days.start}
            placeholder={days.start}
            value={start}
            inputReadOnly
            disabledDate={(current) => afterToday(current) || Boolean(end && current.isAfter(end, 'day'))}
            onChange={(value: Dayjs | null) => change({ start: toDay(value) } as Partial<Record<keyof F, string | undefined>>)}
            data-testid="filter-start"
          />
          <span className={styles.to} aria-hidden>
            ~
          </span>
          <DatePicker
            className={styles.day}
            aria-label={days.end}
            placeholder={days.end}
            value={end}
            inputReadOnly
            disabledDate={(current) => afterToday(current) || Boolean(start && current.isBefore(start, 'day'))}
            onChange={(value: Dayjs | null) => change({ end: toDay(value) } as Partial<Record<keyof F, string | undefined>>)}
            data-testid="filter-end"
          />
        </div>
      ) : (
        <DatePicker.RangePicker
          className={rangeClassName}
          {...(days.rangeLabel ? { 'aria-label': days.rangeLabel } : {})}
          placeholder={days.rangePlaceholder}
          value={[start, end]}
          allowEmpty={[true, true]}
          presets={rangePresets(days.presets)}
          disabledDate={afterToday}
          onChange={(values) => change({ start: toDay(values?.[0]), end: toDay(values?.[1]) } as Partial<Record<keyof F, string | undefined>>)}
          data-testid="filter-range"
        />
      )}
      <Button className={styles.half} onClick={() => onChange({} as F)} disabled={!isFiltered}>
        {resetText}
      </Button>
      {actions ? <div className={`${styles.actions} ${styles.half}`}>{actions}</div> : null}
    </fieldset>
  );
}
