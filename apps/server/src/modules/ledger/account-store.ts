import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/engine.ts';
import { BALANCE_STATUS_AVAILABLE } from '@portal/contract/enums';
import type { HouseKind, LedgerKind } from './accounts.ts';
import { big, rowsOf } from '../../db/raw-rows.ts';

/**
 * The ledger's SQL of its accounts: made on first use, locked in a fixed order. Amounts travel as text
 * and are cast in SQL, so no engine ever turns a bigint into a binary float on the way.
 */

export interface AccountKey {
  kind: LedgerKind;
  ownerId: string;
  /** the merchant's accounts' shard; 0 for the customer's */
  shard: number;
  /** the customer for WALLET and CARD accounts */
  holderId: string | null;
}

/**
 * Creates the ledger accounts (and the holders' wallet rows) that do not exist yet, before anything
 * is locked, in one fixed order, so that two first uses of an account neither fail nor deadlock. A
 * new wallet account is frozen when its wallet is: the wallet row is share-locked first, so a freeze
 * in flight is waited for and seen.
 */
export async function ensureAccounts(tx: Tx, merchantId: string, currency: string, keys: AccountKey[]) {
  const sorted = [...keys].sort((a, b) => `${a.kind}:${a.ownerId}:${a.shard}`.localeCompare(`${b.kind}:${b.ownerId}:${b.shard}`));
  const holders = [...new Set(sorted.flatMap((key) => (key.holderId ? [key.holderId] : [])))].sort();
  // a customer of another merchant gets no account here, and the lock that follows will not find one
  const ofThisMerchant = (column: SQL) => sql`exists (select 1 from accounts a where a.id = ${column} and a.merchant_id = ${merchantId})`;
  const holderList = sql.join(
    holders.map((holder) => sql`(${holder}::uuid)`),
    sql`, `,
  );
  if (holders.length) {
    await tx.execute(sql`insert into wallets (account_id, merchant_id)
      select v.id, ${merchantId}::uuid from (values ${holderList}) as v(id) where ${ofThisMerchant(sql`v.id`)}
      on conflict do nothing`);
  }
  const accountRows = sql.join(
    sorted.map((key) => sql`(${key.kind}, ${key.ownerId}::uuid, ${key.holderId}::uuid, ${key.shard}::smallint)`),
    sql`, `,
  );
  const status = holders.length
    ? sql`with w as (select account_id, status from wallets
        where merchant_id = ${merchantId} and account_id in (select id from (values ${holderList}) as h(id)) order by account_id for share) `
    : sql`with w as (select null::uuid as account_id, null::text as status where false) `;
  await tx.execute(
    sql`${status}insert into ledger_accounts (merchant_id, currency, kind, owner_id, holder_id, shard, frozen)
      select ${merchantId}::uuid, ${currency}, v.kind, v.owner_id, v.holder_id, v.shard,
             v.kind = 'WALLET' and coalesce((select w.status from w where w.account_id = v.holder_id), ${BALANCE_STATUS_AVAILABLE}) <> ${BALANCE_STATUS_AVAILABLE}
      from (values ${accountRows}) as v(kind, owner_id, holder_id, shard)
      where v.holder_id is null or ${ofThisMerchant(sql`v.holder_id`)}
      on conflict do nothing`,
  );
}

/**
 * The ledger account of a card, made when the card is made (so its first load finds it): the card
 * belongs to the customer `holderId` of the merchant, which the caller has checked (the card row).
 */
export async function insertCardAccount(tx: Tx, merchantId: string, currency: string, cardId: string, holderId: string) {
  await tx.execute(sql`insert into ledger_accounts (merchant_id, currency, kind, owner_id, holder_id, shard, frozen)
    values (${merchantId}::uuid, ${currency}, 'CARD', ${cardId}::uuid, ${holderId}::uuid, 0, false)
    on conflict do nothing`);
}

export interface LockedAccount {
  id: string;
  kind: LedgerKind;
  ownerId: string;
  holderId: string;
  balance: bigint;
  held: bigint;
  /** WALLET: frozen, nothing may leave it */
  frozen: boolean;
  /** the highest balance any watch of the account wants to hear about (ledger_watches); null: none */
  watchBelow: bigint | null;
}

