import { describe, expect, it } from 'vitest';
import { chinaMonthOf, statementFeeLabel, statementMonth, statementMonthRange, statementPeriodText, statementQuery, statementRowLabel } from './statements.ts';

describe('a statement’s month, China time', () => {
  it('runs from the 1st 00:00 UTC+8 to the next month’s, across a year’s end', () => {
    expect(statementMonthRange('2026-10')).toEqual({ start: new Date('2026-09-30T16:00:00Z'), end: new Date('2026-10-31T16:00:00Z') });
    expect(statementMonthRange('2026-12')).toEqual({ start: new Date('2026-11-30T16:00:00Z'), end: new Date('2026-12-31T16:00:00Z') });
    expect(statementMonthRange('2028-02').end).toEqual(new Date('2028-02-29T16:00:00Z'));
  });

  it('names the month an instant falls in as China reads it', () => {
    expect(chinaMonthOf(new Date('2026-10-31T15:59:59Z'))).toBe('2026-10');
    expect(chinaMonthOf(new Date('2026-10-31T16:00:00Z'))).toBe('2026-11');
  });

  it('prints the month’s first and last day', () => {
    expect(statementPeriodText('2026-11')).toBe('2026-11-01 至 2026-11-30');
    expect(statementPeriodText('2028-02')).toBe('2028-02-01 至 2028-02-29');
  });

  it('takes YYYY-MM from 2020-01 on, and PDF unless asked', () => {
    for (const bad of ['2026-13', '2026-00', '2026-1', '26-10', '2019-12', '2026-10-01', '']) expect(statementMonth.safeParse(bad).success, bad).toBe(false);
    expect(statementQuery.parse({ month: '2026-10', currency: 'USD' })).toEqual({ month: '2026-10', currency: 'USD', format: 'pdf' });
    expect(statementQuery.safeParse({ month: '2026-10', currency: 'USD', format: 'doc' }).success).toBe(false);
  });
});

describe('what a movement and a fee are called', () => {
  it('names a card’s side of a transfer from the card', () => {
    expect(statementRowLabel({ side: 'WALLET', type: 'TRANSFER_OUT_TO_CARD', firstLoad: false, reversal: false })).toBe('转出');
    expect(statementRowLabel({ side: 'WALLET', type: 'TRANSFER_OUT_TO_CARD', firstLoad: true, reversal: false })).toBe('开卡充值');
    expect(statementRowLabel({ side: 'CARD', type: 'TRANSFER_OUT_TO_CARD', firstLoad: false, reversal: false })).toBe('转入');
    expect(statementRowLabel({ side: 'CARD', type: 'TRANSFER_IN_FROM_CARD', firstLoad: false, reversal: false })).toBe('转出');
    expect(statementRowLabel({ side: 'CARD', type: 'CARD_CONSUME', firstLoad: false, reversal: true })).toBe('冲正：消费');
    expect(statementRowLabel({ side: 'WALLET', type: 'SOMETHING_NEW', firstLoad: false, reversal: false })).toBe('其他');
  });

  it('names each fee by what paid it', () => {
    expect(statementFeeLabel('OPEN_CARD')).toBe('开卡费');
    expect(statementFeeLabel('TRANSFER_OUT_TO_CARD')).toBe('卡片充值手续费');
    expect(statementFeeLabel('DECLINED_FEE')).toBe('交易被拒手续费');
  });
});
