import { z } from 'zod';
import { CARD_STATUSES, CARD_TRANSACTION_STATUSES, CARD_TRANSACTION_TYPES, CARD_UPDATE_ACTIONS, type CardStatus, CURRENCIES, SEND_TYPES } from './enums.ts';
import { AMOUNT_PATTERN, computeFee, type FeeRule, fromMinorUnits, toMinorUnits } from './money.ts';
import { messages, rules } from './rules.ts';
import { ruled, trxPasswordField } from './validation.ts';
import { CARD_RISKS, DECLINE_CODES } from './card-spending.ts';
import { autoRechargeBrief } from './balance-rules.ts';
import { dateBound, moneyText, transactionTimeRange } from './wallet.ts';

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

// ── cards ──

/** What a card's status allows now; the server answers them with every card (`actions`), the screens offer only those. */
export const CARD_ACTIONS = ['FREEZE', 'UNFREEZE', 'RECHARGE', 'WITHDRAW', 'DELETE'] as const;
export type CardAction = (typeof CARD_ACTIONS)[number];

export const cardActionLabel: Record<CardAction, string> = {
  FREEZE: '冻结',
  UNFREEZE: '解冻',
  RECHARGE: '充值',
  WITHDRAW: '提现',
  DELETE: '注销',
};

/** Who froze a card: its holder may undo only a freeze of their own. */
export const FROZEN_BY = ['CUSTOMER', 'OPERATOR', 'ISSUER'] as const;
export type FrozenBy = (typeof FROZEN_BY)[number];
export const frozenByLabel: Record<FrozenBy, string> = {
  CUSTOMER: '本人冻结',
  OPERATOR: '平台冻结',
  ISSUER: '发卡机构冻结',
};
/** What the card page says of a freeze its holder cannot undo. */
export const frozenByHint: Record<FrozenBy, string> = {
  CUSTOMER: '您可随时解冻此卡',
  OPERATOR: '此卡由平台冻结，如需解冻请联系客服',
  ISSUER: '此卡由发卡机构冻结，如需解冻请联系客服',
};

/**
 * The lifecycle of spec §4 (the plain mapping) and cards.md: which actions a status allows. A freeze
 * by the operator or the issuer is not the holder's to undo. One place: the server answers these as
 * `actions` and refuses anything else; the portal offers what it is told.
 */
/**
 * Whether cancelling the card moves money to the wallet, so that the trade password is asked: what is
 * available on it, or held on it (that follows once the issuer lets it go). Minor units.
 */
export const cancelMovesMoney = (money: { available: bigint; held: bigint }) => money.available > 0n || money.held > 0n;

export function cardActionsFor(status: CardStatus, frozenBy: FrozenBy | null = null): CardAction[] {
  switch (status) {
    case 'NORMAL':
      return ['FREEZE', 'RECHARGE', 'WITHDRAW', 'DELETE'];
    case 'FREEZE':
      return frozenBy === null || frozenBy === 'CUSTOMER' ? ['UNFREEZE', 'WITHDRAW', 'DELETE'] : ['WITHDRAW'];
    case 'FREEZING':
      return frozenBy === null || frozenBy === 'CUSTOMER' ? ['UNFREEZE'] : [];
    default:
      return [];
  }
}

/** The status a card moves to while the issuer carries out an action, and the status it lands in. */
export const cardTransitions = {
  FREEZE: { through: 'FREEZING', to: 'FREEZE' },
  UNFREEZE: { through: 'UNFREEZING', to: 'NORMAL' },
  DELETE: { through: 'DELETING', to: 'DELETE' },
} as const satisfies Record<string, { through: CardStatus; to: CardStatus }>;

/** Statuses that wait on the issuer's answer. */
export const TRANSITIONAL_STATUSES: readonly CardStatus[] = ['CARD_STATUS_INIT', 'FREEZING', 'UNFREEZING', 'DELETING'];

export const cardLimits = { nicknameMin: 1, nicknameMax: 20, pageSizeMax: 100, keywordMax: 20 } as const;

/** Tags on a card: at most 10 a card, each 1–20 characters; the same tag once. */
export const cardTagRules = { perCard: 10, maxLength: 20 } as const;

export const cardMessages = {
  nickname: `卡片昵称须为${cardLimits.nicknameMin}-${cardLimits.nicknameMax}个字符`,
  amount: '请输入正确的金额（大于0，最多两位小数）',
  amountRequired: '请输入金额',
  belowFirstLoad: '首充金额不能低于{min} {currency}',
  aboveMaxBalance: '充值后卡内余额不能超过{max} {currency}',
  captcha: '请输入正确验证码',
} as const;

/** 卡片昵称: 1–20 characters, trimmed, no control characters. */
export const nicknameRule = (value: string) => {
  const name = value.trim();
  if (name === '') return messages.required;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if ([...name].length > cardLimits.nicknameMax || /[\u0000-\u001f\u007f]/.test(name)) return cardMessages.nickname;
  return null;
};

