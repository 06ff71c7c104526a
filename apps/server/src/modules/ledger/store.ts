import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/engine.ts';
import { ledgerIdempotencyKeys } from '../../db/schema.ts';
import { BALANCE_STATUS_AVAILABLE, BALANCE_STATUS_FROZEN, CURRENCIES } from '@portal/contract/enums';
import { CUSTOMER_KINDS, type HouseKind, type LedgerKind } from './accounts.ts';

/**
 * The ledger's SQL. Amounts travel as text and are cast in SQL, so no engine ever turns a bigint
 * into a binary float on the way.
 */

type Row = Record<string, unknown>;
/** The rows of a raw query (both engines answer `{ rows }`). */
const rowsOf = async (result: PromiseLike<unknown>) => ((await result) as { rows: Row[] }).rows;
const big = (value: unknown) => BigInt(value as string);
const customerKindsSql = sql.join(
  CUSTOMER_KINDS.map((kind) => sql`${kind}`),
  sql`, `,
);

// ── idempotency keys ──

/**
 * Claims a key for this transaction. Null: it is ours now. Otherwise the earlier request that holds
 * it (a concurrent one with the same key waits here until that one commits or rolls back).
 */
/** Claims a key for a request; false when the key was there (claimed by an earlier request). */
export async function claimIdempotencyKey(tx: Tx, merchantId: string, key: string, requestHash: string) {
  const inserted = await tx
    .insert(ledgerIdempotencyKeys)
    .values({ merchantId, key, requestHash })
    .onConflictDoNothing()
    .returning({ key: ledgerIdempotencyKeys.key });
  return inserted.length === 1;
}

/** Takes back a key claimed by a request that was then refused (one that has no answer yet). */
export async function releaseIdempotencyKey(tx: Tx, merchantId: string, key: string) {
  await tx.execute(sql`delete from ledger_idempotency_keys where merchant_id = ${merchantId} and key = ${key} and answer is null`);
}

/** Whether an error is the database's (a statement failed): after it, a transaction without a savepoint takes no statement. */
export function isDatabaseError(error: unknown): boolean {
  for (let at = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; at && depth < 5; depth++) {
    if (typeof at.code === 'string' && /^[0-9A-Z]{5}$/.test(at.code)) return true;
    at = at.cause as typeof at;
  }
  return false;
}

export interface EarlierKey {
  requestHash: string;
  answer: unknown;
}

/** A key's first request (its hash) and answer. */
export async function readIdempotencyKey(tx: Tx, merchantId: string, key: string): Promise<EarlierKey | undefined> {
  const [found] = await rowsOf(
    tx.execute(sql`select request_hash, answer from ledger_idempotency_keys where merchant_id = ${merchantId} and key = ${key}`),
  );
  return found ? { requestHash: String(found.request_hash), answer: found.answer as unknown } : undefined;
}

// ── ledger accounts ──

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
      select la.id, la.kind, la.owner_id, la.holder_id, la.balance::text as balance, la.held::text as held, la.frozen${claimedColumn}
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

// ── writing an operation ──

export interface WritePlan {
  merchantId: string;
  currency: string;
  at: Date;
  transaction?: {
    id: string;
    type: string;
    holderId: string | null;
    reference: string;
    memo: string;
    reversesId: string | null;
  };
  /** the customer's accounts: their new balance and held, and the posting to each (0n: none) */
  customer: Array<{ id: string; balance: bigint; held: bigint; posting: bigint }>;
  /** the merchant's accounts: what is added to each (their rows are locked here, last, and briefly) */
  house: Array<{ kind: HouseKind; shard: number; delta: bigint }>;
  holdInserts: Array<{ id: string; ledgerAccountId: string; holderId: string; amount: bigint; reference: string }>;
  holdSettle?: { id: string; status: 'POSTED' | 'RELEASED' };
  idempotency: { key: string; answer: unknown };
  /** a NOTIFY the statement sends as well (movement.ts Announce), or null */
  notify?: { channel: string; payload: string } | null;
}

