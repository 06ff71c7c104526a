/** The password an operator is given: always one the console's own rule accepts. */
import { isOperatorPassword } from '@portal/contract/console';
import { describe, expect, it } from 'vitest';
import { newPassword } from '../../src/modules/operators/service.ts';

describe('a new operator password', () => {
  it('is 20 URL-safe characters the operator password rule accepts', () => {
    for (let i = 0; i < 2000; i += 1) {
      const password = newPassword();
      expect(password).toMatch(/^[A-Za-z0-9_-]{20}$/);
      expect(isOperatorPassword(password)).toBe(true);
    }
  });

  it('is drawn again when a draw lacks a digit or a letter', () => {
    const draws = ['abcdefghijklmnopqrst', '12345678901234567890', 'abcdefghij1234567890'];
    let calls = 0;
    const password = newPassword(() => draws[calls++] as string);
    expect(password).toBe('abcdefghij1234567890');
    expect(calls).toBe(3);
  });
});
