import { describe, expect, it } from 'vitest';
import { ErrorCode, formatMessage, isSessionErrorCode, SESSION_ERROR_CODES } from './errors.ts';
import { errorCatalogue } from './error-catalogue.ts';
import { SecurityErrorCode } from './security-errors.ts';

describe('the error catalogue', () => {
  it('has an entry with a 中文 message, an HTTP status and a meaning for every code', () => {
    for (const [name, code] of Object.entries(ErrorCode)) {
      if (code === 0) continue;
      const entry = errorCatalogue[code];
      expect(entry, name).toBeDefined();
      expect(entry?.message, name).toMatch(/[\u4e00-\u9fff]/);
      expect(entry?.status, name).toBeGreaterThanOrEqual(400);
      expect(entry?.meaning.length, name).toBeGreaterThan(10);
    }
  });
  it("has an entry for each of the security centre's refusals, apart from the other codes", () => {
    const others: number[] = Object.values(ErrorCode);
    for (const [name, code] of Object.entries(SecurityErrorCode)) {
      expect(others, name).not.toContain(code);
      expect(errorCatalogue[code]?.message, name).toMatch(/[\u4e00-\u9fff]/);
      expect(errorCatalogue[code]?.meaning.length, name).toBeGreaterThan(10);
    }
    const warning = errorCatalogue[SecurityErrorCode.OLD_PASSWORD_WRONG]?.variants?.lockWarning ?? '';
    expect(formatMessage(warning, { remaining: 1, minutes: 15 })).toBe('原密码错误，再错1次将锁定15分钟');
  });
  it('words each variant in 中文 with the placeholders it is filled with', () => {
    const warning = errorCatalogue[ErrorCode.BAD_CREDENTIALS]?.variants?.lockWarning ?? '';
    expect(formatMessage(warning, { remaining: 2, minutes: 15 })).toBe('账号或密码错误，再错2次将锁定15分钟');
    for (const [code, entry] of Object.entries(errorCatalogue)) {
      for (const [name, text] of Object.entries(entry.variants ?? {})) expect(text, `${code} ${name}`).toMatch(/[\u4e00-\u9fff]/);
    }
  });
  it('has one code per name and one name per code', () => {
    const codes = Object.values(ErrorCode);
    expect(new Set(codes).size).toBe(codes.length);
  });
  it('the session codes of spec §8 are 605, 606, 607, 608 and 1000, each with its own message', () => {
    expect([...SESSION_ERROR_CODES].sort()).toEqual([1000, 605, 606, 607, 608]);
    const texts = SESSION_ERROR_CODES.map((code) => errorCatalogue[code]?.message);
    expect(new Set(texts).size).toBe(5);
    expect(isSessionErrorCode(607)).toBe(true);
    expect(isSessionErrorCode(2001)).toBe(false);
  });
  it('fills placeholders and leaves unknown ones', () => {
    expect(formatMessage('请{seconds}秒后再试', { seconds: 42 })).toBe('请42秒后再试');
    expect(formatMessage('请{seconds}秒后再试')).toBe('请{seconds}秒后再试');
  });
});
