import type { Db, Tx } from '../../db/engine.ts';
import type { Clock } from '../../lib/clock.ts';
import { auditLedger } from './audit.ts';
import { balanceFinisher, customerBalances, customersBalances } from './balances.ts';
import { CURRENCIES } from '@portal/contract/enums';
import { fromMinorUnits } from '@portal/contract/money';
import { cardBalanceRows, cardsBelowRows, heldCardBalances } from './balance-store.ts';
import {
  countWalletList,
  countWalletPostings,
  findWalletStatus,
  type GroupPrefixes,
  pageWalletList,
  freezeWalletRow,
  pageWalletPostings,
  setWalletAccountsFrozen,
  unfreezeWalletRow,
  type WalletPostingFilter,
  walletGroupParts,
  walletListAfter,
  walletPostingsAfter,
} from './wallet-store.ts';

/**
 * The books as they are read: what a customer and a card hold, a wallet's postings and its status, and
 * the audit of every invariant. The ledger's service moves the money; this one reads what it wrote,
 * and freezes a wallet, which the ledger then refuses to move money out of.
 */
export function createBooksService({ db, clock }: { db: Db; clock: Clock }) {
  return {
    /** Checks every invariant of the books; sound books answer no violations. */
    audit: () => auditLedger(db),

    /** Completes a BALANCE_CHANGED event per stream (the hub's finisher named BALANCE_FINISHER). */
    balanceEvents: balanceFinisher(db),

    /** What a customer holds: the wallet (available, held) and the cards, every currency. */
    customerBalances: (merchantId: string, holderId: string) => customerBalances(db, merchantId, holderId),
    /** The same for several customers at once (a page of the console's customers), by account id. */
    customersBalances: (merchantId: string, holderIds: string[]) => customersBalances(db, merchantId, holderIds),

    /**
     * What the account's cards hold per currency (GET /balance/card-amount, the card summary); with
     * `heldBy`, only the cards that member holds.
     */
    async cardAmount(merchantId: string, accountId: string, heldBy?: string) {
      if (!heldBy) return (await customerBalances(db, merchantId, accountId)).cardAmount;
      const held = await heldCardBalances(db, merchantId, accountId, heldBy);
      return CURRENCIES.map((currency) => ({ currency, amount: fromMinorUnits(held.get(currency) ?? 0n) }));
    },

    /** What each card holds (minor units), read in `tx` when given (e.g. under the card's lock). */
    cardBalances: (merchantId: string, cardIds: string[], tx?: Tx) => cardBalanceRows(tx ?? db, merchantId, cardIds),

    /** The ids of the customer's cards with less than `below` available (minor units). */
    cardsBelow: (merchantId: string, holderId: string, below: bigint, tx?: Tx) => cardsBelowRows(tx ?? db, merchantId, holderId, below),

    /** The wallet's status (frozen or not, why, since when); undefined for a wallet never used nor frozen. */
    walletStatus: (merchantId: string, accountId: string) => findWalletStatus(db, merchantId, accountId),

    /**
     * Freezes the customer's wallet inside the caller's transaction: its status and its accounts, so
     * from the commit on no money leaves it. False when it was frozen already (or is not this merchant's).
     */
    async freezeWallet(tx: Tx, request: { merchantId: string; accountId: string; reason: string }) {
      if (!(await freezeWalletRow(tx, request.merchantId, request.accountId, request.reason, clock.now()))) return false;
      await setWalletAccountsFrozen(tx, request.merchantId, request.accountId, true);
      return true;
    },

    /** Unfreezes the customer's wallet inside the caller's transaction; false when it was not frozen. */
    async unfreezeWallet(tx: Tx, request: { merchantId: string; accountId: string }) {
      if (!(await unfreezeWalletRow(tx, request.merchantId, request.accountId, clock.now()))) return false;
      await setWalletAccountsFrozen(tx, request.merchantId, request.accountId, false);
      return true;
    },

    /** A page of the wallet's postings, newest first, and how many match in all. */
    walletPostingsPage: (merchantId: string, accountId: string, filter: WalletPostingFilter, page: { limit: number; offset: number }) =>
      pageWalletPostings(db, merchantId, accountId, filter, page.limit, page.offset),

    countWalletPostings: (merchantId: string, accountId: string, filter: WalletPostingFilter) => countWalletPostings(db, merchantId, accountId, filter),

    /** A page of the wallet's list as its screen shows it: an operation on many cards one row (wallet-store.ts). */
    walletListPage: (merchantId: string, accountId: string, filter: WalletPostingFilter, prefixes: GroupPrefixes, page: { limit: number; offset: number }) =>
      pageWalletList(db, merchantId, accountId, filter, prefixes, page.limit, page.offset),

    countWalletList: (merchantId: string, accountId: string, filter: WalletPostingFilter, prefixes: GroupPrefixes) =>
      countWalletList(db, merchantId, accountId, filter, prefixes),

    walletListAfter: (
      merchantId: string,
      accountId: string,
      filter: WalletPostingFilter,
      prefixes: GroupPrefixes,
      after: { createdAt: Date; orderId: string } | null,
      limit: number,
    ) => walletListAfter(db, merchantId, accountId, filter, prefixes, after, limit),

    /** The postings one row of the list stands for (its group's reference), newest first. */
    walletGroupParts: (merchantId: string, accountId: string, groupRef: string, page: { limit: number; offset: number }) =>
      walletGroupParts(db, merchantId, accountId, groupRef, page.limit, page.offset),

    /** The next `limit` postings after a cursor, newest first (null: from the newest). */
    walletPostingsAfter: (
      merchantId: string,
      accountId: string,
      filter: WalletPostingFilter,
      after: { createdAt: Date; id: string } | null,
      limit: number,
    ) => walletPostingsAfter(db, merchantId, accountId, filter, after, limit),
  };
}

export type BooksService = ReturnType<typeof createBooksService>;

export { ledgerAuditRules } from './audit.ts';
export type { GroupPrefixes, WalletListRow, WalletPostingFilter, WalletPostingRow } from './wallet-store.ts';