/** An amount as the card calls take it: above zero, at most two decimals. */
export const cardAmountRule = (value: string) => {
  if (value.trim() === '') return cardMessages.amountRequired;
  if (!AMOUNT_PATTERN.test(value) || /^0(\.0{1,2})?$/.test(value)) return cardMessages.amount;
  return null;
};

/** The top-up fee rule of a product, for the fee helper. */
export const topupFeeRule = (product: Pick<CardProduct, 'topup_fee_rate' | 'topup_fee_fixed' | 'topup_fee_min' | 'topup_fee_max'>): FeeRule => ({
  rate: product.topup_fee_rate,
  fixed: product.topup_fee_fixed,
  min: product.topup_fee_min,
  max: product.topup_fee_max,
});

/** What a top-up of `amount` costs: the amount, its fee (spec §9's helper) and both together. */
export function rechargeCost(product: Parameters<typeof topupFeeRule>[0], amount: string) {
  const fee = computeFee(amount, topupFeeRule(product));
  return { amount: fromMinorUnits(toMinorUnits(amount)), fee, total: fromMinorUnits(toMinorUnits(amount) + toMinorUnits(fee)) };
}

/**
 * What opening a card with a first load of `amount` costs: 开卡费 + 首充金额 + 充值手续费 = 合计. The portal
 * shows it before confirming and the server holds exactly this, from the same code.
 */
export function openingCost(product: Parameters<typeof topupFeeRule>[0] & Pick<CardProduct, 'open_fee'>, amount: string) {
  const load = rechargeCost(product, amount);
  return {
    open_fee: fromMinorUnits(toMinorUnits(product.open_fee)),
    amount: load.amount,
    topup_fee: load.fee,
    total: fromMinorUnits(toMinorUnits(product.open_fee) + toMinorUnits(load.total)),
  };
}

/**
 * The fee terms a card was opened under, copied from its product at opening: every later top-up of the
 * card (rechargeCost) and every declined authorisation on it are charged by these, so a product's change
 * applies to cards opened after it.
 */
export const cardFeeTerms = z.object({
  topup_fee_rate: z.string(),
  topup_fee_fixed: moneyText,
  /** null: no lower bound */
  topup_fee_min: moneyText.nullable(),
  /** null: no upper bound */
  topup_fee_max: moneyText.nullable(),
  decline_fee: moneyText,
});
export type CardFeeTerms = z.infer<typeof cardFeeTerms>;

export const cardItem = z.object({
  id: z.string(),
  product_id: z.string(),
  product_name: z.string(),
  brand: z.enum(CARD_BRANDS),
  nickname: z.string(),
  /** null until the issuer has issued the card */
  last4: z.string().nullable(),
  currency: z.enum(CURRENCIES),
  status: z.enum(CARD_STATUSES),
  /** available to spend */
  balance: moneyText,
  /** held for pending authorisations */
  held: moneyText,
  /** why the card is frozen (or was refused an action), as its holder reads it */
  status_reason: z.string().nullable(),
  frozen_by: z.enum(FROZEN_BY).nullable(),
  /** why the issuer did not issue it (FAIL) */
  failure_reason: z.string().nullable(),
  batch_id: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  actions: z.array(z.enum(CARD_ACTIONS)),
  /** approved and settled spending since the 1st of this month, China time (card-spending.ts) */
  spent_this_month: moneyText,
  /**
   * declined ÷ all authorisations of the last RISK_WINDOW_DAYS China days (today and the 29 days before,
   * each from 00:00 UTC+8), 0–1 (0 when there were none); the list's sort decline_rate_30d reads the same
   */
  decline_rate_30d: z.number().min(0).max(1),
  risk: z.enum(CARD_RISKS),
  /** riskText when the risk is HIGH, else null */
  risk_reason: z.string().nullable(),
  /** the member who holds the card */
  holder_member_id: z.string(),
  /** the holder as the list names them: their phone masked and their role, 139****0001（成员） */
  holder_label: z.string(),
  /** the account's labels on the card (cardTagRules) */
  tags: z.array(z.string()),
  /** the card's last authorisation (approved or declined); null when it has none */
  last_used_at: z.string().nullable(),
  /** the fee terms it was opened under: its top-ups and declined authorisations are charged by these */
  fees: cardFeeTerms,
  /** the card's auto top-up rule when it has one that is on (the list and the card show it) */
  auto_recharge: autoRechargeBrief.optional(),
});
export type CardItem = z.infer<typeof cardItem>;


export const cardPage = z.object({ items: z.array(cardItem), total: z.number().int(), page: z.number().int(), page_size: z.number().int() });
export type CardPage = z.infer<typeof cardPage>;

/** GET /card/summary: the strip above the list — cards per status, and what the cards hold per currency. */
export const cardSummaryAnswer = z.object({
  total: z.number().int(),
  by_status: z.record(z.enum(CARD_STATUSES), z.number().int()),
  amounts: z.array(z.object({ currency: z.enum(CURRENCIES), amount: moneyText })),
});
export type CardSummaryAnswer = z.infer<typeof cardSummaryAnswer>;

