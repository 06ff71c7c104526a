import { CURRENCIES } from '@portal/contract/enums';
import { EVENT_TYPES } from '@portal/contract/events';
import { fromMinorUnits } from '@portal/contract/money';
import type { StreamEvent } from '@portal/contract/messages';
import type { AccountBalanceItem, CardAmountItem } from '@portal/contract/wallet';
import type { Db, Tx } from '../../db/engine.ts';
import { type HolderBalanceRow, holderBalances } from './balance-store.ts';

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

/** The BALANCE_CHANGED event of a customer: what the wallet and the cards hold now. */
export async function balanceEvent(tx: Tx, merchantId: string, accountId: string): Promise<StreamEvent> {
  const { balances, cardAmount } = await customerBalances(tx, merchantId, accountId);
  return { type: EVENT_TYPES.balance, balances, card_amount: cardAmount };
}

/** Completes a BALANCE_CHANGED event for each customer with a stream open here: what they hold when it is sent. */
export const balanceFinisher = (db: Db) => async (merchantId: string, readers: Array<{ accountId: string }>) => {
  const events = new Map<string, StreamEvent>();
  for (const accountId of new Set(readers.map((reader) => reader.accountId))) events.set(accountId, await balanceEvent(db, merchantId, accountId));
  return (reader: { accountId: string }) => events.get(reader.accountId) as StreamEvent;
};
