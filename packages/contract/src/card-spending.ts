import { z } from 'zod';
import preferredCountryNames from './country-names.json' with { type: 'json' };
import { CURRENCIES } from './enums.ts';
import { AMOUNT_PATTERN, toMinorUnits } from './money.ts';
import isoCountryCodes from './iso-country-codes.json' with { type: 'json' };
import { moneyText } from './wallet.ts';

/**
 * A card's spending (shared/design/cards.md "Spending"): why an authorisation was declined and what to
 * do about it, the merchant categories a holder may block, the card's controls, and when a card is at
 * risk. The server decides with these, the portal shows them: one text for both halves.
 */

/** Why an authorisation was declined. */
export const DECLINE_CODES = [
  'INSUFFICIENT_FUNDS',
  'CARD_FROZEN',
  'CARD_CLOSED',
  'OVER_SINGLE_LIMIT',
  'OVER_DAILY_LIMIT',
  'OVER_MONTHLY_LIMIT',
  'CATEGORY_BLOCKED',
  'COUNTRY_BLOCKED',
  'CURRENCY_MISMATCH',
  'ISSUER_DECLINED',
] as const;
export type DeclineCode = (typeof DECLINE_CODES)[number];

/** What the holder can do about a decline, as a button on the card's page. */
export const DECLINE_FIX_ACTIONS = ['RECHARGE', 'UNFREEZE', 'CONTROLS', 'NONE'] as const;
export type DeclineFixAction = (typeof DECLINE_FIX_ACTIONS)[number];

/** Each decline: its 中文 reason, the fix in words, and the action that applies it. */
export const declineReasons: Record<DeclineCode, { reason: string; fix: string; action: DeclineFixAction }> = {
  INSUFFICIENT_FUNDS: { reason: '卡片余额不足', fix: '请为卡片充值后重试', action: 'RECHARGE' },
  CARD_FROZEN: { reason: '卡片已冻结', fix: '请解冻卡片后重试；由平台或发卡机构冻结的卡片请联系客服', action: 'UNFREEZE' },
  CARD_CLOSED: { reason: '卡片已注销', fix: '已注销的卡片无法消费，请使用其他卡片或重新开卡', action: 'NONE' },
  OVER_SINGLE_LIMIT: { reason: '超出单笔限额', fix: '请调整卡片的单笔限额，或分次支付', action: 'CONTROLS' },
  OVER_DAILY_LIMIT: { reason: '超出单日限额', fix: '请调整卡片的单日限额，或次日（北京时间）再试', action: 'CONTROLS' },
  OVER_MONTHLY_LIMIT: { reason: '超出单月限额', fix: '请调整卡片的单月限额，或下月（北京时间）再试', action: 'CONTROLS' },
  CATEGORY_BLOCKED: { reason: '商户类别受限', fix: '该商户类别已被此卡禁止，如需使用请在卡片限制中取消禁止', action: 'CONTROLS' },
  COUNTRY_BLOCKED: { reason: '交易地区受限', fix: '该地区不在此卡允许的地区内，如需使用请在卡片限制中添加', action: 'CONTROLS' },
  CURRENCY_MISMATCH: { reason: '交易币种与卡片币种不符', fix: '请使用与交易币种相同的卡片', action: 'NONE' },
  ISSUER_DECLINED: { reason: '发卡机构拒绝交易', fix: '请稍后重试，如多次失败请联系客服', action: 'NONE' },
};

/** Why a CONSUME is FAIL without a decline code: the merchant reversed the authorisation before it settled. */
export const AUTHORIZATION_REVERSED_REASON = '商户已撤销该笔授权，预留金额已退回卡片';

/** The same, on a card cancelled since: the hold went back to the wallet. */
export const AUTHORIZATION_REVERSED_CLOSED_REASON = '商户已撤销该笔授权，卡片已注销，预留金额已退回钱包';

/** Days an authorisation's hold waits for the issuer's settlement or reversal before it is released (AUTH_HOLD_EXPIRY_DAYS). */
export const DEFAULT_AUTH_HOLD_EXPIRY_DAYS = 7;

/** Why a CONSUME is FAIL without a decline code: neither settled nor reversed in time, its hold released. */
export const authorizationExpiredReason = (days: number, closed: boolean) =>
  `授权超过 ${days} 天未结算，预留金额已${closed ? '退回钱包（卡片已注销）' : '退回卡片'}`;

/** A settlement may exceed its authorisation by at most this share (tips, currency moves): 15 %. */
export const SETTLEMENT_MAX_OVER_PERCENT = 15n;

