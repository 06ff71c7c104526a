import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/engine.ts';
import { CURRENCIES } from '@portal/contract/enums';
import { big, rowsOf } from '../../db/raw-rows.ts';
import { customerKindsSql } from './customer-kinds.ts';

/**
 * The ledger's SQL of what customers hold: their wallets' and cards' balances. Amounts travel as text
 * and are cast in SQL, so no engine ever turns a bigint into a binary float on the way.
 */

export interface HolderBalanceRow {
  holderId: string;
  kind: 'WALLET' | 'CARD';
  currency: string;
  /** summed over the holder's accounts of that kind (a wallet is one; cards are many) */
  balance: bigint;
  held: bigint;
}

/**
 * The ledger accounts of these cards. The currency is named too (every ledger account is in one of
 * CURRENCIES: requests.ts refuses any other), so the unique index (merchant_id, currency, kind,
 * owner_id, shard) finds each card's account directly; without it the index was read across every
 * card account of the merchant, a cost that grew with all its customers' cards.
 */
function cardAccountsWhere(merchantId: string, cardIds: string[]) {
  const list = sql.join(
    cardIds.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  const currencies = sql.join(
    CURRENCIES.map((currency) => sql`${currency}`),
    sql`, `,
  );
  return sql`merchant_id = ${merchantId} and currency in (${currencies}) and kind = 'CARD' and owner_id in (${list})`;
}

/** What each of these cards holds (balance and held, minor units); a card with no account yet is absent. */
export async function cardBalanceRows(tx: Tx, merchantId: string, cardIds: string[]) {
  if (cardIds.length === 0) return new Map<string, { balance: bigint; held: bigint }>();
  const rows = await rowsOf(
    tx.execute(sql`select owner_id, balance::text as balance, held::text as held from ledger_accounts where ${cardAccountsWhere(merchantId, cardIds)}`),
  );
  return new Map(rows.map((row) => [String(row.owner_id), { balance: big(row.balance), held: big(row.held) }]));
}

/** The wallet and the cards' totals per currency of the given customers. */
export async function holderBalances(tx: Tx, merchantId: string, who: { holderIds: string[] }): Promise<HolderBalanceRow[]> {
  if (who.holderIds.length === 0) return [];
  const holders = sql.join(
    who.holderIds.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  const rows = await rowsOf(
    tx.execute(sql`select holder_id, kind, currency, sum(balance)::text as balance, sum(held)::text as held from ledger_accounts
      where holder_id in (${holders}) and merchant_id = ${merchantId} and kind in (${customerKindsSql})
      group by holder_id, kind, currency`),
  );
  return rows.map((row) => ({
    holderId: String(row.holder_id),
    kind: row.kind as HolderBalanceRow['kind'],
    currency: String(row.currency),
    balance: big(row.balance),
    held: big(row.held),
  }));
}

/** The rows of a raw query (both engines answer `{ rows }`). */

/** What the cards one member holds in the account hold, per currency (balance, minor units). */
export async function heldCardBalances(tx: Tx, merchantId: string, accountId: string, memberId: string) {
  const rows = await rowsOf(
    tx.execute(sql`select a.currency, sum(a.balance)::text as balance from cards c
      join ledger_accounts a on a.merchant_id = c.merchant_id and a.kind = 'CARD' and a.owner_id = c.id
      where c.merchant_id = ${merchantId} and c.account_id = ${accountId}::uuid and c.holder_member_id = ${memberId}::uuid
      group by a.currency`),
  );
  return new Map(rows.map((row) => [String(row.currency), big(row.balance)]));
}

/** The customer's cards whose available (balance − held) is below `below` (minor units, in each card's currency). */
export async function cardsBelowRows(tx: Tx, merchantId: string, holderId: string, below: bigint) {
  const rows = await rowsOf(
    tx.execute(sql`select owner_id from ledger_accounts
      where merchant_id = ${merchantId}::uuid and holder_id = ${holderId}::uuid and kind = 'CARD' and shard = 0 and balance - held < ${below.toString()}::bigint`),
  );
  return rows.map((row) => String(row.owner_id));
}
