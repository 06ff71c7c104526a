import { describe, expect, it } from 'vitest';
import { filterQuery, hasFilters, readTransactionLocation, writeTransactionLocation } from './transaction-filters.ts';

const read = (query: string) => readTransactionLocation(new URLSearchParams(query));

describe('readTransactionLocation', () => {
  it('reads every filter, the page and the page size from the address', () => {
    expect(read('type=ADMIN_RECHARGE_IN&currency=CNY&start=2026-03-01&end=2026-03-31&page=3&size=50')).toEqual({
      filters: { type: 'ADMIN_RECHARGE_IN', currency: 'CNY', start: '2026-03-01', end: '2026-03-31' },
      page: 3,
      pageSize: 50,
    });
  });

  it('starts on the first page of 20 with no filters', () => {
    expect(read('')).toEqual({ filters: {}, page: 1, pageSize: 20 });
  });

  it('drops what the API would refuse instead of sending it', () => {
    expect(read('type=REFUND&currency=EUR&start=2026-02-30&end=tomorrow&page=-2&size=7')).toEqual({
      filters: {},
      page: 1,
      pageSize: 20,
    });
    expect(read('page=1.5').page).toBe(1);
  });

  it('keeps only the start of a range whose end comes first', () => {
    expect(read('start=2026-03-10&end=2026-03-01').filters).toEqual({ start: '2026-03-10' });
    expect(read('start=2026-03-10&end=2026-03-10').filters).toEqual({ start: '2026-03-10', end: '2026-03-10' });
  });
});

describe('writeTransactionLocation', () => {
  it('goes back to the first page when a filter changes and leaves other parameters alone', () => {
    const next = writeTransactionLocation(new URLSearchParams('page=4&size=50&x=1'), { filters: { type: 'OPEN_CARD' } });
    expect(next.toString()).toBe('size=50&x=1&type=OPEN_CARD');
  });

  it('removes cleared filters and default values from the address', () => {
    const cleared = writeTransactionLocation(new URLSearchParams('type=OPEN_CARD&currency=USD&start=2026-03-01&end=2026-03-02'), {
      filters: {},
    });
    expect(cleared.toString()).toBe('');
    expect(writeTransactionLocation(new URLSearchParams('size=50&page=3'), { pageSize: 20 }).toString()).toBe('');
    expect(writeTransactionLocation(new URLSearchParams('page=3'), { page: 1 }).toString()).toBe('');
    expect(writeTransactionLocation(new URLSearchParams(''), { page: 2 }).toString()).toBe('page=2');
  });

  it('round-trips through readTransactionLocation', () => {
    const filters = { type: 'DECLINED_FEE', currency: 'USD', start: '2026-01-01', end: '2026-01-31' } as const;
    const written = writeTransactionLocation(new URLSearchParams(), { filters, pageSize: 10 });
    expect(readTransactionLocation(writeTransactionLocation(written, { page: 2 }))).toEqual({ filters, page: 2, pageSize: 10 });
  });
});

describe('filterQuery', () => {
  it('names the filters as the API does and leaves unset ones out', () => {
    expect(filterQuery({ type: 'ADJUST_OUT', start: '2026-03-01' })).toEqual({ type: 'ADJUST_OUT', start_time: '2026-03-01' });
    expect(filterQuery({ currency: 'CNY', end: '2026-03-02' })).toEqual({ currency: 'CNY', end_time: '2026-03-02' });
    expect(filterQuery({})).toEqual({});
    expect(hasFilters({})).toBe(false);
    expect(hasFilters({ end: '2026-03-02' })).toBe(true);
  });
});
