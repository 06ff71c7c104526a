import type { Currency } from '@portal/contract/enums';
import { ErrorCode } from '@portal/contract/errors';
import { fromMinorUnits } from '@portal/contract/money';
import type { Tx } from '../../db/engine.ts';
import { AppError } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { type AccountRef, type HouseKind, holderIdOf, houseShardFor, isCustomerKind, ownerIdOf, refKey, shardOf } from './accounts.ts';
import type { AccountAfter, Line, OperationAnswer, OperationResult } from './requests.ts';
import { type KeyClaim, KeyTaken } from './idempotency.ts';
import { type AccountKey, ensureAccounts, lockCustomerAccounts, lockHouseAccounts } from './account-store.ts';
import { claimIdempotencyKey } from './idempotency-store.ts';
import { hasCode, type WritePlan, writeOperation } from './operation-store.ts';

/**
 * The one way money moves: every operation (a transfer, a hold, its posting or release, a
 * reversal) describes itself as a Movement, and `move` checks and writes it inside the operation's
 * transaction. The rules of the ledger (enough available, nothing leaves a frozen wallet, the lock
 * order) are written here and nowhere else.
 */

export interface Movement {
  merchantId: string;
  currency: Currency;
  at: Date;
  /** balance changes (a transaction's lines) */
  lines: Line[];
  /** changes of held amounts on customer accounts */
  heldChanges: Array<{ account: AccountRef; amount: bigint }>;
  transaction: WritePlan['transaction'];
  /** holds taken (all on one account) */
  holdInserts?: Array<{ id: string; account: AccountRef; amount: bigint; reference: string }>;
  holdSettle?: WritePlan['holdSettle'];
  key: string;
  /** the key to claim where the accounts are locked (idempotency.ts keyedRun `claimAtLock`); null: claimed already */
  claim?: KeyClaim | null;
  answer: Omit<OperationAnswer, 'accounts' | 'currency' | 'createdAt'>;
}

/**
 * How an operation's customers hear that their money moved: the notification (channel and payload)
 * its write statement sends, for the customers who hold the accounts it moved; null for none.
 */
export type Announce = (merchantId: string, holderIds: string[]) => { channel: string; payload: string } | null;

/**
 * How an operation is written: `ensure` creates the accounts it needs first (a second attempt);
 * `announce`, see Announce; `savepoint: false` when it runs in the caller's transaction without a
 * savepoint to roll back to (service.ts `within(tx, { savepoint: false })`), so what it wrote before a
 * refusal must be undone by hand, and nothing may be tried again after a database error.
 */
export interface Step {
  ensure: boolean;
  announce?: Announce | undefined;
  savepoint?: boolean;
  watch?: BalanceWatcher | undefined;
}

/** A customer account's available balance before and after a movement, handed to the watcher. */
export interface WatchedChange {
  kind: 'WALLET' | 'CARD';
  ownerId: string;
  holderId: string;
  currency: Currency;
  before: bigint;
  after: bigint;
  /** a wallet's change outside every watch: for those who hear of every wallet change, not the watcher */
  unwatched?: true;
}

/**
 * Who hears of balances that someone watches (ledger_watches): called inside the movement's
 * transaction, after it is written, with the watched accounts whose available changed and that are,
 * before or after, below their highest watch. Most movements touch no watched zone and call nothing.
 */
export type BalanceWatcher = (tx: Tx, merchantId: string, changes: WatchedChange[]) => Promise<void>;

/**
 * Thrown when an account of the operation does not exist yet: the attempt rolls back and runs again,
 * creating the missing accounts before it locks anything. Only a first use of an account pays this.
 */
class MissingAccounts extends Error {}

/** The merchant's account in a given shard, unless the line names one already (a reversal does). */
function withShard(ref: AccountRef, shard: number): AccountRef {
  if (ref.kind === 'WALLET' || ref.kind === 'CARD' || ref.shard !== undefined) return ref;
  return { kind: ref.kind, shard };
}

/**
 * Locks the customer's accounts in id order, checks that none would go below zero available and
 * that no money leaves a frozen wallet, then writes it all in one statement that updates the
 * merchant's (hot) rows last. With `ensure`, it first creates the accounts (and wallet rows) that do
 * not exist yet.
 */