/**
 * Writes a whole operation in one statement: the transaction, its postings, the new balances, the
 * hold and the idempotency answer. Answers how many of the merchant's accounts it found. The merchant's accounts are updated by adding to them in this
 * last statement, so their (hot) row locks are held only until the commit right after.
 */
export async function writeOperation(tx: Tx, plan: WritePlan) {
  const parts: SQL[] = [];
  const { merchantId, currency, at } = plan;
  const t = plan.transaction;
  if (t) {
    parts.push(sql`t as (insert into ledger_transactions (id, merchant_id, currency, type, holder_id, reference, memo, reverses_id, created_at)
      values (${t.id}::uuid, ${merchantId}::uuid, ${currency}, ${t.type}, ${t.holderId}::uuid, ${t.reference}, ${t.memo}, ${t.reversesId}::uuid, ${at}))`);
  }
  if (plan.customer.length) {
    const values = sql.join(
      plan.customer.map((c) => sql`(${c.id}::uuid, ${c.balance.toString()}::bigint, ${c.held.toString()}::bigint)`),
      sql`, `,
    );
    parts.push(sql`c as (update ledger_accounts la set balance = v.balance, held = v.held
      from (values ${values}) as v(id, balance, held) where la.id = v.id)`);
  }
  if (plan.house.length) {
    if (!t) throw new Error('the merchant accounts move only within a transaction');
    const values = sql.join(
      plan.house.map((h) => sql`(${h.kind}, ${h.shard}::smallint, ${h.delta.toString()}::bigint)`),
      sql`, `,
    );
    parts.push(sql`h as (update ledger_accounts la set balance = la.balance + v.delta
      from (values ${values}) as v(kind, shard, delta)
      where la.merchant_id = ${merchantId} and la.currency = ${currency} and la.owner_id = ${merchantId} and la.kind = v.kind
        and la.shard = v.shard
      returning la.id, la.balance, v.delta)`);
  }
  const customerPostings = plan.customer.filter((c) => c.posting !== 0n);
  if (t && (customerPostings.length || plan.house.length)) {
    const selects: SQL[] = [];
    if (plan.house.length) selects.push(sql`select id, delta, balance from h`);
    if (customerPostings.length) {
      const values = sql.join(
        customerPostings.map((c) => sql`(${c.id}::uuid, ${c.posting.toString()}::bigint, ${c.balance.toString()}::bigint)`),
        sql`, `,
      );
      selects.push(sql`select * from (values ${values}) as v(id, delta, balance)`);
    }
    parts.push(sql`p as (insert into ledger_postings (transaction_id, ledger_account_id, amount, balance_after, type, created_at)
      select ${t.id}::uuid, x.id, x.delta, x.balance, ${t.type}, ${at} from (${sql.join(selects, sql` union all `)}) as x)`);
  }
  if (plan.holdInserts.length) {
    const values = sql.join(
      plan.holdInserts.map(
        (hold) =>
          sql`(${hold.id}::uuid, ${merchantId}::uuid, ${hold.ledgerAccountId}::uuid, ${hold.holderId}::uuid, ${currency}, ${hold.amount.toString()}::bigint, ${hold.reference}, ${at}::timestamptz)`,
      ),
      sql`, `,
    );
    parts.push(sql`hi as (insert into ledger_holds (id, merchant_id, ledger_account_id, holder_id, currency, amount, reference, created_at)
      values ${values})`);
  }
  if (plan.holdSettle) {
    const settle = plan.holdSettle;
    parts.push(sql`hs as (update ledger_holds set status = ${settle.status}, settled_at = ${at}, settled_transaction_id = ${t ? t.id : null}::uuid
      where id = ${settle.id}::uuid and status = 'ACTIVE')`);
  }
  parts.push(sql`k as (update ledger_idempotency_keys set answer = ${JSON.stringify(plan.idempotency.answer)}::jsonb
    where merchant_id = ${merchantId}::uuid and key = ${plan.idempotency.key})`);
  const houseCount = plan.house.length ? sql`(select count(*) from h)::int` : sql`0`;
  const notify = plan.notify ? sql`, pg_notify(${plan.notify.channel}, ${plan.notify.payload})::text as notified` : sql``;
  const [result] = await rowsOf(tx.execute(sql`with ${sql.join(parts, sql`, `)} select ${houseCount} as house_rows${notify}`));
  // fewer than asked for means a merchant account does not exist yet: the caller must roll back
  return { houseRows: Number(result?.house_rows ?? 0) };
}

