import { describe, expect, it } from 'vitest';
import { activityFilterQuery, hasActivityFilters, readActivityLocation, writeActivityLocation } from './activity-filters.ts';

const read = (search: string) => readActivityLocation(new URLSearchParams(search));

describe('the activity log in the address', () => {
  it('reads member, kind, days and page, dropping what the API would refuse', () => {
    expect(read('member=m-1&kind=CARD&start=2026-03-01&end=2026-03-31&page=3&size=50')).toEqual({
      filters: { member: 'm-1', kind: 'CARD', start: '2026-03-01', end: '2026-03-31' },
      page: 3,
      pageSize: 50,
    });
    expect(read('kind=WALLET&start=2026-02-30&size=7&page=0')).toEqual({ filters: {}, page: 1, pageSize: 20 });
    // an end before the start is no range: the start stays alone
    expect(read('start=2026-03-10&end=2026-03-01').filters).toEqual({ start: '2026-03-10' });
  });

  it('writes a filter change from the first page, and leaves the rest of the address alone', () => {
    const next = writeActivityLocation(new URLSearchParams('page=4&size=50&other=1'), { filters: { kind: 'MONEY', member: 'm-2' } });
    expect(Object.fromEntries(next)).toEqual({ size: '50', other: '1', kind: 'MONEY', member: 'm-2' });
    const cleared = writeActivityLocation(next, { filters: {} });
    expect(Object.fromEntries(cleared)).toEqual({ size: '50', other: '1' });
    expect(Object.fromEntries(writeActivityLocation(cleared, { page: 2 }))).toEqual({ size: '50', other: '1', page: '2' });
  });

  it("names the filters as the API does, China-time days as from and to", () => {
    expect(activityFilterQuery({ member: 'm-1', kind: 'KEY', start: '2026-03-01', end: '2026-03-02' })).toEqual({
      member_id: 'm-1',
      kind: 'KEY',
      from: '2026-03-01',
      to: '2026-03-02',
    });
    expect(activityFilterQuery({})).toEqual({});
    expect(hasActivityFilters({})).toBe(false);
    expect(hasActivityFilters({ end: '2026-03-02' })).toBe(true);
  });
});
