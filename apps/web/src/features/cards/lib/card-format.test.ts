import { describe, expect, it } from 'vitest';
import { expiryText, groupedNumber, maskedNumber, ratePercent, shortMaskedNumber } from './card-format.ts';

describe('card numbers', () => {
  it('show the last four only, or nothing before the card is issued', () => {
    expect(shortMaskedNumber('1234')).toBe('•••• 1234');
    expect(shortMaskedNumber(null)).toBeNull();
    expect(maskedNumber('1234')).toBe('•••• •••• •••• 1234');
  });

  it('group a revealed number by four and write the expiry as MM/YY', () => {
    expect(groupedNumber('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(groupedNumber('4242 4242 4242 4242')).toBe('4242 4242 4242 4242');
    expect(expiryText('8', '2029')).toBe('08/29');
    expect(expiryText('12', '31')).toBe('12/31');
  });
});

describe('ratePercent', () => {
  it('moves the decimal point without a float', () => {
    expect(ratePercent('0.015')).toBe('1.5%');
    expect(ratePercent('0.01')).toBe('1%');
    expect(ratePercent('0.010')).toBe('1%');
    expect(ratePercent('0.008')).toBe('0.8%');
    expect(ratePercent('0')).toBe('0%');
    expect(ratePercent('0.123456')).toBe('12.3456%');
    expect(ratePercent('0.1')).toBe('10%');
  });
});