/** Merchant categories a holder may block, each a named group of MCCs. */
export const MCC_CATEGORIES = ['GAMBLING', 'CRYPTO', 'FINANCIAL', 'ADULT', 'DATING', 'PHARMACY', 'TOBACCO', 'TRAVEL'] as const;
export type MccCategory = (typeof MCC_CATEGORIES)[number];

export const mccCategories: Record<MccCategory, { label: string; mccs: readonly string[] }> = {
  GAMBLING: { label: '赌博', mccs: ['7995', '7800', '7801', '7802', '9406'] },
  CRYPTO: { label: '加密货币', mccs: ['6051'] },
  FINANCIAL: { label: '金融服务', mccs: ['4829', '6010', '6011', '6012', '6211', '6540'] },
  ADULT: { label: '成人内容', mccs: ['5967'] },
  DATING: { label: '交友服务', mccs: ['7273'] },
  PHARMACY: { label: '药品', mccs: ['5122', '5912'] },
  TOBACCO: { label: '烟草', mccs: ['5993'] },
  TRAVEL: { label: '机票与酒店', mccs: ['3000', '4511', '4722', '7011'] },
};

/** The blocked categories an MCC falls in (none for most). */
export const categoriesOfMcc = (mcc: string): MccCategory[] => MCC_CATEGORIES.filter((category) => mccCategories[category].mccs.includes(mcc));

/** A country as ISO 3166 alpha-2. */
export const COUNTRY_PATTERN = /^[A-Z]{2}$/;

/**
 * The countries the portal offers first, with the names it prefers; every other one is named by the
 * locale's data (countryName). The tables of countries are data, kept as JSON.
 */
export const countryNames: Readonly<Record<string, string>> = preferredCountryNames;

/** Every country and territory of ISO 3166-1 (alpha-2), as a card's allowed countries may name them. */
export const ISO_COUNTRY_CODES: readonly string[] = isoCountryCodes;

/** What a country that is no country code at all is called. */
export const UNKNOWN_COUNTRY = '未知地区';

const regionNames = new Intl.DisplayNames(['zh-CN'], { type: 'region', fallback: 'none' });

/** A country's 中文 name: the portal's own, else the zh-CN locale's; never the code itself. */
export function countryName(code: string): string {
  const preferred = countryNames[code];
  if (preferred) return preferred;
  if (!COUNTRY_PATTERN.test(code)) return UNKNOWN_COUNTRY;
  const named = regionNames.of(code);
  return named && named !== code ? named : UNKNOWN_COUNTRY;
}

export const controlsMessages = {
  limit: '请输入正确的限额（大于0，最多两位小数），不限请留空',
  singleOverDaily: '单笔限额不能高于单日限额',
  dailyOverMonthly: '单日限额不能高于单月限额',
  singleOverMonthly: '单笔限额不能高于单月限额',
  country: '请选择正确的国家或地区',
  countries: '允许的国家或地区最多 50 个',
} as const;

/** A limit as typed: empty (no limit) or an amount above zero with at most two decimals. */
export const limitRule = (value: string | null | undefined) => {
  if (value === null || value === undefined || value.trim() === '') return null;
  if (!AMOUNT_PATTERN.test(value.trim()) || toMinorUnits(value.trim()) <= 0n) return controlsMessages.limit;
  return null;
};

/** The order of the limits (single ≤ daily ≤ monthly where both are set): the refusal's message and its field, or null. */
export function limitsOrder(limits: { single_limit: string | null; daily_limit: string | null; monthly_limit: string | null }) {
  // a limit its own rule refuses has no place in the order: that refusal is the answer, not a throw here
  const minor = (value: string | null) => (value === null || value.trim() === '' || limitRule(value) !== null ? null : toMinorUnits(value.trim()));
  const single = minor(limits.single_limit);
  const daily = minor(limits.daily_limit);
  const monthly = minor(limits.monthly_limit);
  if (single !== null && daily !== null && single > daily) return { field: 'single_limit', message: controlsMessages.singleOverDaily } as const;
  if (daily !== null && monthly !== null && daily > monthly) return { field: 'daily_limit', message: controlsMessages.dailyOverMonthly } as const;
  if (single !== null && monthly !== null && single > monthly) return { field: 'single_limit', message: controlsMessages.singleOverMonthly } as const;
  return null;
}

const limitText = z
  .string()
  .nullable()
  .superRefine((value, context) => {
    const problem = limitRule(value);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  })
  .transform((value) => (value === null || value.trim() === '' ? null : value.trim()));

