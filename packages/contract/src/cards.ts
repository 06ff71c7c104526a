import { z } from 'zod';
import { CURRENCIES } from './enums.ts';
import { messages, rules } from './rules.ts';
import { ruled } from './validation.ts';
import { moneyText } from './wallet.ts';

/**
 * Card products and the holder's verification (shared/design/cards.md): what a merchant offers, and
 * what an account must give before its first card. Amounts are two-decimal strings.
 */

export const CARD_BRANDS = ['VISA', 'MASTERCARD'] as const;
export type CardBrand = (typeof CARD_BRANDS)[number];

export const PRODUCT_STATUSES = ['ON', 'OFF'] as const;
export type ProductStatus = (typeof PRODUCT_STATUSES)[number];

/** A top-up fee rate as the API writes it: a decimal fraction with up to six places ("0.015" is 1.5 %). */
export const FEE_RATE_PATTERN = /^0(\.\d{1,6})?$/;
/** A product's BIN: the first 6 to 8 digits of its cards' numbers. */
export const BIN_PATTERN = /^\d{6,8}$/;

export const cardProduct = z.object({
  id: z.string(),
  name: z.string(),
  brand: z.enum(CARD_BRANDS),
  bin: z.string(),
  currency: z.enum(CURRENCIES),
  open_fee: moneyText,
  topup_fee_rate: z.string(),
  topup_fee_fixed: moneyText,
  /** null: no lower bound */
  topup_fee_min: moneyText.nullable(),
  /** null: no upper bound */
  topup_fee_max: moneyText.nullable(),
  min_first_load: moneyText,
  max_balance: moneyText,
  decline_fee: moneyText,
  per_account_limit: z.number().int(),
  max_per_batch: z.number().int(),
  needs_secondary: z.boolean(),
  status: z.enum(PRODUCT_STATUSES),
});
export type CardProduct = z.infer<typeof cardProduct>;

/** GET /card/opened-available: what the account has given, and the products it may open with how many more. */
export const openedAvailableAnswer = z.object({
  verification: z.object({ basic: z.boolean(), secondary: z.boolean() }),
  products: z.array(cardProduct.extend({ remaining: z.number().int() })),
});
export type OpenedAvailableAnswer = z.infer<typeof openedAvailableAnswer>;

export const verificationLimits = { realNameMin: 2, realNameMax: 30, latinNameMin: 2, latinNameMax: 60, websiteMax: 200 } as const;

/** 真实姓名: 2–30 characters as on the ID card (Chinese characters, letters, the middle dot of minority names). */
const REAL_NAME = /^[\u3400-\u4dbf\u4e00-\u9fffA-Za-z·•．. ]+$/;
/** 英文姓名: letters, spaces and the marks of Latin names, nothing Chinese. */
const LATIN_NAME = /^[A-Za-z][A-Za-z .'-]*$/;

export const verificationMessages = {
  realName: '请输入真实姓名',
  latinName: '请输入英文姓名（字母与空格）',
  websiteTooLong: '网址长度超过限制',
  basicIncomplete: '请同时填写真实姓名和身份证号码',
  secondaryIncomplete: '请同时填写英文姓名和网址',
  nothingGiven: '请填写认证信息',
} as const;

export const verificationRules = {
  // names are read without the spaces around them (the server keeps them trimmed)
  realName: (value: string) => {
    const name = value.trim();
    if (name === '') return messages.required;
    const length = [...name].length;
    if (length < verificationLimits.realNameMin || length > verificationLimits.realNameMax || !REAL_NAME.test(name)) {
      return verificationMessages.realName;
    }
    return null;
  },
  latinName: (value: string) => {
    const name = value.trim();
    if (name === '') return messages.required;
    const chinese = rules.nonChinese(name);
    if (chinese) return chinese;
    if (name.length < verificationLimits.latinNameMin || name.length > verificationLimits.latinNameMax || !LATIN_NAME.test(name)) {
      return verificationMessages.latinName;
    }
    return null;
  },
  website: (value: string) => rules.url(value) ?? (value.length > verificationLimits.websiteMax ? verificationMessages.websiteTooLong : null),
};

/**
 * PUT /card/verification: the basic pair (real name and ID number), the secondary pair (Latin name and
 * website), or both; a pair is given whole. Given data is kept: a pair given again replaces it.
 */
export const verificationBody = z
  .object({
    real_name: ruled(verificationRules.realName).optional(),
    id_number: ruled(rules.idNumber).optional(),
    latin_name: ruled(verificationRules.latinName).optional(),
    website: ruled(verificationRules.website).optional(),
  })
  .superRefine((body, ctx) => {
    const basic = [body.real_name, body.id_number].filter((value) => value !== undefined).length;
    const secondary = [body.latin_name, body.website].filter((value) => value !== undefined).length;
    if (basic === 1) ctx.addIssue({ code: 'custom', path: [body.real_name === undefined ? 'real_name' : 'id_number'], message: verificationMessages.basicIncomplete });
    if (secondary === 1) ctx.addIssue({ code: 'custom', path: [body.latin_name === undefined ? 'latin_name' : 'website'], message: verificationMessages.secondaryIncomplete });
    if (basic === 0 && secondary === 0) ctx.addIssue({ code: 'custom', path: [], message: verificationMessages.nothingGiven });
  });
export type VerificationBody = z.infer<typeof verificationBody>;

export const verificationAnswer = z.object({
  basic: z.object({ real_name: z.string(), id_number_masked: z.string() }).nullable(),
  secondary: z.object({ latin_name: z.string(), website: z.string() }).nullable(),
});
export type VerificationAnswer = z.infer<typeof verificationAnswer>;