/** Whether a database error (or one it wraps) has this SQLSTATE. */
export function hasCode(error: unknown, code: string): boolean {
  for (let at = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; at && depth < 5; depth++) {
    if (at.code === code) return true;
    at = at.cause as typeof at;
  }
  return false;
}

// ── holds and transactions ──

export interface HoldRow {
  id: string;
  ledgerAccountId: string;
  holderId: string;
  currency: string;
  amount: bigint;
  status: string;
  reference: string;
  accountKind: LedgerKind;
  accountOwnerId: string;
}

/** Locks a hold of the merchant: of two that settle it at once, the second sees the first's result. */
export async function lockHold(tx: Tx, merchantId: string, holdId: string): Promise<HoldRow | undefined> {
  const [row] = await rowsOf(
    tx.execute(sql`
      select h.id, h.ledger_account_id, h.holder_id, h.currency, h.amount::text as amount, h.status, h.reference,
             la.kind, la.owner_id
      from ledger_holds h join ledger_accounts la on la.id = h.ledger_account_id
      where h.id = ${holdId} and h.merchant_id = ${merchantId}
      for update of h`),
  );
  if (!row) return undefined;
  return {
    id: String(row.id),
    ledgerAccountId: String(row.ledger_account_id),
    holderId: String(row.holder_id),
    currency: String(row.currency),
    amount: big(row.amount),
    status: String(row.status),
    reference: String(row.reference),
    accountKind: row.kind as LedgerKind,
    accountOwnerId: String(row.owner_id),
  };
}

export interface TransactionRow {
  id: string;
  currency: string;
  type: string;
  holderId: string | null;
  reference: string;
  memo: string;
  reversesId: string | null;
  createdAt: Date;
}

const transactionOf = (row: Row): TransactionRow => ({
  id: String(row.id),
  currency: String(row.currency),
  type: String(row.type),
  holderId: row.holder_id === null ? null : String(row.holder_id),
  reference: String(row.reference),
  memo: String(row.memo),
  reversesId: row.reverses_id === null ? null : String(row.reverses_id),
  createdAt: new Date(row.created_at as string | Date),
});

/** Locks a transaction of the merchant against a second reversal at the same moment. */
export async function lockTransaction(tx: Tx, merchantId: string, id: string) {
  const [row] = await rowsOf(
    tx.execute(sql`select id, currency, type, holder_id, reference, memo, reverses_id, created_at
      from ledger_transactions where id = ${id} and merchant_id = ${merchantId} for update`),
  );
  return row ? transactionOf(row) : undefined;
}

export async function findReversal(tx: Tx, transactionId: string) {
  const [row] = await rowsOf(tx.execute(sql`select id from ledger_transactions where reverses_id = ${transactionId}`));
  return row ? String(row.id) : null;
}

/** The postings of a transaction with the account each went to. */
export async function postingsOf(tx: Tx, transactionId: string) {
  const rows = await rowsOf(
    tx.execute(sql`select p.amount::text as amount, la.kind, la.owner_id, la.holder_id, la.shard
      from ledger_postings p join ledger_accounts la on la.id = p.ledger_account_id
      where p.transaction_id = ${transactionId} order by p.id`),
  );
  return rows.map((row) => ({
    amount: big(row.amount),
    kind: row.kind as LedgerKind,
    ownerId: String(row.owner_id),
    holderId: row.holder_id === null ? null : String(row.holder_id),
    shard: Number(row.shard),
  }));
}

// ── the audit: every invariant of the books, checked in SQL ──

export interface Violation {
  rule: string;
  detail: string;
}

