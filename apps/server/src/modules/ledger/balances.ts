import { CURRENCIES } from '@portal/contract/enums';
import { EVENT_TYPES } from '@portal/contract/events';
import { fromMinorUnits } from '@portal/contract/money';
import type { AccountBalanceItem, CardAmountItem } from '@portal/contract/wallet';
import type { Tx } from '../../db/engine.ts';
import { publishAccountEvents } from '../events/hub.ts';
import { type HolderBalanceRow, holderBalances } from './store.ts';

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

/**
 * Tells the open portal tabs of the customers who hold these accounts what they hold now (a
 * BALANCE_CHANGED event each). Inside a transaction the event goes out when it commits; after a
 * commit it reads the balances as they stand then, so a later event never carries older figures.
 */
export async function announceBalances(tx: Tx, merchantId: string, accounts: Array<{ kind: string; ownerId: string }>) {
  const ownerIds = [...new Set(accounts.filter((account) => account.kind === 'WALLET' || account.kind === 'CARD').map((account) => account.ownerId))];
  const rows = await holderBalances(tx, merchantId, { ownerIds });
  const holders = [...new Set(rows.map((row) => row.holderId))];
  await publishAccountEvents(
    tx,
    merchantId,
    holders.map((accountId) => {
      const { balances, cardAmount } = balancesOf(rows.filter((row) => row.holderId === accountId));
      return { accountId, event: { type: EVENT_TYPES.balance, balances, card_amount: cardAmount } };
    }),
  );
}
