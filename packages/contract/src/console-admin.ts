import { z } from 'zod';
import { BIN_PATTERN, CARD_BRANDS, cardProduct, FEE_RATE_PATTERN, PRODUCT_STATUSES } from './cards.ts';
import { ConsoleAdminErrorCode } from './console-admin-errors.ts';
import { CURRENCIES } from './enums.ts';
import { AMOUNT_PATTERN, toMinorUnits } from './money.ts';

/**
 * What a merchant's ADMIN keeps in the console (shared/design/growing-customers.md §5): its card products
 * and their fees, its user agreements and its announcements to every customer. Other roles read them.
 */

export const productLimits = { nameMin: 2, nameMax: 30, perAccountMax: 1000, perBatchMax: 500 } as const;

export const consoleAdminMessages = {
  name: `产品名称须为${productLimits.nameMin}-${productLimits.nameMax}个字符`,
  amount: '请输入正确的金额（不小于0，最多两位小数）',
  maxBalance: '单卡余额上限须大于0（最多两位小数）',
  rate: '充值费率须为0到1之间的小数，最多6位小数（如 0.015 即 1.5%）',
  perAccount: `每个账户可开卡数须为1-${productLimits.perAccountMax}的整数`,
  perBatch: `单批开卡数须为1-${productLimits.perBatchMax}的整数`,
  status: '请选择上架或下架',
  brand: '请选择卡组织（VISA 或 MASTERCARD）',
  bin: 'BIN 须为6-8位数字',
  currency: '请选择币种（USD 或 CNY）',
  nothing: '请至少修改一项',
  title: '请输入标题（最多100个字符）',
  agreementText: '请输入协议内容（最多512 KB）',
  announcementContent: '请输入公告内容（最多50000个字符）',
} as const;

/** A fee or a limit in money: 0 or more, at most two decimals. */
const amount = (message: string = consoleAdminMessages.amount) => z.string({ error: message }).trim().regex(AMOUNT_PATTERN, message);

/** A product's fields as the console sets them, each with its rule and 中文 message (creating and changing alike). */
const productFields = {
  name: z
    .string({ error: consoleAdminMessages.name })
    .trim()
    .refine((name) => [...name].length >= productLimits.nameMin && [...name].length <= productLimits.nameMax, consoleAdminMessages.name),
  brand: z.enum(CARD_BRANDS, { error: consoleAdminMessages.brand }),
  bin: z.string({ error: consoleAdminMessages.bin }).trim().regex(BIN_PATTERN, consoleAdminMessages.bin),
  currency: z.enum(CURRENCIES, { error: consoleAdminMessages.currency }),
  status: z.enum(PRODUCT_STATUSES, { error: consoleAdminMessages.status }),
  open_fee: amount(),
  topup_fee_rate: z.string({ error: consoleAdminMessages.rate }).trim().regex(FEE_RATE_PATTERN, consoleAdminMessages.rate),
  topup_fee_fixed: amount(),
  /** null: no lower bound */
  topup_fee_min: amount().nullable(),
  /** null: no upper bound */
  topup_fee_max: amount().nullable(),
  min_first_load: amount(),
  max_balance: amount(consoleAdminMessages.maxBalance).refine((value) => /[1-9]/.test(value), consoleAdminMessages.maxBalance),
  decline_fee: amount(),
  per_account_limit: z
    .number({ error: consoleAdminMessages.perAccount })
    .int(consoleAdminMessages.perAccount)
    .min(1, consoleAdminMessages.perAccount)
    .max(productLimits.perAccountMax, consoleAdminMessages.perAccount),
  max_per_batch: z
    .number({ error: consoleAdminMessages.perBatch })
    .int(consoleAdminMessages.perBatch)
    .min(1, consoleAdminMessages.perBatch)
    .max(productLimits.perBatchMax, consoleAdminMessages.perBatch),
  needs_secondary: z.boolean(),
};

/**
 * PUT /products/{id}: the fields to change, each optional; a change applies to cards opened after it
 * (a card keeps the fee terms it was opened under). Brand, BIN and currency are the product's for good:
 * its cards carry them.
 */
export const productChangeBody = z
  .object({
    name: productFields.name.optional(),
    status: productFields.status.optional(),
    open_fee: productFields.open_fee.optional(),
    topup_fee_rate: productFields.topup_fee_rate.optional(),
    topup_fee_fixed: productFields.topup_fee_fixed.optional(),
    topup_fee_min: productFields.topup_fee_min.optional(),
    topup_fee_max: productFields.topup_fee_max.optional(),
    min_first_load: productFields.min_first_load.optional(),
    max_balance: productFields.max_balance.optional(),
    decline_fee: productFields.decline_fee.optional(),
    per_account_limit: productFields.per_account_limit.optional(),
    max_per_batch: productFields.max_per_batch.optional(),
    needs_secondary: productFields.needs_secondary.optional(),
  })
  .strict()
  .refine((body) => Object.values(body).some((value) => value !== undefined), consoleAdminMessages.nothing);
