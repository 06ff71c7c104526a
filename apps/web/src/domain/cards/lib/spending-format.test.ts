import { declineReasons } from '@portal/contract/card-spending';
import { describe, expect, it } from 'vitest';
import { canFix, categoryText, categoryTitle, countryText, declineOf, percentText } from './spending-format.ts';

describe('a card transaction’s spending details', () => {
  it('names the category and the country in 中文, their codes only for the tooltip', () => {
    expect(categoryText('6051')).toBe('准现金：外币兑换、汇票及加密货币');
    expect(categoryText('7311')).toBe('广告服务');
    expect(categoryText('5734')).toBe('计算机软件商店');
    expect(categoryTitle('7311')).toBe('MCC 7311');
    expect(categoryText(null)).toBeNull();
    expect(countryText('HK')).toBe('中国香港');
    expect(countryText('MT')).toBe('马耳他');
    expect(countryText('ZZ')).toBe('未知地区');
  });

  it('explains a failed row only, in the server’s words, else the contract’s', () => {
    const row = { status: 'FAIL' as const, decline_code: 'OVER_SINGLE_LIMIT' as const, decline_reason: null, decline_fix: null };
    expect(declineOf(row)).toEqual({ reason: '超出单笔限额', fix: declineReasons.OVER_SINGLE_LIMIT.fix, action: 'CONTROLS' });
    expect(declineOf({ ...row, decline_reason: '服务器说明', decline_fix: '服务器建议' })).toEqual({ reason: '服务器说明', fix: '服务器建议', action: 'CONTROLS' });
    expect(declineOf({ ...row, status: 'CLOSED' })).toBeNull();
    expect(declineOf({ status: 'FAIL', decline_code: null, decline_reason: '发卡机构拒绝', decline_fix: null })).toEqual({ reason: '发卡机构拒绝', fix: null, action: 'NONE' });
  });

  it('offers a fix only where the card allows it now', () => {
    expect(canFix('RECHARGE', { status: 'NORMAL', actions: ['RECHARGE'] })).toBe(true);
    expect(canFix('RECHARGE', { status: 'FREEZE', actions: ['WITHDRAW'] })).toBe(false);
    expect(canFix('UNFREEZE', { status: 'NORMAL', actions: ['FREEZE'] })).toBe(false);
    expect(canFix('CONTROLS', { status: 'FREEZE', actions: [] })).toBe(true);
    expect(canFix('CONTROLS', { status: 'DELETE', actions: [] })).toBe(false);
  });

  it('writes a rate as a percentage', () => {
    expect(percentText(0)).toBe('0%');
    expect(percentText(0.045)).toBe('4.5%');
    expect(percentText(0.2)).toBe('20%');
    expect(percentText(1)).toBe('100%');
  });
});
