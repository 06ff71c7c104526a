import { z } from 'zod';
import { loginAttempt } from './account.ts';
import { cardListFilter } from './card-list.ts';
import { acrossTransactionItem, acrossTransactionQuery } from './card-spending-across.ts';
import { cardItem, verificationAnswer } from './cards.ts';
import { CURRENCIES } from './enums.ts';
import { depositItem } from './funding.ts';
import { messageItem } from './messages.ts';
import { teamMember } from './team.ts';
import { accountBalanceItem, balanceStatusAnswer, moneyText, walletTransactionItem } from './wallet.ts';

/**
 * The console's customers (shared/design/growing-customers.md §5, §6): finding a customer, one customer
 * as the merchant's staff see them, acting on their cards and wallet, and the cards and card
 * transactions across every customer of the merchant. No answer holds a full card number.
 */

export const customerLimits = {
  keywordMax: 100,
  pageSizeMax: 100,
  reasonMax: 200,
  messageTitleMax: 100,
  messageContentMax: 2000,
  /** how many of each list one customer's page shows (the newest) */
  recent: 10,
  /** how many matches the customer search counts at most: beyond, the answer says "1000+" (total_capped) */
  countCap: 1000,
} as const;

export const customerMessages = {
  keyword: `搜索内容最多${customerLimits.keywordMax}个字符`,
  reason: '请填写原因（客户可见）',
  reasonLong: `原因最多${customerLimits.reasonMax}个字符`,
  title: '请填写标题',
  titleLong: `标题最多${customerLimits.messageTitleMax}个字符`,
  content: '请填写内容',
  contentLong: `内容最多${customerLimits.messageContentMax}个字符`,
  totp: '请输入 6 位数字验证码',
  customer: '请选择正确的客户',
} as const;

const pageFields = {
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  page_size: z.coerce.number().int().min(1).max(customerLimits.pageSizeMax).default(20),
};

/**
 * GET /customers: a keyword is matched against the start of the members' phone numbers and e-mails, the
 * verified real name and the deposit reference (each as it is kept: e-mails lower case, references
 * upper case); none lists every customer, newest first.
 */
export const customerSearchQuery = z.object({
  keyword: z.string().trim().max(customerLimits.keywordMax, customerMessages.keyword).optional(),
  ...pageFields,
});
export type CustomerSearchQuery = z.infer<typeof customerSearchQuery>;

export const customerWalletFigure = z.object({ currency: z.enum(CURRENCIES), available: moneyText });

export const customerItem = z.object({
  account_id: z.string(),
  /** the owner's phone, 138****8000 */
  phone_masked: z.string(),
  email: z.string().nullable(),
  /** the verified real name; null until given */
  real_name: z.string().nullable(),
  /** the deposit reference; null until the customer first asked for deposit instructions */
  reference: z.string().nullable(),
  created_at: z.string(),
  wallet: z.array(customerWalletFigure),
  /** how many cards the account has (any status) */
  cards: z.number().int(),
});
export type CustomerItem = z.infer<typeof customerItem>;
/**
 * A page of the search. `total` is exact up to `customerLimits.countCap`; when more match, `total` is
 * that cap and `total_capped` is true ("1000+"). Every page can still be asked for, beyond the cap too.
 */
export const customerPage = z.object({
  items: z.array(customerItem),
  total: z.number().int(),
  /** more customers match than `total` says: it is the count's cap */
  total_capped: z.boolean(),
  page: z.number().int(),
  page_size: z.number().int(),
});

export const customerParams = z.object({ id: z.string().uuid(customerMessages.customer) });

/** GET /customers/{id}: one customer and the newest of each of their lists. */
export const customerDetail = z.object({
  customer: customerItem.extend({ account_name: z.string() }),
  wallet: z.object({
    status: balanceStatusAnswer,
    balances: z.array(accountBalanceItem),
    recent: z.array(walletTransactionItem),
  }),
  cards: z.array(cardItem),
  members: z.array(teamMember.pick({ id: true, phone_masked: true, email: true, role: true, status: true, joined_at: true })),
  verification: verificationAnswer,
  sign_ins: z.array(loginAttempt.extend({ member_id: z.string() })),
  deposits: z.array(depositItem),
  messages: z.array(messageItem),
});
export type CustomerDetail = z.infer<typeof customerDetail>;

const totpCode = z
  .string({ error: customerMessages.totp })
  .trim()
  .regex(/^\d{6}$/, customerMessages.totp);
const reasonText = z
  .string({ error: customerMessages.reason })
  .trim()
  .min(1, customerMessages.reason)
  .refine((text) => [...text].length <= customerLimits.reasonMax, customerMessages.reasonLong);

/** PUT /cards/{id}/status: an operator freezes a card (with a reason its holder reads) or lifts their freeze. */
export const consoleCardStatusBody = z.discriminatedUnion('action', [
  z.object({ action: z.literal('FREEZE'), reason: reasonText, totp: totpCode }),
  z.object({ action: z.literal('UNFREEZE'), reason: z.string().trim().max(customerLimits.reasonMax, customerMessages.reasonLong).optional(), totp: totpCode }),
]);
export type ConsoleCardStatusBody = z.infer<typeof consoleCardStatusBody>;
export const consoleCardParams = z.object({ id: z.string().uuid('卡片不存在') });

/** PUT /customers/{id}/wallet-status: the same for the customer's wallet (no money leaves a frozen wallet). */
export const consoleWalletStatusBody = consoleCardStatusBody;
export const consoleWalletStatusAnswer = balanceStatusAnswer;

/** POST /customers/{id}/messages: a station message to the account (its owner and admins read it). */
export const customerMessageBody = z.object({
  title: z
    .string({ error: customerMessages.title })
    .trim()
    .min(1, customerMessages.title)
    .refine((text) => [...text].length <= customerLimits.messageTitleMax, customerMessages.titleLong),
  content: z
    .string({ error: customerMessages.content })
    .trim()
    .min(1, customerMessages.content)
    .refine((text) => [...text].length <= customerLimits.messageContentMax, customerMessages.contentLong),
});
export const customerMessageAnswer = z.object({ id: z.string() });

/** GET /cards: every customer's cards, with the portal's filters and the customer (account_id); newest first. */
export const consoleCardQuery = cardListFilter.omit({ holder_member_id: true }).extend({
  account_id: z.string().uuid(customerMessages.customer).optional(),
  ...pageFields,
});
export type ConsoleCardQuery = z.infer<typeof consoleCardQuery>;
export const consoleCardItem = cardItem.extend({ account_id: z.string() });
export const consoleCardPage = z.object({ items: z.array(consoleCardItem), total: z.number().int(), page: z.number().int(), page_size: z.number().int() });

/** GET /transactions: every customer's card transactions, with the portal's filters, the card and the customer; newest first. */
export const consoleTransactionQuery = acrossTransactionQuery.safeExtend({
  account_id: z.string().uuid(customerMessages.customer).optional(),
});
export type ConsoleTransactionQuery = z.infer<typeof consoleTransactionQuery>;
export const consoleTransactionItem = acrossTransactionItem.extend({ account_id: z.string() });
export const consoleTransactionPage = z.object({
  items: z.array(consoleTransactionItem),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});