/** Each query answers the rows that break one rule; none answers anything on sound books. */
const auditQueries: Array<{ rule: string; query: SQL; detail: (row: Row) => string }> = [
  {
    rule: 'every currency sums to zero',
    query: sql`select merchant_id, currency, sum(balance)::text as total from ledger_accounts group by merchant_id, currency having sum(balance) <> 0`,
    detail: (r) => `merchant ${r.merchant_id} ${r.currency}: accounts sum to ${r.total}`,
  },
  {
    rule: 'each balance equals the sum of its postings',
    query: sql`select la.id, la.balance::text as balance, coalesce(p.total, 0)::text as total
      from ledger_accounts la left join (select ledger_account_id, sum(amount) as total from ledger_postings group by ledger_account_id) p
        on p.ledger_account_id = la.id
      where la.balance <> coalesce(p.total, 0)`,
    detail: (r) => `account ${r.id}: balance ${r.balance}, postings ${r.total}`,
  },
  {
    rule: "each account's last posting shows its balance",
    query: sql`select la.id, la.balance::text as balance, last.balance_after::text as after
      from ledger_accounts la join (
        select distinct on (ledger_account_id) ledger_account_id, balance_after from ledger_postings order by ledger_account_id, id desc
      ) last on last.ledger_account_id = la.id
      where last.balance_after <> la.balance`,
    detail: (r) => `account ${r.id}: balance ${r.balance}, last balance_after ${r.after}`,
  },
  {
    rule: 'each posting follows the one before it',
    query: sql`select id, ledger_account_id from (
        select id, ledger_account_id, balance_after, amount,
               lag(balance_after, 1, 0::bigint) over (partition by ledger_account_id order by id) as before
        from ledger_postings) s
      where before + amount <> balance_after`,
    detail: (r) => `posting ${r.id} on account ${r.ledger_account_id} does not continue the balance before it`,
  },
  {
    rule: "no customer's balance or hold is negative",
    query: sql`select id, kind, balance::text as balance, held::text as held from ledger_accounts
      where held < 0 or (kind in (${customerKindsSql}) and balance - held < 0)`,
    detail: (r) => `${r.kind} account ${r.id}: balance ${r.balance}, held ${r.held}`,
  },
  {
    rule: 'held equals the sum of the active holds',
    query: sql`select la.id, la.held::text as held, coalesce(h.total, 0)::text as total
      from ledger_accounts la left join (
        select ledger_account_id, sum(amount) as total from ledger_holds where status = 'ACTIVE' group by ledger_account_id
      ) h on h.ledger_account_id = la.id
      where la.held <> coalesce(h.total, 0)`,
    detail: (r) => `account ${r.id}: held ${r.held}, active holds ${r.total}`,
  },
  {
    rule: 'every transaction balances, in its own currency',
    query: sql`select t.id, coalesce(sum(p.amount), 0)::text as total, count(p.id)::int as lines,
             bool_and(la.currency = t.currency) as same_currency
      from ledger_transactions t
      left join ledger_postings p on p.transaction_id = t.id
      left join ledger_accounts la on la.id = p.ledger_account_id
      group by t.id
      having coalesce(sum(p.amount), 0) <> 0 or count(p.id) < 2 or not bool_and(la.currency = t.currency)`,
    detail: (r) => `transaction ${r.id}: ${r.lines} postings summing to ${r.total}${r.same_currency === false ? ', in another currency' : ''}`,
  },
  {
    rule: "a wallet's ledger accounts are frozen exactly when the wallet is",
    query: sql`select la.id, la.frozen, coalesce(w.status, ${BALANCE_STATUS_AVAILABLE}) as status
      from ledger_accounts la left join wallets w on w.account_id = la.owner_id and w.merchant_id = la.merchant_id
      where (la.kind = 'WALLET' and la.frozen <> (coalesce(w.status, ${BALANCE_STATUS_AVAILABLE}) <> ${BALANCE_STATUS_AVAILABLE}))
         or (la.kind <> 'WALLET' and la.frozen)`,
    detail: (r) => `account ${r.id}: frozen ${r.frozen}, wallet ${r.status}`,
  },
  {
    rule: 'a settled hold is settled once, a posted one by a transaction',
    query: sql`select id, status from ledger_holds
      where status not in ('ACTIVE', 'POSTED', 'RELEASED')
         or (status = 'ACTIVE') <> (settled_at is null)
         or (status = 'POSTED') <> (settled_transaction_id is not null)`,
    detail: (r) => `hold ${r.id}: status ${r.status} does not match how it was settled`,
  },
];

