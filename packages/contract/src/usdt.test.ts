import { describe, expect, it } from 'vitest';
import { formatUsdt, toUsdtMicros, usdtAmountRule, usdtCredit, usdtMessages } from './usdt.ts';

describe('USDT amounts', () => {
  it('are read exactly to 6 decimals and written with every decimal they have, at least two', () => {
    expect(toUsdtMicros('12.345678')).toBe(12_345_678n);
    expect(toUsdtMicros('0.000001')).toBe(1n);
    expect(toUsdtMicros('100')).toBe(100_000_000n);
    expect(formatUsdt(12_345_678n)).toBe('12.345678');
    expect(formatUsdt(100_000_000n)).toBe('100.00');
    expect(formatUsdt(1_500_000n)).toBe('1.50');
    expect(formatUsdt(1n)).toBe('0.000001');
  });

  it('refuse zero, a seventh decimal, signs, exponents and more than 1,000,000,000, in 中文', () => {
    for (const bad of ['0', '0.000000', '1.1234567', '-1', '+1', '1e3', '01.5', '1.', '.5', 'abc', '1000000000.000001']) {
      expect(toUsdtMicros(bad), bad).toBeNull();
      expect(usdtAmountRule(bad), bad).toBe(usdtMessages.amount);
    }
    expect(usdtAmountRule('  ')).toBe(usdtMessages.amountRequired);
    expect(usdtAmountRule(' 1000000000 ')).toBeNull();
  });
});

describe('the credit of a USDT deposit', () => {
  it('floors the value and the credit to the cent; the fee is what lies between', () => {
    // 12.345678 USDT at 1.00 and 1 %: worth 12.345678, credit 12.22222122 → 12.22, value 12.34, fee 0.12
    expect(usdtCredit(12_345_678n, 1_000_000n, 100)).toEqual({ value: 1234n, fee: 12n, credited: 1222n });
    expect(usdtCredit(100_000_000n, 1_000_000n, 100)).toEqual({ value: 10_000n, fee: 100n, credited: 9900n });
    // 1.00 USDT at 1.5 %: the exact credit 0.985 floors to 0.98
    expect(usdtCredit(1_000_000n, 1_000_000n, 150)).toEqual({ value: 100n, fee: 2n, credited: 98n });
    // below a cent after the fee: nothing
    expect(usdtCredit(9_999n, 1_000_000n, 0).credited).toBe(0n);
  });

  it('never credits more than the deposit is worth at the rate less the fee, by less than a cent', () => {
    let seed = 7;
    const next = (below: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % below;
    };
    for (let i = 0; i < 2_000; i += 1) {
      const usdt = BigInt(next(2_000_000_000)) + 1n;
      const rate = BigInt(next(100_000_000)) + 1n;
      const bps = next(1_001);
      const { value, fee, credited } = usdtCredit(usdt, rate, bps);
      // exact worth after the fee, in 10^-16 USD; a cent is 10^14 of those
      const exact = usdt * rate * BigInt(10_000 - bps);
      expect(credited * 100_000_000_000_000n <= exact).toBe(true);
      expect(exact - credited * 100_000_000_000_000n < 100_000_000_000_000n).toBe(true);
      expect(value - fee).toBe(credited);
      expect(fee >= 0n).toBe(true);
    }
  });
});
