import type { AccountInfo } from '@portal/contract/account';
import type { CardControls } from '@portal/contract/card-spending';
import type { CardItem, CardPage, CardSummaryAnswer, OpenedAvailableAnswer } from '@portal/contract/cards';
import type { AccountBalanceItem, BalanceStatusAnswer } from '@portal/contract/wallet';

/** Answers of the card calls for the component tests: the demo products of cards.md and cards made to measure. */

export const AD_PRODUCT: OpenedAvailableAnswer['products'][number] = {
  id: 'p-ad',
  name: '广告投放卡',
  brand: 'VISA',
  bin: '42424242',
  currency: 'USD',
  open_fee: '5.00',
  topup_fee_rate: '0.015',
  topup_fee_fixed: '0.00',
  topup_fee_min: '0.50',
  topup_fee_max: '50.00',
  min_first_load: '10.00',
  max_balance: '10000.00',
  decline_fee: '0.50',
  per_account_limit: 5,
  max_per_batch: 20,
  needs_secondary: true,
  status: 'ON',
  remaining: 3,
};

export const SUBSCRIPTION_PRODUCT: OpenedAvailableAnswer['products'][number] = {
  id: 'p-sub',
  name: '订阅支付卡',
  brand: 'MASTERCARD',
  bin: '55555555',
  currency: 'USD',
  open_fee: '2.00',
  topup_fee_rate: '0.010',
  topup_fee_fixed: '0.30',
  topup_fee_min: null,
  topup_fee_max: null,
  min_first_load: '5.00',
  max_balance: '5000.00',
  decline_fee: '0.30',
  per_account_limit: 10,
  max_per_batch: 20,
  needs_secondary: false,
  status: 'ON',
  remaining: 10,
};

export const CNY_PRODUCT: OpenedAvailableAnswer['products'][number] = {
  id: 'p-cny',
  name: '人民币消费卡',
  brand: 'VISA',
  bin: '40000015',
  currency: 'CNY',
  open_fee: '10.00',
  topup_fee_rate: '0.008',
  topup_fee_fixed: '0.00',
  topup_fee_min: '1.00',
  topup_fee_max: null,
  min_first_load: '50.00',
  max_balance: '50000.00',
  decline_fee: '2.00',
  per_account_limit: 3,
  max_per_batch: 20,
  needs_secondary: false,
  status: 'ON',
  remaining: 3,
};

export const openedAvailable = (
  products = [AD_PRODUCT, SUBSCRIPTION_PRODUCT, CNY_PRODUCT],
  verification = { basic: true, secondary: true },
): OpenedAvailableAnswer => ({ verification, products });

export const walletBalances = (usd = '1000.00', cny = '0.00'): AccountBalanceItem[] => [
  { currency: 'USD', available: usd, anew: '0.00' },
  { currency: 'CNY', available: cny, anew: '0.00' },
];

export const walletAvailable: BalanceStatusAnswer = { status: 'BALANCE_STATUS_AVAILABLE', reason: '', changed_at: null };
export const walletFrozen: BalanceStatusAnswer = { status: 'BALANCE_STATUS_FROZEN', reason: '账户核查中', changed_at: '2026-03-01T00:00:00.000Z' };

export function card(overrides: Partial<CardItem> = {}): CardItem {
  return {
    id: 'c-1',
    product_id: SUBSCRIPTION_PRODUCT.id,
    product_name: SUBSCRIPTION_PRODUCT.name,
    brand: 'MASTERCARD',
    nickname: '订阅付款',
    last4: '4444',
    currency: 'USD',
    status: 'NORMAL',
    balance: '120.50',
    held: '0.00',
    status_reason: null,
    frozen_by: null,
    failure_reason: null,
    batch_id: null,
    created_at: '2026-03-01T02:30:00.000Z',
    updated_at: '2026-03-01T02:30:00.000Z',
    actions: ['FREEZE', 'RECHARGE', 'WITHDRAW', 'DELETE'],
    spent_this_month: '0.00',
    decline_rate_30d: 0,
    risk: 'NORMAL',
    risk_reason: null,
    holder_member_id: 'a-1',
    holder_label: '138****8000（所有者）',
    tags: [],
    last_used_at: null,
    // opened under the subscription product's terms
    fees: { topup_fee_rate: '0.010', topup_fee_fixed: '0.30', topup_fee_min: null, topup_fee_max: null, decline_fee: '0.30' },
    ...overrides,
  };
}

export const cardPage = (items: CardItem[], total = items.length, page = 1, page_size = 20): CardPage => ({ items, total, page, page_size });

export const summary = (overrides: Partial<CardSummaryAnswer> = {}): CardSummaryAnswer => ({
  total: 3,
  by_status: { CARD_STATUS_INIT: 0, NORMAL: 2, FAIL: 0, FREEZE: 1, DELETE: 0, FREEZING: 0, DELETING: 0, UNFREEZING: 0 },
  amounts: [{ currency: 'USD', amount: '240.50' }],
  ...overrides,
});

/** A card's controls: no limits, nothing blocked, every country, as a new card has them. */
export const controls = (overrides: Partial<CardControls> = {}): CardControls => ({
  card_id: 'c-1',
  currency: 'USD',
  single_limit: null,
  daily_limit: null,
  monthly_limit: null,
  blocked_categories: [],
  allowed_countries: [],
  spent_today: '0.00',
  spent_this_month: '0.00',
  ...overrides,
});

/** GET /account/info, which the money dialogs read for whether the account has a trade password. */
export const accountInfo = (trxPasswordSet: boolean): AccountInfo => ({
  id: 'a-1',
  member_id: 'a-1',
  role: 'OWNER',
  account_name: '138****8000 的团队',
  email: 'demo@bluewhale.example',
  phone: '13800138000',
  phone_prefix: '86',
  trx_password_set: trxPasswordSet,
});
