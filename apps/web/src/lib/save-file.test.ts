import { describe, expect, it } from 'vitest';
import { fileNameFrom } from './save-file.ts';

describe('fileNameFrom', () => {
  it('prefers the UTF-8 name, so the 中文 name survives', () => {
    const header = `attachment; filename="wallet-transactions-20260301.xlsx"; filename*=UTF-8''${encodeURIComponent('钱包流水-20260301.xlsx')}`;
    expect(fileNameFrom(header, 'x.xlsx')).toBe('钱包流水-20260301.xlsx');
  });

  it('falls back to the plain name, quoted or not', () => {
    expect(fileNameFrom('attachment; filename="wallet.xlsx"', 'x.xlsx')).toBe('wallet.xlsx');
    expect(fileNameFrom('attachment; filename=wallet.xlsx', 'x.xlsx')).toBe('wallet.xlsx');
    expect(fileNameFrom("attachment; filename*=UTF-8''%E0%A4%A; filename=\"plain.xlsx\"", 'x.xlsx')).toBe('plain.xlsx');
  });

  it('uses the fallback without a header or a name, and never keeps a folder', () => {
    expect(fileNameFrom(undefined, '钱包流水.xlsx')).toBe('钱包流水.xlsx');
    expect(fileNameFrom('attachment', '钱包流水.xlsx')).toBe('钱包流水.xlsx');
    expect(fileNameFrom('attachment; filename="../../etc/passwd"', 'x.xlsx')).toBe('passwd');
  });
});
