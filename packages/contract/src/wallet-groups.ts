import { type WalletTransactionType, walletTransactionTypeLabel } from './enums.ts';
import { WALLET_GROUP_KINDS, type WalletGroupKind } from './wallet.ts';

/**
 * An operation on many cards at once shows as one row of the wallet's list that opens to its parts: a
 * batch opening (批量开卡 50 张). Its postings are known by the reference of the holds they settled,
 * `<prefix>:<id>`: a batch opening's (`batch:`) and a bulk recharge's (`bulk:`, 批量充值 30 张).
 */
export const walletGroupKinds: Record<WalletGroupKind, { prefix: string; type: WalletTransactionType; label: (cards: number) => string }> = {
  CARD_BATCH: { prefix: 'batch', type: 'OPEN_CARD', label: (cards) => `批量开卡 ${cards} 张` },
  CARD_BULK_RECHARGE: { prefix: 'bulk', type: 'TRANSFER_OUT_TO_CARD', label: (cards) => `批量充值 ${cards} 张` },
};
export const walletGroupKindOfPrefix = (prefix: string): WalletGroupKind | undefined =>
  WALLET_GROUP_KINDS.find((kind) => walletGroupKinds[kind].prefix === prefix);

/** What a card's first load is called in the wallet's list: money that opened a card, not a transfer out. */
export const FIRST_LOAD_LABEL = '开卡充值';

/** The name of a row of the wallet's list, the same on the screen and in the export. */
export function walletRowLabel(item: { type: WalletTransactionType; first_load: boolean; group: { kind: WalletGroupKind; count: number } | null }): string {
  if (item.group) return walletGroupKinds[item.group.kind].label(item.group.count);
  if (item.first_load) return FIRST_LOAD_LABEL;
  return walletTransactionTypeLabel[item.type];
}