/** PUT /card/{id}/controls: the whole set, as the page edits it. */
export const cardControlsBody = z
  .object({
    single_limit: limitText,
    daily_limit: limitText,
    monthly_limit: limitText,
    blocked_categories: z.array(z.enum(MCC_CATEGORIES)).max(MCC_CATEGORIES.length),
    allowed_countries: z.array(z.string().regex(COUNTRY_PATTERN, controlsMessages.country)).max(50, controlsMessages.countries),
  })
  .superRefine((body, context) => {
    const problem = limitsOrder(body);
    if (problem) context.addIssue({ code: 'custom', path: [problem.field], message: problem.message });
  });
export type CardControlsBody = z.input<typeof cardControlsBody>;

/** GET /card/{id}/controls: the controls and what was spent against the limits (China time). */
export const cardControls = z.object({
  card_id: z.string(),
  currency: z.enum(CURRENCIES),
  single_limit: moneyText.nullable(),
  daily_limit: moneyText.nullable(),
  monthly_limit: moneyText.nullable(),
  blocked_categories: z.array(z.enum(MCC_CATEGORIES)),
  /** empty: every country */
  allowed_countries: z.array(z.string()),
  /** approved and settled spending since 00:00 China time today, and since the 1st of the month */
  spent_today: moneyText,
  spent_this_month: moneyText,
});
export type CardControls = z.infer<typeof cardControls>;

/** Days and months of the limits are China time. */
export const CHINA_UTC_OFFSET_HOURS = 8;

/**
 * A card whose decline rate over the last RISK_WINDOW_DAYS China days (today and the days before it, whole
 * days from 00:00 UTC+8) is above RISK_DECLINE_RATE, with at least RISK_MIN_AUTHORIZATIONS, is at risk.
 */
export const RISK_WINDOW_DAYS = 30;
export const RISK_DECLINE_RATE = 0.2;
export const RISK_MIN_AUTHORIZATIONS = 10;
export const CARD_RISKS = ['NORMAL', 'HIGH'] as const;
export type CardRisk = (typeof CARD_RISKS)[number];

/** The risk of a card from its authorisations of the last RISK_WINDOW_DAYS China days. */
export const riskOf = (declined: number, total: number): CardRisk =>
  total >= RISK_MIN_AUTHORIZATIONS && declined / total > RISK_DECLINE_RATE ? 'HIGH' : 'NORMAL';

/** What a card marked 风险偏高 says, with its figures. */
export const riskText = (declined: number, total: number) =>
  `风险偏高：近${RISK_WINDOW_DAYS}天授权 ${total} 笔，拒绝 ${declined} 笔（${Math.round((declined / Math.max(1, total)) * 100)}%）。拒绝率过高的卡片可能被发卡机构关闭，请检查余额与限额，或暂停在拒绝较多的商户消费。`;

/** A 3-D Secure code as the portal shows it (the THREE_DS_OTP event and its station message). */
export const threeDsOtp = z.object({
  card_id: z.string(),
  last4: z.string().nullable(),
  nickname: z.string(),
  code: z.string(),
  merchant_name: z.string(),
  amount: moneyText,
  currency: z.string(),
  expires_at: z.string(),
});
export type ThreeDsOtp = z.infer<typeof threeDsOtp>;

/** How many transactions the card's `.xlsx` export takes at most. */
export const CARD_TRANSACTIONS_EXPORT_MAX = 50_000;

const HOUR_MS = 60 * 60_000;

/** The instant today began in China time (00:00 UTC+8) for the instant `at`. */
export function chinaDayStart(at: Date) {
  const shifted = new Date(at.getTime() + CHINA_UTC_OFFSET_HOURS * HOUR_MS);
  return new Date(Date.UTC(shifted.getUTCFullYear(), shifted.getUTCMonth(), shifted.getUTCDate()) - CHINA_UTC_OFFSET_HOURS * HOUR_MS);
}

/** The instant this month began in China time (the 1st, 00:00 UTC+8) for the instant `at`. */
export function chinaMonthStart(at: Date) {
  const shifted = new Date(at.getTime() + CHINA_UTC_OFFSET_HOURS * HOUR_MS);
  return new Date(Date.UTC(shifted.getUTCFullYear(), shifted.getUTCMonth(), 1) - CHINA_UTC_OFFSET_HOURS * HOUR_MS);
}

/** A 3-D Secure code as a message keeps it once expired: its length shown, nothing of it. */
export const maskedCode = (code: string) => '•'.repeat(code.length);