export async function move(tx: Tx, movement: Movement, { ensure, announce, savepoint, watch }: Step): Promise<OperationAnswer> {
  // the merchant's side goes to the shard of the customer the operation concerns
  const shard = houseShardFor(movement.transaction?.holderId ?? null);
  const m = { ...movement, lines: movement.lines.map((line) => ({ ...line, account: withShard(line.account, shard) })) };
  const refs = new Map<string, AccountRef>();
  for (const item of [...m.lines, ...m.heldChanges]) refs.set(refKey(item.account, m.merchantId), item.account);
  for (const hold of m.holdInserts ?? []) refs.set(refKey(hold.account, m.merchantId), hold.account);
  const keys: AccountKey[] = [...refs.values()].map((ref) => ({
    kind: ref.kind,
    ownerId: ownerIdOf(ref, m.merchantId),
    holderId: holderIdOf(ref),
    shard: shardOf(ref),
  }));
  if (ensure) await ensureAccounts(tx, m.merchantId, m.currency, keys);

  const balanceDelta = new Map<string, bigint>();
  const heldDelta = new Map<string, bigint>();
  for (const line of m.lines) {
    const key = refKey(line.account, m.merchantId);
    balanceDelta.set(key, (balanceDelta.get(key) ?? 0n) + line.amount);
  }
  for (const change of m.heldChanges) {
    const key = refKey(change.account, m.merchantId);
    heldDelta.set(key, (heldDelta.get(key) ?? 0n) + change.amount);
  }
  for (const hold of m.holdInserts ?? []) {
    const key = refKey(hold.account, m.merchantId);
    heldDelta.set(key, (heldDelta.get(key) ?? 0n) + hold.amount);
  }
  // money leaves an account when its available falls. Posting a hold does not lower available: that
  // money was set aside before, for an operation accepted then (a card being issued, an authorisation),
  // so a freeze that came after stops new operations, not the completion of accepted ones
  const leaves = (key: string) => (balanceDelta.get(key) ?? 0n) - (heldDelta.get(key) ?? 0n) < 0n;

  const customerKeys = keys.filter((key) => isCustomerKind(key.kind));
  const claim = m.claim ?? null;
  // the key is claimed with the lock; an operation with no customer account claims it alone
  if (claim && customerKeys.length === 0 && !(await claimIdempotencyKey(tx, m.merchantId, claim.key, claim.requestHash))) throw new KeyTaken();
  const { accounts: locked, claimed } = customerKeys.length
    ? await lockCustomerAccounts(tx, m.merchantId, m.currency, customerKeys, claim)
    : { accounts: [], claimed: null };
  if (claimed === false) throw new KeyTaken();
  if (claim && claimed) claim.claimed = true;
  const byKey = new Map(locked.map((row) => [`${row.kind}:${row.ownerId}:0`, row]));
  for (const key of customerKeys) {
    const row = byKey.get(`${key.kind}:${key.ownerId}:0`);
    if (!row && !ensure) throw new MissingAccounts();
    if (!row || row.holderId !== key.holderId) {
      throw new Error(`ledger: ${key.kind} ${key.ownerId} is not an account of customer ${key.holderId} at merchant ${m.merchantId}`);
    }
  }

  const customer: WritePlan['customer'] = [];
  const accounts: AccountAfter[] = [];
  const watched: WatchedChange[] = [];
  for (const row of locked) {
    const key = `${row.kind}:${row.ownerId}:0`;
    const dBalance = balanceDelta.get(key) ?? 0n;
    const dHeld = heldDelta.get(key) ?? 0n;
    const balance = row.balance + dBalance;
    const held = row.held + dHeld;
    if (row.kind === 'WALLET' && leaves(key) && row.frozen) {
      throw new AppError(ErrorCode.WALLET_FROZEN);
    }
    if (held < 0n) throw new Error(`ledger: ${key} would hold less than nothing`);
    if (balance - held < 0n) {
      const available = fromMinorUnits(row.balance - row.held);
      throw new AppError(row.kind === 'WALLET' ? ErrorCode.INSUFFICIENT_FUNDS : ErrorCode.CARD_BALANCE_INSUFFICIENT, {
        params: { available, currency: m.currency },
        data: { currency: m.currency, available },
      });
    }
    customer.push({ id: row.id, balance, held, posting: dBalance });
    const before = row.balance - row.held;
    const after = balance - held;
    if (row.watchBelow !== null && before !== after && (before < row.watchBelow || after < row.watchBelow)) {
      watched.push({ kind: row.kind as WatchedChange['kind'], ownerId: row.ownerId, holderId: row.holderId, currency: m.currency, before, after });
    } else if (row.kind === 'WALLET' && before !== after) {
      // a wallet's every change is heard too (its webhook), marked as outside any watch
      watched.push({ kind: 'WALLET', ownerId: row.ownerId, holderId: row.holderId, currency: m.currency, before, after, unwatched: true });
    }
    accounts.push({
      kind: row.kind,
      ownerId: row.ownerId,
      holderId: row.holderId,
      balance: fromMinorUnits(balance),
      held: fromMinorUnits(held),
      available: fromMinorUnits(balance - held),
    });
  }

  const house: WritePlan['house'] = m.lines
    .filter((line) => !isCustomerKind(line.account.kind))
    .map((line) => ({ kind: line.account.kind as HouseKind, shard: shardOf(line.account), delta: line.amount }));
  if (house.length > 1) await lockHouseAccounts(tx, m.merchantId, m.currency, house);

  const answer: OperationAnswer = { ...m.answer, currency: m.currency, createdAt: m.at.toISOString(), accounts };
  const holdInserts = (m.holdInserts ?? []).map((hold) => {
    const account = byKey.get(refKey(hold.account, m.merchantId));
    if (!account) throw new Error(`ledger: no account for hold ${hold.id}`);
    return { id: hold.id, ledgerAccountId: account.id, holderId: account.holderId, amount: hold.amount, reference: hold.reference };
  });
  const { houseRows } = await writeOperation(tx, {
    merchantId: m.merchantId,
    currency: m.currency,
    at: m.at,
    transaction: m.transaction,
    customer,
    house,
    holdInserts,
    ...(m.holdSettle ? { holdSettle: m.holdSettle } : {}),
    idempotency: { key: m.key, answer },
    notify: announce?.(m.merchantId, [...new Set(locked.map((row) => row.holderId))]) ?? null,
  });
  if (houseRows !== house.length) {
    // a missing merchant account would unbalance the books: this attempt rolls back (without a
    // savepoint nothing can be rolled back but the caller's whole transaction: it must fail)
    if (!ensure && savepoint !== false) throw new MissingAccounts();
    throw new Error(`ledger: merchant accounts missing: ${house.map((h) => h.kind).join(', ')}`);
  }
  if (watch && watched.length > 0) await watch(tx, m.merchantId, watched);
  return answer;
}

