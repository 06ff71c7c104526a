import categoryNames from './merchant-category-names.json' with { type: 'json' };

/**
 * Merchant category codes (ISO 18245, as the card networks assign them) and their 中文 names. A code of
 * the airline, car-rental and lodging ranges (3000–3999, one code per company) is named by its range;
 * any other code that is not assigned is named by the group of codes it falls in, so no code is ever
 * shown to a customer as itself.
 */

/** The groups of codes, in order: each from its first to its last code. */
export const MCC_RANGES = [
  { from: 0, to: 1499, name: '农业服务' },
  { from: 1500, to: 2999, name: '承包服务' },
  { from: 3000, to: 3350, name: '航空公司' },
  { from: 3351, to: 3500, name: '汽车租赁' },
  { from: 3501, to: 3999, name: '酒店住宿' },
  { from: 4000, to: 4799, name: '交通运输服务' },
  { from: 4800, to: 4999, name: '通信及公用事业服务' },
  { from: 5000, to: 5599, name: '零售商店' },
  { from: 5600, to: 5699, name: '服装商店' },
  { from: 5700, to: 7299, name: '其他商店' },
  { from: 7300, to: 7999, name: '商业服务' },
  { from: 8000, to: 8999, name: '专业服务及会员组织' },
  { from: 9000, to: 9999, name: '政府服务' },
] as const;

/** The ranges whose every code is a company of its kind (an airline, a car-rental firm, a hotel chain). */
export const MCC_COMPANY_RANGES = MCC_RANGES.filter((range) => range.from >= 3000 && range.to <= 3999);

/** Every assigned code outside the company ranges, with its 中文 name; the table is data, kept as JSON. */
export const merchantCategoryNames: Readonly<Record<string, string>> = categoryNames;

/** A merchant category code: four digits. */
export const MCC_PATTERN = /^\d{4}$/;

/** What a category that is no code at all is called. */
export const UNKNOWN_MERCHANT_CATEGORY = '未知类别';

/** The group a code falls in. */
export const mccRangeOf = (mcc: string) => {
  if (!MCC_PATTERN.test(mcc)) return undefined;
  const value = Number(mcc);
  return MCC_RANGES.find((range) => value >= range.from && value <= range.to);
};

/** A code's 中文 name: its own, else its range's (airline, car rental, lodging, or the group it falls in). */
export function merchantCategoryName(mcc: string): string {
  return merchantCategoryNames[mcc] ?? mccRangeOf(mcc)?.name ?? UNKNOWN_MERCHANT_CATEGORY;
}
