import { describe, expect, it } from 'vitest';
import { chinaDateTime, chinaWallClock, MACHINE_TIME_PATTERN } from './date-time.ts';

describe('chinaDateTime', () => {
  it('shows an instant in China Standard Time, to the minute or the second', () => {
    expect(chinaDateTime('2026-11-28T00:40:48.507Z')).toBe('2026-11-28 08:40');
    expect(chinaDateTime(new Date('2026-11-28T00:40:48.507Z'), { seconds: true })).toBe('2026-11-28 08:40:48');
    expect(chinaDateTime('2026-02-28T16:05:09Z', { seconds: true })).toBe('2026-03-01 00:05:09');
    expect(chinaDateTime('2026-03-01T08:30:00+08:00')).toBe('2026-03-01 08:30');
  });

  it('shows nothing for a time it cannot read', () => {
    expect(chinaDateTime('soon')).toBe('');
    expect(chinaDateTime(new Date(Number.NaN))).toBe('');
  });

  it('gives a spreadsheet the wall clock of China as its reading', () => {
    expect(chinaWallClock(new Date('2026-11-28T20:00:00Z')).toISOString()).toBe('2026-11-29T04:00:00.000Z');
  });
});

describe('MACHINE_TIME_PATTERN', () => {
  it('finds an ISO time or a UTC time, not China time', () => {
    expect(MACHINE_TIME_PATTERN.test('有效期至 2026-11-28T00:40:48.507Z。')).toBe(true);
    expect(MACHINE_TIME_PATTERN.test('于 00:40Z 修改')).toBe(true);
    expect(MACHINE_TIME_PATTERN.test('有效期至 2026-11-28 08:40:48（北京时间）。')).toBe(false);
  });
});