export async function auditViolations(tx: Tx): Promise<Violation[]> {
  const violations: Violation[] = [];
  for (const check of auditQueries) {
    for (const row of await rowsOf(tx.execute(check.query))) violations.push({ rule: check.rule, detail: check.detail(row) });
  }
  return violations;
}

export const auditRules = auditQueries.map((check) => check.rule);

/** How much the audit looked at. */
export async function ledgerSize(tx: Tx) {
  const [row] = await rowsOf(
    tx.execute(sql`select (select count(*) from ledger_accounts)::int as accounts, (select count(*) from ledger_transactions)::int as transactions,
      (select count(*) from ledger_postings)::int as postings, (select count(*) from ledger_holds)::int as holds`),
  );
  return { accounts: Number(row?.accounts), transactions: Number(row?.transactions), postings: Number(row?.postings), holds: Number(row?.holds) };
}

// ── what customers hold ──

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
const rowsOfWallet = async (result: PromiseLike<unknown>) => ((await result) as { rows: Array<Record<string, unknown>> }).rows;

// ── a wallet's status and frozen flag ──
// The ledger keeps the wallet's status row (table `wallets`): it refuses money leaving a frozen wallet,
// creates the row with the wallet's first account, and orders a freeze against movements by it.

export async function findWalletStatus(tx: Tx, merchantId: string, accountId: string) {
  const [row] = await rowsOfWallet(
    tx.execute(sql`select status, status_reason, status_changed_at from wallets where account_id = ${accountId} and merchant_id = ${merchantId}`),
  );
  if (!row) return undefined;
  return {
    status: String(row.status),
    reason: String(row.status_reason),
    changedAt: row.status_changed_at === null ? null : new Date(row.status_changed_at as string | Date),
  };
}

/** Freezes the wallet; false when it was frozen already (or is not this merchant's). */
export async function freezeWalletRow(tx: Tx, merchantId: string, accountId: string, reason: string, at: Date) {
  const rows = await rowsOfWallet(
    tx.execute(sql`insert into wallets (account_id, merchant_id, status, status_reason, status_changed_at)
      select ${accountId}, ${merchantId}, ${BALANCE_STATUS_FROZEN}, ${reason}, ${at}
      where exists (select 1 from accounts where id = ${accountId} and merchant_id = ${merchantId})
      on conflict (account_id) do update set status = excluded.status, status_reason = excluded.status_reason,
        status_changed_at = excluded.status_changed_at
      where wallets.status <> excluded.status and wallets.merchant_id = excluded.merchant_id
      returning account_id`),
  );
  return rows.length === 1;
}

/** Unfreezes the wallet; false when it was not frozen. */
export async function unfreezeWalletRow(tx: Tx, merchantId: string, accountId: string, at: Date) {
  const rows = await rowsOfWallet(
    tx.execute(sql`update wallets set status = ${BALANCE_STATUS_AVAILABLE}, status_reason = '', status_changed_at = ${at}
      where account_id = ${accountId} and merchant_id = ${merchantId} and status <> ${BALANCE_STATUS_AVAILABLE}
      returning account_id`),
  );
  return rows.length === 1;
}

/**
 * Marks a customer's wallet accounts (every currency) frozen or not, in id order. Every movement
 * locks those rows, so it either commits before the change or sees it.
 */