/**
 * An operation written inside a given transaction. `ensure`: create the accounts it needs first
 * (the second attempt, after the first found one missing).
 */
export type StepOperation<Q> = (tx: Tx, clock: Clock, request: Q, step: Step) => Promise<OperationResult>;

/** A balance past what a bigint holds (SQLSTATE 22003) is the catalogue's refusal: nothing moved. */
const balanceLimitOr = (error: unknown) => (hasCode(error, '22003') ? new AppError(ErrorCode.BALANCE_LIMIT) : error);

/**
 * Runs an operation in a transaction that `open` begins (a transaction of its own, or a savepoint
 * in the caller's); when an account it needs does not exist yet, that attempt rolls back and one
 * more creates the accounts first. Alone, an operation takes its locks in one order (key, hold or
 * transaction, customers by id, the merchant's rows) and cannot deadlock; inside a caller's
 * transaction that already holds other rows it can, and PostgreSQL then cancels one side: that
 * attempt rolls back to its savepoint and runs again, twice at most.
 */
export async function runOperation<Q>(
  open: (work: (tx: Tx) => Promise<OperationResult>) => Promise<OperationResult>,
  clock: Clock,
  operation: StepOperation<Q>,
  request: Q,
  announce?: Announce,
  savepoint = true,
  watch?: BalanceWatcher,
): Promise<OperationResult> {
  let ensure = false;
  for (let deadlocks = 0; ; ) {
    try {
      return await open((tx) => operation(tx, clock, request, { ensure, announce, savepoint, watch }));
    } catch (error) {
      // (nothing was written before an account was found missing: an attempt without a savepoint may go again too)
      if (error instanceof MissingAccounts && !ensure) {
        ensure = true;
        continue;
      }
      // a deadlock ended the transaction's statement: only a savepoint lets this operation go again
      if (savepoint && hasCode(error, '40P01') && deadlocks < 2) {
        deadlocks += 1;
        continue;
      }
      throw balanceLimitOr(error);
    }
  }
}
