import { describe, expect, it } from 'vitest';
import { formatDateTime } from './date-time.ts';

describe('formatDateTime', () => {
  it('shows an instant in China Standard Time', () => {
    expect(formatDateTime('2026-03-01T00:30:00Z')).toBe('2026-03-01 08:30');
    expect(formatDateTime('2026-02-28T16:05:09.123Z')).toBe('2026-03-01 00:05');
  });

  it('shows nothing for a time it cannot read', () => {
    expect(formatDateTime('soon')).toBe('');
  });
});

describe('formatDateTime to the second', () => {
  it('adds the seconds in China Standard Time', () => {
    expect(formatDateTime('2026-03-01T01:30:05Z', { seconds: true })).toBe('2026-03-01 09:30:05');
    expect(formatDateTime('not a date', { seconds: true })).toBe('');
  });
});
