import { randomUUID } from 'node:crypto';
import { ErrorCode } from '@portal/contract/errors';
import { fromMinorUnits } from '@portal/contract/money';
import type { Tx } from '../../db/engine.ts';
import { AppError } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { fingerprintOf, replayOf } from '../../lib/keyed-call.ts';
import { type AccountRef, type HouseKind, holderIdOf, houseShardFor, isCustomerKind, ownerIdOf, refKey, shardOf } from './accounts.ts';
import { type AccountKey, ensureAccounts, type LockedAccount } from './account-store.ts';
import { type BatchWrite, claimKeys, lockCustomerRows, lockHouseRows, readKeys, writeBatch } from './batch-store.ts';
import type { Announce, BalanceWatcher, WatchedChange } from './movement.ts';
import { checkedTransfer, type OperationAnswer, type OperationResult, type TransferRequest } from './requests.ts';

/**
 * Many transfers of one merchant and currency written together inside the caller's transaction, with
 * the rules of one (movement.ts) kept for each: its key claimed once (a key seen before answers its
 * first result, or a conflict), the customer's accounts locked in id order and then the merchant's,
 * nothing below zero available, nothing leaving a frozen wallet, each posting's balance_after the
 * account's balance right after it, and the watched balances handed to the watcher, each movement on
 * its own. The transfers apply in the order given, as if one after another; one that is refused
 * changes nothing and leaves its key unused, and the others go on. Five statements whatever the count,
 * each of the same text whatever the count (the values travel as arrays).
 */

/** One transfer's outcome: its result, or the refusal that moved nothing. */
export type BatchOutcome = { result: OperationResult; refused?: undefined } | { result?: undefined; refused: AppError };

/** A bigint column's most. */
const BIGINT_MAX = 2n ** 63n - 1n;
/** How many customers one balance notification names (a NOTIFY payload stays below 8,000 bytes). */
const NOTIFY_HOLDERS = 100;

interface State {
  id: string;
  kind: string;
  ownerId: string;
  holderId: string | null;
  balance: bigint;
  held: bigint;
  frozen: boolean;
  watchBelow: bigint | null;
}

const withShard = (ref: AccountRef, shard: number): AccountRef =>
  ref.kind === 'WALLET' || ref.kind === 'CARD' || ref.shard !== undefined ? ref : { kind: ref.kind, shard };

