import type { AutoRechargeBrief } from '@portal/contract/balance-rules';
import { type CardBrand, type CardFeeTerms, type CardItem, cardActionsFor, type FrozenBy } from '@portal/contract/cards';
import type { CardStatus, Currency } from '@portal/contract/enums';
import { fromMinorUnits } from '@portal/contract/money';
import { ROLE_LABELS, type Role } from '@portal/contract/team';
import { maskPhone } from '../../lib/mask.ts';
import { NO_SPENDING, type SpendingFigures } from './deps.ts';
import type { CardRow } from './store.ts';

/** What a card's ledger account holds (minor units); a card not yet funded holds nothing. */
export interface CardMoney {
  balance: bigint;
  held: bigint;
}

const NOTHING: CardMoney = { balance: 0n, held: 0n };

/** The member holding a card, as a card names them: 139****0001（成员）. */
export const holderLabel = (holder: { phone: string; role: string } | undefined) =>
  holder ? `${maskPhone(holder.phone)}（${ROLE_LABELS[holder.role as Role] ?? holder.role}）` : '';

/** The fee terms the card was opened under, as the API and the fee helper read them. */
export function cardFeesOf(row: Pick<CardRow, 'topupFeeRate' | 'topupFeeFixed' | 'topupFeeMin' | 'topupFeeMax' | 'declineFee'>): CardFeeTerms {
  return {
    topup_fee_rate: row.topupFeeRate,
    topup_fee_fixed: fromMinorUnits(row.topupFeeFixed),
    topup_fee_min: row.topupFeeMin === null ? null : fromMinorUnits(row.topupFeeMin),
    topup_fee_max: row.topupFeeMax === null ? null : fromMinorUnits(row.topupFeeMax),
    decline_fee: fromMinorUnits(row.declineFee),
  };
}

/** A card as the API answers it: its money from the ledger, its holder, and what its status allows now. */
export function cardItem(
  row: CardRow,
  productName: string,
  holder: string,
  money: CardMoney | undefined,
  spending: SpendingFigures = NO_SPENDING,
  autoRecharge?: AutoRechargeBrief,
): CardItem {
  const { balance, held } = money ?? NOTHING;
  const status = row.status as CardStatus;
  const frozenBy = (row.frozenBy as FrozenBy | null) ?? null;
  return {
    id: row.id,
    product_id: row.productId,
    product_name: productName,
    brand: row.brand as CardBrand,
    nickname: row.nickname,
    last4: row.last4,
    currency: row.currency as Currency,
    status,
    balance: fromMinorUnits(balance - held),
    held: fromMinorUnits(held),
    status_reason: row.statusReason,
    frozen_by: frozenBy,
    failure_reason: row.failureReason,
    batch_id: row.batchId,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    actions: cardActionsFor(status, frozenBy),
    spent_this_month: fromMinorUnits(spending.spentThisMonth),
    decline_rate_30d: spending.declineRate,
    risk: spending.risk,
    risk_reason: spending.riskReason,
    holder_member_id: row.holderMemberId,
    holder_label: holder,
    tags: row.tags,
    last_used_at: spending.lastUsedAt ? spending.lastUsedAt.toISOString() : null,
    fees: cardFeesOf(row),
    ...(autoRecharge === undefined ? {} : { auto_recharge: autoRecharge }),
  };
}

/** "•••• 1234", or the nickname alone before the issuer has numbered the card: how messages name a card. */
export const cardName = (row: Pick<CardRow, 'nickname' | 'last4'>) => (row.last4 ? `${row.nickname}（尾号 ${row.last4}）` : row.nickname);

export { isUuid } from '../../lib/uuid.ts';
