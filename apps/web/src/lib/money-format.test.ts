import { describe, expect, it } from 'vitest';
import { directionOf, formatAmount, formatSignedAmount } from './money-format.ts';

describe('formatAmount', () => {
  it('groups thousands and keeps two decimals', () => {
    expect(formatAmount('0.00')).toBe('0.00');
    expect(formatAmount('999.50')).toBe('999.50');
    expect(formatAmount('1000.00')).toBe('1,000.00');
    expect(formatAmount('1234567.89')).toBe('1,234,567.89');
    expect(formatAmount('123456789012345.00')).toBe('123,456,789,012,345.00');
  });

  it('floors more than two decimals instead of rounding', () => {
    expect(formatAmount('12.349')).toBe('12.34');
    expect(formatAmount('1999.999')).toBe('1,999.99');
    expect(formatAmount('5')).toBe('5.00');
    // floor goes toward negative infinity, as the helper of spec §9
    expect(formatAmount('-1.005')).toBe('-1.01');
  });

  it('keeps the sign of a negative amount in front of the grouped digits', () => {
    expect(formatAmount('-1234.00')).toBe('-1,234.00');
    expect(formatAmount('-12.00')).toBe('-12.00');
  });

  it('is exact where a binary float is not', () => {
    expect(formatAmount('9007199254740993.10')).toBe('9,007,199,254,740,993.10');
    expect(formatAmount('0.29')).toBe('0.29');
  });
});

describe('formatSignedAmount and directionOf', () => {
  it('marks money into the wallet with a plus and money out with a minus', () => {
    expect(formatSignedAmount('100.00')).toBe('+100.00');
    expect(formatSignedAmount('-2500.50')).toBe('-2,500.50');
    expect(formatSignedAmount('0.00')).toBe('0.00');
    expect(directionOf('100.00')).toBe('in');
    expect(directionOf('-0.01')).toBe('out');
    expect(directionOf('0.00')).toBe('none');
  });
});