export type ProductChangeBody = z.infer<typeof productChangeBody>;

/**
 * POST /products: a new product, every field given but the fee bounds (none when left out), whether it
 * needs the secondary data (no) and its status (ON: customers may open it at once).
 */
export const productCreateBody = z
  .object({
    ...productFields,
    topup_fee_min: productFields.topup_fee_min.default(null),
    topup_fee_max: productFields.topup_fee_max.default(null),
    needs_secondary: productFields.needs_secondary.default(false),
    status: productFields.status.default('ON'),
  })
  .strict();
export type ProductCreateBody = z.input<typeof productCreateBody>;

/**
 * The rules between a product's fields, whoever sets them: the top-up fee's minimum not above its
 * maximum, the least first load not above the card's maximum balance. The code of the first one broken
 * (its 中文 message in the catalogue), or null; amounts as the calls write them.
 */
export function productConflict(product: { topup_fee_min: string | null; topup_fee_max: string | null; min_first_load: string; max_balance: string }) {
  const { topup_fee_min: min, topup_fee_max: max } = product;
  if (min !== null && max !== null && toMinorUnits(min) > toMinorUnits(max)) return ConsoleAdminErrorCode.PRODUCT_FEE_BOUNDS;
  if (toMinorUnits(product.min_first_load) > toMinorUnits(product.max_balance)) return ConsoleAdminErrorCode.PRODUCT_FIRST_LOAD;
  return null;
}

export const productIdParams = z.object({ id: z.string().uuid('卡产品不存在') });

/** A product as the console shows it: what the portal shows, with when it was last changed. */
export const consoleProduct = cardProduct.extend({ updated_at: z.string() });
export type ConsoleProduct = z.infer<typeof consoleProduct>;
export const consoleProductList = z.object({ items: z.array(consoleProduct) });

/** The product fields the console names, 中文 (the form's labels and the audit log's). */
export const productFieldLabel: Record<keyof ProductCreateBody, string> = {
  name: '产品名称',
  brand: '卡组织',
  bin: 'BIN',
  currency: '币种',
  status: '状态',
  open_fee: '开卡费',
  topup_fee_rate: '充值费率',
  topup_fee_fixed: '充值固定费',
  topup_fee_min: '充值手续费下限',
  topup_fee_max: '充值手续费上限',
  min_first_load: '最低首充金额',
  max_balance: '单卡余额上限',
  decline_fee: '拒付手续费',
  per_account_limit: '每个账户可开卡数',
  max_per_batch: '单批开卡数上限',
  needs_secondary: '需要二级认证',
};

const title = z.string({ error: consoleAdminMessages.title }).trim().min(1, consoleAdminMessages.title).max(100, consoleAdminMessages.title);

/** The largest agreement text, in UTF-8 bytes (the command line's limit too). */
export const AGREEMENT_MAX_BYTES = 512 * 1024;
export const ANNOUNCEMENT_MAX_CHARS = 50_000;

export const agreementBody = z.object({
  title,
  /** HTML; cleaned when shown */
  text: z
    .string({ error: consoleAdminMessages.agreementText })
    .refine((text) => text.trim() !== '' && new TextEncoder().encode(text).length <= AGREEMENT_MAX_BYTES, consoleAdminMessages.agreementText),
});
export const consoleAgreement = z.object({ id: z.string(), title: z.string(), published_at: z.string(), characters: z.number().int() });
export type ConsoleAgreement = z.infer<typeof consoleAgreement>;
export const consoleAgreementList = z.object({ items: z.array(consoleAgreement) });

export const announcementBody = z.object({
  title,
  /** HTML; the portal cleans it when shown */
  content: z
    .string({ error: consoleAdminMessages.announcementContent })
    .refine((text) => text.trim() !== '' && text.length <= ANNOUNCEMENT_MAX_CHARS, consoleAdminMessages.announcementContent),
});
export const announcementQuery = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
});
export const consoleAnnouncement = z.object({ id: z.string(), title: z.string(), content: z.string(), published_at: z.string() });
export type ConsoleAnnouncement = z.infer<typeof consoleAnnouncement>;
export const consoleAnnouncementPage = z.object({
  items: z.array(consoleAnnouncement),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});
