import { randomInt } from 'node:crypto';

/**
 * The Luhn (mod 10) check digit card numbers end with. From the right, every second digit of the
 * number without its check digit is doubled (9 subtracted when it passes 9); the check digit brings
 * the sum to a multiple of 10.
 */
export function luhnCheckDigit(digits: string): string {
  if (!/^\d+$/.test(digits)) throw new Error('luhnCheckDigit: digits only');
  let sum = 0;
  for (let index = 0; index < digits.length; index++) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 0) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return String((10 - (sum % 10)) % 10);
}

/** Whether a number (digits only, its check digit last) passes the Luhn check. */
export function isLuhnValid(number: string): boolean {
  if (!/^\d{2,}$/.test(number)) return false;
  return luhnCheckDigit(number.slice(0, -1)) === number.slice(-1);
}

/** `count` random decimal digits. */
export const randomDigits = (count: number) => Array.from({ length: count }, () => String(randomInt(10))).join('');

/** A 16-digit card number that starts with `prefix` (a BIN), random digits after it, the Luhn check digit last. */
export function luhnNumberIn(prefix: string, digits: (count: number) => string = randomDigits) {
  const body = prefix + digits(15 - prefix.length);
  return body + luhnCheckDigit(body);
}
