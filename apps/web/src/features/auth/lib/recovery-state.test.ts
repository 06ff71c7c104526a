import { describe, expect, it } from 'vitest';
import { lastFourDigits, readPhoneCheckState, readPhoneResetState, readResetLink } from './recovery-state.ts';

const phone_info = { phone: '13800138000', phone_prefix: '86' };

describe('navigation state of the phone recovery', () => {
  it('reads the phone and the resend wait for /change-password-check', () => {
    expect(readPhoneCheckState({ phone_info, resend_after: 60 })).toEqual({ phone_info, resend_after: 60 });
    expect(readPhoneCheckState({ phone_info })).toEqual({ phone_info });
    expect(readPhoneCheckState({ phone_info, resend_after: -1 })).toEqual({ phone_info });
  });

  it('reads the phone and the ticket for /reset-password', () => {
    expect(readPhoneResetState({ phone_info, ticket: 't-1' })).toEqual({ phone_info, ticket: 't-1' });
  });

  it('ignores anything else found in the state', () => {
    for (const state of [null, undefined, 'x', {}, { phone_info: { phone: '123', phone_prefix: '86' } }, { phone_info: { phone: 13800138000 } }, { phone_info: { phone: '13800138000', phone_prefix: '852' } }]) {
      expect(readPhoneCheckState(state)).toBeNull();
      expect(readPhoneResetState(state)).toBeNull();
    }
    expect(readPhoneResetState({ phone_info })).toBeNull();
    expect(readPhoneResetState({ phone_info, ticket: '' })).toBeNull();
  });

  it('shows only the last four digits of a phone', () => {
    expect(lastFourDigits('13800138000')).toBe('8000');
  });
});

describe('readResetLink', () => {
  const read = (query: string) => readResetLink(new URLSearchParams(query));

  it('reads the e-mail, code and type of a reset link', () => {
    expect(read('email=a%40b.com&code=123456&type=FORGET_PASSWORD')).toEqual({ email: 'a@b.com', code: '123456', type: 'FORGET_PASSWORD' });
    expect(read('email=a%40b.com&code=123456&type=FORGET_TRX_PASSWORD')).toEqual({ email: 'a@b.com', code: '123456', type: 'FORGET_TRX_PASSWORD' });
  });

  it('resets the login password when the link names no type', () => {
    expect(read('email=a%40b.com&code=123456')?.type).toBe('FORGET_PASSWORD');
  });

  it('is no reset link without an e-mail or a code, or with another type', () => {
    expect(read('code=123456&type=FORGET_PASSWORD')).toBeNull();
    expect(read('email=a%40b.com&type=FORGET_PASSWORD')).toBeNull();
    expect(read('email=a%40b.com&code=123456&type=OTHER')).toBeNull();
    expect(read('')).toBeNull();
  });
});
