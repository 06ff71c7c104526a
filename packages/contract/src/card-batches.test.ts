import { describe, expect, it } from 'vitest';
import {
  batchCreateCardBody,
  batchExportBody,
  batchNickname,
  batchPercent,
  batchShares,
  CardBatchErrorCode,
  DEFAULT_EXPORT_COLUMNS,
  EXPORT_COLUMN_NAMES,
  EXPORT_COLUMNS,
  nicknamePrefixRule,
} from './card-batches.ts';
import { cardLimits } from './cards.ts';
import { errorCatalogue } from './error-catalogue.ts';

describe('batch opening', () => {
  it('names the cards PREFIX-001 … PREFIX-500, each within a nickname’s 20 characters', () => {
    expect(batchNickname('FB', 1)).toBe('FB-001');
    expect(batchNickname(' FB ', 500)).toBe('FB-500');
    const longest = batchNickname('前'.repeat(16), 500);
    expect([...longest].length).toBe(cardLimits.nicknameMax);
  });

  it('takes a prefix of 1 to 16 characters without control characters', () => {
    expect(nicknamePrefixRule('FB')).toBeNull();
    expect(nicknamePrefixRule('  ')).not.toBeNull();
    expect(nicknamePrefixRule('前'.repeat(17))).toBe('卡片昵称前缀须为1-16个字符');
    expect(nicknamePrefixRule('a\u0007b')).not.toBeNull();
  });

  it('takes 2 to 500 cards a batch, with the quantity message in 中文', () => {
    const body = { product_id: 'p', amount: '10.00', nickname_prefix: 'FB' };
    expect(batchCreateCardBody.safeParse({ ...body, quantity: 2 }).success).toBe(true);
    expect(batchCreateCardBody.safeParse({ ...body, quantity: 500 }).success).toBe(true);
    for (const quantity of [1, 501, 2.5]) {
      const parsed = batchCreateCardBody.safeParse({ ...body, quantity });
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0]?.message).toBe('开卡数量须为2-500张');
    }
  });

  it('counts percent done as (success + fail) / total, floored', () => {
    expect(batchPercent({ success_count: 1, fail_count: 1, total_count: 3 })).toBe(66);
    expect(batchPercent({ success_count: 0, fail_count: 0, total_count: 0 })).toBe(0);
    expect(batchPercent({ success_count: 499, fail_count: 1, total_count: 500 })).toBe(100);
  });

  it('splits the bar into the issued and the failed cards’ shares of the batch', () => {
    expect(batchShares({ success_count: 48, fail_count: 2, total_count: 50 })).toEqual({ success: 96, fail: 4 });
    expect(batchShares({ success_count: 3, fail_count: 1, total_count: 8 })).toEqual({ success: 37.5, fail: 12.5 });
    expect(batchShares({ success_count: 0, fail_count: 0, total_count: 0 })).toEqual({ success: 0, fail: 0 });
  });
});

describe('bulk export', () => {
  it('knows every column it is asked for, and defaults to columns it knows', () => {
    for (const name of DEFAULT_EXPORT_COLUMNS) expect(EXPORT_COLUMN_NAMES).toContain(name);
    expect(EXPORT_COLUMN_NAMES.filter((name) => EXPORT_COLUMNS[name].sensitive)).toEqual(['card_number', 'cvv', 'expiry']);
    expect(batchExportBody.safeParse({ filters: {}, columns: ['pan'] }).success).toBe(false);
    expect(batchExportBody.safeParse({ filters: {}, columns: [] }).success).toBe(false);
    expect(batchExportBody.parse({}).filters).toEqual({});
  });
});

describe('refusals', () => {
  it('has a catalogue entry with a 中文 message for every batch and export code', () => {
    for (const [name, code] of Object.entries(CardBatchErrorCode)) {
      const entry = errorCatalogue[code];
      expect(entry, name).toBeDefined();
      expect(entry?.message, name).toMatch(/[\u4e00-\u9fff]/);
      expect(entry?.status, name).toBeGreaterThanOrEqual(400);
    }
  });
});