export const openCardBody = z.object({
  product_id: z.string().min(1).max(100),
  amount: ruled(cardAmountRule),
  nickname: ruled(nicknameRule),
  trx_password: trxPasswordField,
});
export type OpenCardBody = z.infer<typeof openCardBody>;

export const patchCardBody = z.object({ nickname: ruled(nicknameRule) });
export type PatchCardBody = z.infer<typeof patchCardBody>;

export const cardStatusBody = z.object({ action: z.enum(CARD_UPDATE_ACTIONS) });
export type CardStatusBody = z.infer<typeof cardStatusBody>;

export const cardAmountBody = z.object({ amount: ruled(cardAmountRule), trx_password: trxPasswordField });
export type CardAmountBody = z.infer<typeof cardAmountBody>;

/** DELETE /card/{id}: a card that holds money sends it back to the wallet, so it needs the trade password once one is set. */
export const deleteCardBody = z.object({ trx_password: trxPasswordField }).nullish();
export type DeleteCardBody = z.infer<typeof deleteCardBody>;

export const rechargeAnswer = z.object({ card: cardItem, fee: moneyText, total: moneyText });
export type RechargeAnswer = z.infer<typeof rechargeAnswer>;
export const withdrawAnswer = z.object({ card: cardItem });
export type WithdrawAnswer = z.infer<typeof withdrawAnswer>;

/** POST /card/{id}/reveal: the access code, or nothing within REVEAL_WINDOW_SECONDS of a checked one. */
export const revealBody = z.object({
  captcha: z.string().regex(/^\d{6}$/, cardMessages.captcha).optional(),
  /** where the access code was sent (send/code-auto's send_type); the phone when omitted */
  send_type: z.enum(SEND_TYPES).optional(),
});
export type RevealBody = z.infer<typeof revealBody>;
export const revealAnswer = z.object({ pan: z.string(), cvv: z.string(), exp_month: z.string(), exp_year: z.string() });
export type RevealAnswer = z.infer<typeof revealAnswer>;

/**
 * A checked access code unlocks reveals for this long, in the session that checked it; the portal masks the numbers
 * again after REVEAL_SHOW_SECONDS.
 */
export const REVEAL_WINDOW_SECONDS = 300;
export const REVEAL_SHOW_SECONDS = 60;
/** Reveals one account may make in an hour; an export with full numbers counts as one. */
export const REVEALS_PER_HOUR = 30;
/** Exports with full numbers one account may make in a day (China time, UTC+8). */
export const SENSITIVE_EXPORTS_PER_DAY = 5;

export const cardTransactionItem = z.object({
  id: z.string(),
  card_id: z.string(),
  type: z.enum(CARD_TRANSACTION_TYPES),
  status: z.enum(CARD_TRANSACTION_STATUSES),
  amount: moneyText,
  currency: z.enum(CURRENCIES),
  merchant_name: z.string().nullable(),
  mcc: z.string().nullable(),
  country: z.string().nullable(),
  decline_reason: z.string().nullable(),
  /** the issuer's authorisation id (CONSUME; a refund's original one when the issuer names it) */
  authorization_id: z.string().nullable(),
  /** why it was declined (card-spending.ts DECLINE_CODES); null unless declined */
  decline_code: z.enum(DECLINE_CODES).nullable(),
  /** what to do about the decline, in 中文 (declineReasons) */
  decline_fix: z.string().nullable(),
  created_at: z.string(),
  settled_at: z.string().nullable(),
});
export type CardTransactionItem = z.infer<typeof cardTransactionItem>;

export const cardTransactionQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  page_size: z.coerce.number().int().min(1).max(cardLimits.pageSizeMax).default(20),
  type: z.enum(CARD_TRANSACTION_TYPES).optional(),
  status: z.enum(CARD_TRANSACTION_STATUSES).optional(),
  /** the first and last day shown, YYYY-MM-DD in China time (UTC+8), both included */
  date_from: dateBound.optional(),
  date_to: dateBound.optional(),
}).refine((query) => {
  const { from, before } = transactionTimeRange(query.date_from, query.date_to);
  return !from || !before || from.getTime() < before.getTime();
}, { message: '开始日期不能晚于结束日期', path: ['date_to'] });
export type CardTransactionQuery = z.infer<typeof cardTransactionQuery>;
/** GET /card/{id}/transactions/export: the same filters, every page. */
export const cardTransactionExportQuery = z.object({
  type: z.enum(CARD_TRANSACTION_TYPES).optional(),
  status: z.enum(CARD_TRANSACTION_STATUSES).optional(),
  date_from: dateBound.optional(),
  date_to: dateBound.optional(),
});
export type CardTransactionExportQuery = z.infer<typeof cardTransactionExportQuery>;
export const cardTransactionPage = z.object({
  items: z.array(cardTransactionItem),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});
export type CardTransactionPage = z.infer<typeof cardTransactionPage>;

/** The header every money-moving card call carries: one per submission, the same again when it is retried. */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{8,128}$/;