/**
 * Locks the customer's accounts of an operation, in id order (the one lock order every operation
 * keeps). A freeze updates the wallet's rows, so it waits for this operation, or this one sees it.
 * With `claim`, the statement claims the operation's idempotency key as well: `claimed` is false when
 * the key was there (and null when no account was found, so nothing tells).
 */
export async function lockCustomerAccounts(
  tx: Tx,
  merchantId: string,
  currency: string,
  keys: Array<{ kind: LedgerKind; ownerId: string }>,
  claim: { key: string; requestHash: string } | null = null,
) {
  const wanted = sql.join(
    keys.map((key) => sql`(${key.kind}, ${key.ownerId}::uuid)`),
    sql`, `,
  );
  const claiming = claim
    ? sql`with k as (insert into ledger_idempotency_keys (merchant_id, key, request_hash)
        values (${merchantId}::uuid, ${claim.key}, ${claim.requestHash}) on conflict do nothing returning key) `
    : sql``;
  const claimedColumn = claim ? sql`, (select count(*) from k)::int as claimed` : sql``;
  const rows = await rowsOf(
    tx.execute(sql`${claiming}
      select la.id, la.kind, la.owner_id, la.holder_id, la.balance::text as balance, la.held::text as held, la.frozen${claimedColumn},
        (select max(w.below) from ledger_watches w where w.holder_id = la.holder_id and w.kind = la.kind
          and (w.owner_id is null or w.owner_id = la.owner_id) and (w.currency is null or w.currency = la.currency))::text as watch_below
      from ledger_accounts la
      where la.merchant_id = ${merchantId} and la.currency = ${currency} and (la.kind, la.owner_id) in (${wanted}) and la.shard = 0
      order by la.id
      for update`),
  );
  const accounts = rows.map(
    (row): LockedAccount => ({
      id: String(row.id),
      kind: row.kind as LedgerKind,
      ownerId: String(row.owner_id),
      holderId: String(row.holder_id),
      balance: big(row.balance),
      held: big(row.held),
      frozen: row.frozen === true,
      watchBelow: row.watch_below === null || row.watch_below === undefined ? null : big(row.watch_below),
    }),
  );
  const claimed = claim ? (rows.length ? rows[0]?.claimed === 1 : null) : null;
  return { accounts, claimed };
}

/** When one operation moves more than one of the merchant's own accounts, they are locked first, in id order. */
export async function lockHouseAccounts(tx: Tx, merchantId: string, currency: string, accounts: Array<{ kind: HouseKind; shard: number }>) {
  await tx.execute(sql`
    select id from ledger_accounts
    where merchant_id = ${merchantId} and currency = ${currency} and owner_id = ${merchantId}
      and (kind, shard) in (${sql.join(
        accounts.map((account) => sql`(${account.kind}, ${account.shard}::smallint)`),
        sql`, `,
      )})
    order by id for update`);
}

/** A watch of a holder's balances (ledger_watches), set or replaced; `below` null drops it. */
export async function putWatch(
  tx: Tx,
  watch: { merchantId: string; holderId: string; watchKey: string; kind: LedgerKind; ownerId: string | null; currency: string | null; below: bigint | null },
) {
  if (watch.below === null) {
    await tx.execute(sql`delete from ledger_watches where holder_id = ${watch.holderId}::uuid and watch_key = ${watch.watchKey}`);
    return;
  }
  await tx.execute(sql`insert into ledger_watches (holder_id, watch_key, merchant_id, kind, owner_id, currency, below)
    values (${watch.holderId}::uuid, ${watch.watchKey}, ${watch.merchantId}::uuid, ${watch.kind}, ${watch.ownerId}::uuid, ${watch.currency}, ${watch.below.toString()}::bigint)
    on conflict (holder_id, watch_key) do update set kind = excluded.kind, owner_id = excluded.owner_id, currency = excluded.currency, below = excluded.below`);
}
