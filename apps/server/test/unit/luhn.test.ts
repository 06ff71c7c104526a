import { describe, expect, it } from 'vitest';
import { isLuhnValid, luhnCheckDigit } from '../../src/lib/luhn.ts';

describe('Luhn', () => {
  it('gives the check digit of well-known numbers', () => {
    expect(luhnCheckDigit('7992739871')).toBe('3');
    expect(luhnCheckDigit('424242424242424')).toBe('2');
    expect(luhnCheckDigit('555555555555444')).toBe('4');
    expect(luhnCheckDigit('400000000000000')).toBe('2');
    expect(luhnCheckDigit('0')).toBe('0');
  });

  it('accepts valid numbers and refuses a changed digit, swapped neighbours and non-digits', () => {
    for (const valid of ['4242424242424242', '5555555555554444', '4000000000000002', '79927398713', '4111111111111111']) {
      expect(isLuhnValid(valid), valid).toBe(true);
    }
    expect(isLuhnValid('4242424242424241')).toBe(false);
    expect(isLuhnValid('4242424242424252')).toBe(false);
    expect(isLuhnValid('79927398731')).toBe(false);
    expect(isLuhnValid('4242 4242 4242 4242')).toBe(false);
    expect(isLuhnValid('')).toBe(false);
    expect(isLuhnValid('0')).toBe(false);
    expect(() => luhnCheckDigit('12a')).toThrow();
  });

  it('makes every number it completes valid, and only its own check digit', () => {
    for (let n = 0; n < 500; n++) {
      const body = String(n * 7919).padStart(15, '4');
      const check = luhnCheckDigit(body);
      expect(isLuhnValid(body + check)).toBe(true);
      for (let other = 0; other < 10; other++) {
        if (String(other) !== check) expect(isLuhnValid(body + other)).toBe(false);
      }
    }
  });
});