export async function setWalletAccountsFrozen(tx: Tx, merchantId: string, holderId: string, frozen: boolean) {
  await tx.execute(sql`update ledger_accounts set frozen = ${frozen}
    where id in (select id from ledger_accounts where merchant_id = ${merchantId} and kind = 'WALLET' and owner_id = ${holderId} order by id for update)`);
}

// ── a wallet's postings, as its transaction list shows them ──

export interface WalletPostingFilter {
  type?: string | undefined;
  currency?: string | undefined;
  from: Date | null;
  before: Date | null;
}

function walletPostingWhere(merchantId: string, holderId: string, filter: WalletPostingFilter): SQL {
  const parts: SQL[] = [sql`la.merchant_id = ${merchantId}`, sql`la.kind = 'WALLET'`, sql`la.owner_id = ${holderId}`];
  if (filter.currency) parts.push(sql`la.currency = ${filter.currency}`);
  if (filter.type) parts.push(sql`p.type = ${filter.type}`);
  if (filter.from) parts.push(sql`p.created_at >= ${filter.from}`);
  if (filter.before) parts.push(sql`p.created_at < ${filter.before}`);
  return sql.join(parts, sql` and `);
}

export interface WalletPostingRow {
  id: string;
  transactionId: string;
  type: string;
  currency: string;
  amount: bigint;
  balanceAfter: bigint;
  createdAt: Date;
  reference: string;
  memo: string;
  reversesId: string | null;
}

const walletPostingOf = (row: Row): WalletPostingRow => ({
  id: String(row.id),
  transactionId: String(row.transaction_id),
  type: String(row.type),
  currency: String(row.currency),
  amount: big(row.amount),
  balanceAfter: big(row.balance_after),
  createdAt: new Date(row.created_at as string | Date),
  reference: String(row.reference),
  memo: String(row.memo),
  reversesId: row.reverses_id === null ? null : String(row.reverses_id),
});

const walletPostingColumns = sql`p.id::text as id, p.transaction_id, p.type, la.currency, p.amount::text as amount,
  p.balance_after::text as balance_after, p.created_at, t.reference, t.memo, t.reverses_id`;

/** The wallet's postings, newest first, one page, and how many there are in all. */
export async function pageWalletPostings(tx: Tx, merchantId: string, holderId: string, filter: WalletPostingFilter, limit: number, offset: number) {
  const where = walletPostingWhere(merchantId, holderId, filter);
  const [rows, total] = await Promise.all([
    rowsOf(
      tx.execute(sql`select ${walletPostingColumns}
        from ledger_postings p join ledger_accounts la on la.id = p.ledger_account_id join ledger_transactions t on t.id = p.transaction_id
        where ${where} order by p.created_at desc, p.id desc limit ${limit} offset ${offset}`),
    ),
    countWalletPostings(tx, merchantId, holderId, filter),
  ]);
  return { rows: rows.map(walletPostingOf), total };
}

export async function countWalletPostings(tx: Tx, merchantId: string, holderId: string, filter: WalletPostingFilter) {
  const [row] = await rowsOf(
    tx.execute(sql`select count(*)::int as n from ledger_postings p join ledger_accounts la on la.id = p.ledger_account_id
      where ${walletPostingWhere(merchantId, holderId, filter)}`),
  );
  return Number(row?.n ?? 0);
}

/** The next rows after a cursor (newest first), for exports that read the whole list in parts. */
export async function walletPostingsAfter(
  tx: Tx,
  merchantId: string,
  holderId: string,
  filter: WalletPostingFilter,
  after: { createdAt: Date; id: string } | null,
  limit: number,
) {
  const cursor = after ? sql` and (p.created_at, p.id) < (${after.createdAt}::timestamptz, ${after.id}::bigint)` : sql``;
  const rows = await rowsOf(
    tx.execute(sql`select ${walletPostingColumns}
      from ledger_postings p join ledger_accounts la on la.id = p.ledger_account_id join ledger_transactions t on t.id = p.transaction_id
      where ${walletPostingWhere(merchantId, holderId, filter)}${cursor} order by p.created_at desc, p.id desc limit ${limit}`),
  );
  return rows.map(walletPostingOf);
}
