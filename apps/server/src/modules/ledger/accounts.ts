/**
 * Which ledger accounts exist. Per merchant and currency:
 * - the customer's side: one WALLET per customer account, one CARD per card (the card issue opens
 *   them through this module); their money is the customer's, never below zero available;
 * - the merchant's side: MERCHANT_FUNDING (where recharges come from and deductions go back to),
 *   MERCHANT_FEE_INCOME (fees), CARD_NETWORK (what cards spend and get refunded). These may go below
 *   zero: they mirror the customers' money, so that every currency sums to zero.
 */
export const CUSTOMER_KINDS = ['WALLET', 'CARD'] as const;
export const HOUSE_KINDS = ['MERCHANT_FUNDING', 'MERCHANT_FEE_INCOME', 'CARD_NETWORK'] as const;
export type CustomerKind = (typeof CUSTOMER_KINDS)[number];
export type HouseKind = (typeof HOUSE_KINDS)[number];
export type LedgerKind = CustomerKind | HouseKind;

/**
 * A ledger account named by what it is, not by its row id. The merchant's own accounts are kept in
 * HOUSE_SHARDS rows each (see the schema); a movement names the kind, and the ledger picks the shard
 * from the customer it concerns, unless a shard is given (a reversal names the one it undoes).
 */
export type AccountRef =
  | { kind: 'WALLET'; holderId: string }
  | { kind: 'CARD'; cardId: string; holderId: string }
  | { kind: HouseKind; shard?: number };

export const HOUSE_SHARDS = 16;

/** The shard of the merchant's accounts a customer's movements use: the same one every time. */
export function houseShardFor(holderId: string | null) {
  if (!holderId) return 0;
  return Number.parseInt(holderId.replaceAll('-', '').slice(-6), 16) % HOUSE_SHARDS;
}

export const shardOf = (ref: AccountRef) => (ref.kind === 'WALLET' || ref.kind === 'CARD' ? 0 : (ref.shard ?? 0));

export const walletOf = (holderId: string): AccountRef => ({ kind: 'WALLET', holderId });
export const cardAccountOf = (cardId: string, holderId: string): AccountRef => ({ kind: 'CARD', cardId, holderId });
export const MERCHANT_FUNDING: AccountRef = { kind: 'MERCHANT_FUNDING' };
export const MERCHANT_FEE_INCOME: AccountRef = { kind: 'MERCHANT_FEE_INCOME' };
export const CARD_NETWORK: AccountRef = { kind: 'CARD_NETWORK' };

export const isCustomerKind = (kind: string): kind is CustomerKind => (CUSTOMER_KINDS as readonly string[]).includes(kind);

/** The owner_id column: the customer for a wallet, the card for a card, the merchant for its own. */
export function ownerIdOf(ref: AccountRef, merchantId: string) {
  if (ref.kind === 'WALLET') return ref.holderId;
  if (ref.kind === 'CARD') return ref.cardId;
  return merchantId;
}

export const holderIdOf = (ref: AccountRef) => (ref.kind === 'WALLET' || ref.kind === 'CARD' ? ref.holderId : null);

/** One name per ledger account within a merchant and currency, for maps and sorting. */
export const refKey = (ref: AccountRef, merchantId: string) => `${ref.kind}:${ownerIdOf(ref, merchantId)}:${shardOf(ref)}`;
