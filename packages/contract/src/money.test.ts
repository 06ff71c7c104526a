import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeFee, floorDecimal, fromMinorUnits, toMinorUnits } from './money.ts';

describe('the number helper floors to the given decimals (spec §9)', () => {
  it.each([
    ['12.3456', 2, '12.34'],
    ['12.3', 2, '12.30'],
    ['12', 2, '12.00'],
    ['0.999', 2, '0.99'],
    ['-1.005', 2, '-1.01'],
    ['7.89', 0, '7'],
    ['1234567890123.999', 2, '1234567890123.99'],
  ])('%s to %i decimals is %s', (value, decimals, expected) => {
    expect(floorDecimal(value, decimals)).toBe(expected);
  });
});

describe('minor units', () => {
  it('round-trips every two-decimal amount exactly', () => {
    fc.assert(fc.property(fc.bigInt({ min: 0n, max: 10n ** 15n }), (units) => toMinorUnits(fromMinorUnits(units)) === units));
  });
  it('refuses more than two decimals rather than rounding', () => {
    expect(() => toMinorUnits('1.005')).toThrow();
    expect(toMinorUnits('0.1')).toBe(10n);
  });
});

describe('the fee helper: amount × rate + fixed, clamped where a bound is non-negative (spec §9)', () => {
  it('adds the rate and the fixed part exactly', () => {
    expect(computeFee('100.00', { rate: '0.015', fixed: '0.50' })).toBe('2.00');
    expect(computeFee('33.33', { rate: '0.03', fixed: '0' })).toBe('0.99');
    expect(computeFee('0.10', { rate: '0.1', fixed: '0.20' })).toBe('0.21');
  });
  it('clamps to the minimum and the maximum', () => {
    expect(computeFee('10.00', { rate: '0.01', fixed: '0', min: '1.00', max: '5.00' })).toBe('1.00');
    expect(computeFee('1000.00', { rate: '0.01', fixed: '0', min: '1.00', max: '5.00' })).toBe('5.00');
    expect(computeFee('300.00', { rate: '0.01', fixed: '0', min: '1.00', max: '5.00' })).toBe('3.00');
  });
  it('a negative or missing bound is no bound', () => {
    expect(computeFee('1000.00', { rate: '0.01', fixed: '0', min: '-1', max: '-1' })).toBe('10.00');
    expect(computeFee('1.00', { rate: '0.01', fixed: '0', min: null, max: null })).toBe('0.01');
  });
  it('floors the result to cents and never exceeds the exact value', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), fc.integer({ min: 0, max: 10_000 }), (cents, basisPoints) => {
        const amount = fromMinorUnits(BigInt(cents));
        const rate = (basisPoints / 10_000).toFixed(4);
        const fee = toMinorUnits(computeFee(amount, { rate, fixed: '0' }));
        // exact: cents × bp / 10000, floored
        return fee === (BigInt(cents) * BigInt(basisPoints)) / 10_000n;
      }),
    );
  });
});
