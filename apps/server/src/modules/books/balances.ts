import { CURRENCIES } from '@portal/contract/enums';
import { EVENT_TYPES } from '@portal/contract/events';
import { fromMinorUnits } from '@portal/contract/money';
import type { StreamEvent } from '@portal/contract/messages';
import { holdsOwnCardsOnly, type Role } from '@portal/contract/team';
import type { AccountBalanceItem, CardAmountItem } from '@portal/contract/wallet';
import type { Db, Tx } from '../../db/engine.ts';
import { type HolderBalanceRow, heldCardBalances, holderBalances } from './balance-store.ts';

/** What a customer holds, as the wallet calls answer it: every currency, zeros for one never used. */
export interface CustomerBalances {
  /** the wallet: spendable and held */
  balances: AccountBalanceItem[];
  /** what the customer's cards hold */
  cardAmount: CardAmountItem[];
}

function balancesOf(rows: HolderBalanceRow[]): CustomerBalances {
  const find = (kind: HolderBalanceRow['kind'], currency: string) => rows.find((row) => row.kind === kind && row.currency === currency);
  return {
    balances: CURRENCIES.map((currency) => {
      const wallet = find('WALLET', currency);
      const balance = wallet?.balance ?? 0n;
      const held = wallet?.held ?? 0n;
      return { currency, available: fromMinorUnits(balance - held), anew: fromMinorUnits(held) };
    }),
    cardAmount: CURRENCIES.map((currency) => ({ currency, amount: fromMinorUnits(find('CARD', currency)?.balance ?? 0n) })),
  };
}

export async function customerBalances(tx: Tx, merchantId: string, holderId: string): Promise<CustomerBalances> {
  return balancesOf(await holderBalances(tx, merchantId, { holderIds: [holderId] }));
}

/** What each of these customers holds, by account id (every currency, zeros for one never used). */
export async function customersBalances(tx: Tx, merchantId: string, holderIds: string[]): Promise<Map<string, CustomerBalances>> {
  const rows = await holderBalances(tx, merchantId, { holderIds });
  return new Map(holderIds.map((id) => [id, balancesOf(rows.filter((row) => row.holderId === id))]));
}

/** The BALANCE_CHANGED event of a customer: what the wallet and the cards hold now. */
export async function balanceEvent(tx: Tx, merchantId: string, accountId: string): Promise<StreamEvent> {
  const { balances, cardAmount } = await customerBalances(tx, merchantId, accountId);
  return { type: EVENT_TYPES.balance, balances, card_amount: cardAmount };
}

/**
 * Completes a BALANCE_CHANGED event for each member with a stream open here: what the account holds when
 * it is sent. The wallet is every role's to read (`wallet.read`); what the cards hold is, for a role that
 * sees only the cards it holds, what those cards hold, as GET /balance/card-amount answers them.
 */
export const balanceFinisher = (db: Db) => async (merchantId: string, readers: Array<{ accountId: string; memberId: string; role: Role }>) => {
  const events = new Map<string, StreamEvent>();
  for (const accountId of new Set(readers.map((reader) => reader.accountId))) events.set(accountId, await balanceEvent(db, merchantId, accountId));
  const own = new Map<string, StreamEvent>();
  for (const reader of readers.filter((one) => holdsOwnCardsOnly(one.role))) {
    const held = await heldCardBalances(db, merchantId, reader.accountId, reader.memberId);
    const cardAmount = CURRENCIES.map((currency) => ({ currency, amount: fromMinorUnits(held.get(currency) ?? 0n) }));
    own.set(reader.memberId, { ...(events.get(reader.accountId) as StreamEvent), card_amount: cardAmount });
  }
  return (reader: { accountId: string; memberId: string }) => own.get(reader.memberId) ?? (events.get(reader.accountId) as StreamEvent);
};
