import { describe, expect, it } from 'vitest';
import { countryName, countryNames, ISO_COUNTRY_CODES, MCC_CATEGORIES, mccCategories, UNKNOWN_COUNTRY } from './card-spending.ts';
import { MCC_COMPANY_RANGES, MCC_RANGES, mccRangeOf, merchantCategoryName, merchantCategoryNames, UNKNOWN_MERCHANT_CATEGORY } from './merchant-categories.ts';

const every4DigitCode = Array.from({ length: 10_000 }, (_, value) => String(value).padStart(4, '0'));
const CHINESE = /\p{Script=Han}/u;

describe('merchant category names', () => {
  it('name every four-digit code in 中文, never by the code itself', () => {
    for (const mcc of every4DigitCode) {
      const name = merchantCategoryName(mcc);
      expect(name, mcc).toMatch(CHINESE);
      expect(name, mcc).not.toMatch(/\d{4}|MCC/);
      expect(name, mcc).not.toBe(UNKNOWN_MERCHANT_CATEGORY);
    }
  });

  it('cover 0000–9999 with ranges that neither overlap nor leave a gap', () => {
    expect(MCC_RANGES[0]?.from).toBe(0);
    expect(MCC_RANGES.at(-1)?.to).toBe(9999);
    for (const [index, range] of MCC_RANGES.entries()) {
      const next = MCC_RANGES[index + 1];
      if (next) expect(next.from, range.name).toBe(range.to + 1);
    }
  });

  it('name each assigned code by its own name, four digits outside the company ranges', () => {
    const codes = Object.keys(merchantCategoryNames);
    expect(codes.length).toBeGreaterThan(280);
    for (const mcc of codes) {
      expect(mcc).toMatch(/^\d{4}$/);
      const value = Number(mcc);
      expect(MCC_COMPANY_RANGES.some((range) => value >= range.from && value <= range.to), mcc).toBe(false);
      expect(merchantCategoryName(mcc)).toBe(merchantCategoryNames[mcc]);
    }
  });

  it('give the codes the portal meets their own names: advertising, software, hosting, games, travel', () => {
    expect(merchantCategoryName('7311')).toBe('广告服务');
    expect(merchantCategoryName('5734')).toBe('计算机软件商店');
    expect(merchantCategoryName('4816')).toBe('计算机网络及信息服务');
    expect(merchantCategoryName('5816')).toBe('数字商品：游戏');
    expect(merchantCategoryName('4722')).toBe('旅行社及旅游服务');
    expect(merchantCategoryName('7995')).toBe('博彩');
  });

  it('name an airline, a car-rental firm and a hotel chain by their range', () => {
    expect(merchantCategoryName('3000')).toBe('航空公司');
    expect(merchantCategoryName('3350')).toBe('航空公司');
    expect(merchantCategoryName('3357')).toBe('汽车租赁');
    expect(merchantCategoryName('3501')).toBe('酒店住宿');
    expect(merchantCategoryName('3999')).toBe('酒店住宿');
  });

  it('name an unassigned code by the group it falls in, and what is no code as unknown', () => {
    expect(merchantCategoryNames['7310']).toBeUndefined();
    expect(merchantCategoryName('7310')).toBe('商业服务');
    expect(mccRangeOf('12345')).toBeUndefined();
    expect(merchantCategoryName('73a1')).toBe(UNKNOWN_MERCHANT_CATEGORY);
    expect(merchantCategoryName('')).toBe(UNKNOWN_MERCHANT_CATEGORY);
  });

  it('name every code of the categories a holder may block by its own name or its range', () => {
    for (const category of MCC_CATEGORIES) {
      for (const mcc of mccCategories[category].mccs) {
        expect(merchantCategoryNames[mcc] ?? mccRangeOf(mcc)?.name, `${category} ${mcc}`).toBeDefined();
      }
    }
  });
});

describe('country names', () => {
  it('name the countries a card meets in 中文, Malta included', () => {
    expect(countryName('MT')).toBe('马耳他');
    expect(countryName('US')).toBe('美国');
    expect(countryName('SG')).toBe('新加坡');
    expect(countryName('HK')).toBe('中国香港');
  });

  it('name every ISO 3166 country in 中文, never by its code', () => {
    expect(ISO_COUNTRY_CODES).toHaveLength(249);
    expect(new Set(ISO_COUNTRY_CODES).size).toBe(249);
    for (const code of ISO_COUNTRY_CODES) {
      expect(countryName(code), code).toMatch(CHINESE);
      expect(countryName(code), code).not.toContain(code);
      expect(countryName(code), code).not.toBe(UNKNOWN_COUNTRY);
    }
    for (const code of Object.keys(countryNames)) {
      expect(ISO_COUNTRY_CODES, code).toContain(code);
      expect(countryName(code)).toBe(countryNames[code]);
    }
  });

  it('call what is no country code 未知地区, not the text itself', () => {
    expect(countryName('QQ')).toBe(UNKNOWN_COUNTRY);
    expect(countryName('usa')).toBe(UNKNOWN_COUNTRY);
    expect(countryName('')).toBe(UNKNOWN_COUNTRY);
  });
});