export async function transferBatch(
  tx: Tx,
  clock: Clock,
  requests: TransferRequest[],
  { announce, watch }: { announce?: Announce; watch?: BalanceWatcher },
): Promise<BatchOutcome[]> {
  const outcomes: BatchOutcome[] = new Array(requests.length);
  if (requests.length === 0) return outcomes;
  const { merchantId, currency } = requests[0] as TransferRequest;
  const at = clock.now();
  const checked: Array<{ n: number; request: TransferRequest; plan: ReturnType<typeof checkedTransfer>; hash: string }> = [];
  const seen = new Set<string>();
  for (const [n, request] of requests.entries()) {
    if (request.merchantId !== merchantId || request.currency !== currency) throw new Error('ledger: a batch is of one merchant and one currency');
    if (seen.has(request.key)) throw new Error(`ledger: a batch names the key ${request.key} twice`);
    seen.add(request.key);
    try {
      const plan = checkedTransfer(request);
      const shard = houseShardFor(plan.holderId);
      plan.lines = plan.lines.map((line) => ({ ...line, account: withShard(line.account, shard) }));
      checked.push({ n, request, plan, hash: fingerprintOf(plan.fingerprint) });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      outcomes[n] = { refused: error };
    }
  }

  // the keys: those claimed before answer their first result (or a conflict) and move nothing
  const claimed = await claimKeys(tx, merchantId, checked.map((c) => ({ key: c.request.key, requestHash: c.hash })));
  const earlier = await readKeys(tx, merchantId, checked.filter((c) => !claimed.has(c.request.key)).map((c) => c.request.key));
  const ours = checked.filter((c) => {
    if (claimed.has(c.request.key)) return true;
    const first = earlier.get(c.request.key);
    if (!first) throw new Error(`idempotency key ${c.request.key} conflicted but cannot be read`);
    try {
      const answer = replayOf({ fingerprint: first.requestHash, answer: first.answer as OperationAnswer }, c.hash, () => new AppError(ErrorCode.IDEMPOTENCY_CONFLICT, { data: { key: c.request.key } }));
      outcomes[c.n] = { result: { answer, replayed: true } };
    } catch (error) {
      outcomes[c.n] = { refused: error as AppError };
    }
    return false;
  });
  if (ours.length === 0) return outcomes;

  // the accounts: the customer's locked in id order (made first when one does not exist yet), then the merchant's
  const keyOf = new Map<string, AccountKey>();
  for (const c of ours) {
    for (const line of c.plan.lines) {
      const ref = line.account;
      keyOf.set(refKey(ref, merchantId), { kind: ref.kind, ownerId: ownerIdOf(ref, merchantId), holderId: holderIdOf(ref), shard: shardOf(ref) });
    }
  }
  const customerKeys = [...keyOf.values()].filter((key) => isCustomerKind(key.kind));
  const houseKeys = [...keyOf.values()].filter((key) => !isCustomerKind(key.kind)).map((key) => ({ kind: key.kind as HouseKind, shard: key.shard }));
  let locked = await lockCustomerRows(tx, merchantId, currency, customerKeys);
  let house = await lockHouseRows(tx, merchantId, currency, houseKeys);
  if (locked.length < customerKeys.length || house.length < houseKeys.length) {
    await ensureAccounts(tx, merchantId, currency, [...keyOf.values()]);
    locked = await lockCustomerRows(tx, merchantId, currency, customerKeys);
    house = await lockHouseRows(tx, merchantId, currency, houseKeys);
  }
  const states = new Map<string, State>();
  for (const row of locked as LockedAccount[]) states.set(`${row.kind}:${row.ownerId}:0`, { ...row });
  for (const row of house) states.set(`${row.kind}:${merchantId}:${row.shard}`, { id: row.id, kind: row.kind, ownerId: merchantId, holderId: null, balance: row.balance, held: 0n, frozen: false, watchBelow: null });
  for (const key of keyOf.values()) {
    const state = states.get(`${key.kind}:${key.ownerId}:${key.shard}`);
    if (!state || state.holderId !== key.holderId) throw new Error(`ledger: ${key.kind} ${key.ownerId} is not an account of customer ${key.holderId} at merchant ${merchantId}`);
  }

  const write: BatchWrite = { merchantId, currency, at, transactions: [], balances: [], postings: [], answers: [], released: [], notify: [] };
  const watched: WatchedChange[] = [];
  const moved = new Set<State>();
  for (const c of ours) {
    const lines = c.plan.lines.map((line) => ({ line, state: states.get(refKey(line.account, merchantId)) as State }));
    const refusal = (() => {
      for (const { line, state } of lines) {
        const balance = state.balance + line.amount;
        if (balance > BIGINT_MAX || balance < -BIGINT_MAX) return new AppError(ErrorCode.BALANCE_LIMIT);
        if (!isCustomerKind(state.kind) || line.amount >= 0n) continue;
        if (state.kind === 'WALLET' && state.frozen) return new AppError(ErrorCode.WALLET_FROZEN);
        if (balance - state.held < 0n) {
          const available = fromMinorUnits(state.balance - state.held);
          return new AppError(state.kind === 'WALLET' ? ErrorCode.INSUFFICIENT_FUNDS : ErrorCode.CARD_BALANCE_INSUFFICIENT, { params: { available, currency }, data: { currency, available } });
        }
      }
      return null;
    })();
    if (refusal) {
      outcomes[c.n] = { refused: refusal };
      write.released.push(c.request.key);
      continue;
    }
    const transactionId = randomUUID();
    write.transactions.push({ id: transactionId, type: c.request.type, holderId: c.plan.holderId, reference: c.plan.reference, memo: c.plan.memo });
    const accounts: OperationAnswer['accounts'] = [];
    for (const { line, state } of lines) {
      const before = state.balance - state.held;
      state.balance += line.amount;
      moved.add(state);
      write.postings.push({ transactionId, accountId: state.id, amount: line.amount, balanceAfter: state.balance, type: c.request.type });
      if (!isCustomerKind(state.kind) || state.holderId === null) continue;
      const after = state.balance - state.held;
      accounts.push({ kind: state.kind as 'WALLET', ownerId: state.ownerId, holderId: state.holderId, balance: fromMinorUnits(state.balance), held: fromMinorUnits(state.held), available: fromMinorUnits(after) });
      if (state.watchBelow !== null && before !== after && (before < state.watchBelow || after < state.watchBelow)) {
        watched.push({ kind: state.kind as WatchedChange['kind'], ownerId: state.ownerId, holderId: state.holderId, currency, before, after });
      } else if (state.kind === 'WALLET' && before !== after) {
        watched.push({ kind: 'WALLET', ownerId: state.ownerId, holderId: state.holderId, currency, before, after, unwatched: true });
      }
    }
    const answer: OperationAnswer = { operation: 'transfer', transactionId, holdId: null, type: c.request.type, amount: fromMinorUnits(c.plan.amount), currency, createdAt: at.toISOString(), accounts };
    write.answers.push({ key: c.request.key, answer });
    outcomes[c.n] = { result: { answer, replayed: false } };
  }
  write.balances = [...moved].map((state) => ({ id: state.id, balance: state.balance }));
  const holders = [...new Set([...moved].flatMap((state) => (isCustomerKind(state.kind) && state.holderId ? [state.holderId] : [])))];
  for (let start = 0; announce && start < holders.length; start += NOTIFY_HOLDERS) {
    const notification = announce(merchantId, holders.slice(start, start + NOTIFY_HOLDERS));
    if (notification) write.notify.push(notification);
  }
  await writeBatch(tx, write);
  if (watch && watched.length > 0) await watch(tx, merchantId, watched);
  return outcomes;
}
