import { randomUUID } from 'node:crypto';
import { CURRENCIES, type Currency, WALLET_TRANSACTION_TYPES } from '@portal/contract/enums';
import { ErrorCode } from '@portal/contract/errors';
import { fromMinorUnits } from '@portal/contract/money';
import type { Db, Tx } from '../../db/engine.ts';
import { AppError } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { sha256 } from '../../lib/crypto.ts';
import { createEventPublisher } from '../events/publisher.ts';
import { announceBalances } from './balances.ts';
import {
  type AccountRef,
  cardAccountOf,
  type HouseKind,
  holderIdOf,
  houseShardFor,
  isCustomerKind,
  type LedgerKind,
  MERCHANT_FEE_INCOME,
  MERCHANT_FUNDING,
  ownerIdOf,
  refKey,
  shardOf,
  walletOf,
} from './accounts.ts';
import {
  type AccountKey,
  auditViolations,
  claimIdempotencyKey,
  ensureAccounts,
  findReversal,
  hasCode,
  ledgerSize,
  lockCustomerAccounts,
  lockHold,
  lockHouseAccounts,
  lockTransaction,
  moveSingleAccount,
  postingsOf,
  releaseHoldRow,
  type WritePlan,
  writeOperation,
} from './store.ts';

/**
 * The ledger: every movement of money is one balanced set of postings in one database transaction
 * (README "Money"). Amounts are bigint minor units here, decimal strings in answers.
 *
 * Each operation comes in two forms: `ledger(db, clock).x(request)` runs it in a transaction of its
 * own; `xInTx(tx, clock, request)` runs it inside the caller's transaction (as a savepoint, so a
 * refusal undoes only this operation), for callers that change their own rows with it, such as
 * opening a card. A refusal throws an AppError and changes nothing.
 */

/** Ten trillion in major units: more than any one operation should ever move. */
export const MAX_AMOUNT = 10n ** 15n;
const KEY_PATTERN = /^[\x21-\x7e]{1,200}$/;
const TYPE_PATTERN = /^[A-Z][A-Z_]{1,39}$/;
const TEXT_MAX = 500;

/** A customer's account after the operation. */
export interface AccountAfter {
  kind: LedgerKind;
  ownerId: string;
  balance: string;
  held: string;
  available: string;
}

/** What an operation answers, and what a repeated request with its key answers again, unchanged. */
export interface OperationAnswer {
  operation: 'transfer' | 'hold' | 'post-hold' | 'release-hold' | 'reverse';
  /** the transaction written; null for a hold or its release, which move no money */
  transactionId: string | null;
  holdId: string | null;
  type: string | null;
  currency: Currency;
  /** what moved (or was held, or released), positive */
  amount: string;
  createdAt: string;
  accounts: AccountAfter[];
}

export interface OperationResult {
  answer: OperationAnswer;
  /** true when the key had been used by the same request before: nothing moved this time */
  replayed: boolean;
}

export interface Line {
  account: AccountRef;
  /** signed minor units added to the account's balance */
  amount: bigint;
}

interface Common {
  merchantId: string;
  /**
   * The idempotency key every operation carries (1–200 visible ASCII characters, unique per
   * merchant): the same key and request answer the first result again, moving nothing; another
   * request with it is refused. A refused operation leaves its key unused.
   */
  key: string;
}

export interface TransferRequest extends Common {
  currency: Currency;
  type: string;
  lines: Line[];
  /** the customer the operation concerns; by default the one customer its lines touch */
  holderId?: string;
  reference?: string;
  memo?: string;
}

export interface WalletAmountRequest extends Common {
  accountId: string;
  currency: Currency;
  amount: bigint;
  reference?: string;
  memo?: string;
}

export interface HoldRequest extends WalletAmountRequest {}

export interface PostHoldRequest extends Common {
  holdId: string;
  type: string;
  /** where the held money goes; may add up to less than the hold, the rest is released */
  to: Array<{ account: AccountRef; amount: bigint }>;
  reference?: string;
  memo?: string;
}

export interface ReleaseHoldRequest extends Common {
  holdId: string;
}

export interface ReverseRequest extends Common {
  transactionId: string;
  memo?: string;
}

// ── checks of the request ──

function checkAmount(amount: bigint, { allowZero = false } = {}) {
  if (typeof amount !== 'bigint' || amount < 0n || (!allowZero && amount === 0n) || amount > MAX_AMOUNT) {
    throw new AppError(ErrorCode.AMOUNT_INVALID);
  }
}

function checkCommon(request: Common) {
  if (typeof request.key !== 'string' || !KEY_PATTERN.test(request.key)) {
    throw new AppError(ErrorCode.VALIDATION, { message: '请求编号须为1–200个可见字符' });
  }
}

function checkCurrency(currency: string): asserts currency is Currency {
  if (!(CURRENCIES as readonly string[]).includes(currency)) throw new AppError(ErrorCode.VALIDATION, { message: '不支持的币种' });
}

function checkText(value: string | undefined) {
  const text = value ?? '';
  if ([...text].length > TEXT_MAX) throw new AppError(ErrorCode.VALIDATION, { message: `说明不能超过${TEXT_MAX}个字符` });
  return text;
}

const isWalletType = (type: string) => (WALLET_TRANSACTION_TYPES as readonly string[]).includes(type);

/** Merges the lines per account and checks that they balance and that the type fits a wallet. */
function mergeLines(merchantId: string, type: string, lines: Line[]) {
  if (!TYPE_PATTERN.test(type)) throw new Error(`ledger: not a transaction type: ${type}`);
  const merged = new Map<string, Line>();
  for (const line of lines) {
    if (typeof line.amount !== 'bigint') throw new Error('ledger: amounts are bigint minor units');
    const key = refKey(line.account, merchantId);
    const before = merged.get(key);
    merged.set(key, { account: line.account, amount: (before?.amount ?? 0n) + line.amount });
  }
  const result = [...merged.values()].filter((line) => line.amount !== 0n);
  const sum = result.reduce((total, line) => total + line.amount, 0n);
  if (sum !== 0n) throw new Error(`ledger: the lines of a ${type} sum to ${sum}, not zero`);
  if (result.length < 2) throw new AppError(ErrorCode.AMOUNT_INVALID);
  for (const line of result) {
    const size = line.amount < 0n ? -line.amount : line.amount;
    if (size > MAX_AMOUNT) throw new AppError(ErrorCode.AMOUNT_INVALID);
  }
  if (result.some((line) => line.account.kind === 'WALLET') && !isWalletType(type)) {
    throw new Error(`ledger: ${type} is not a wallet transaction type, yet it moves a wallet`);
  }
  return result;
}

const hashOf = (request: unknown) =>
  sha256(JSON.stringify(request, (_key, value) => (typeof value === 'bigint' ? value.toString() : value)));

function soleHolder(lines: Line[]) {
  const holders = new Set(lines.flatMap((line) => {
    const holder = holderIdOf(line.account);
    return holder ? [holder] : [];
  }));
  return holders.size === 1 ? ([...holders][0] as string) : null;
}

/** The merchant's account in a given shard, unless the line names one already (a reversal does). */
function withShard(ref: AccountRef, shard: number): AccountRef {
  if (ref.kind === 'WALLET' || ref.kind === 'CARD' || ref.shard !== undefined) return ref;
  return { kind: ref.kind, shard };
}

// ── the one way money moves ──

interface Movement {
  merchantId: string;
  currency: Currency;
  at: Date;
  /** balance changes (a transaction's lines) */
  lines: Line[];
  /** changes of held amounts on customer accounts */
  heldChanges: Array<{ account: AccountRef; amount: bigint }>;
  transaction: WritePlan['transaction'];
  holdInsert?: { id: string; account: AccountRef; amount: bigint; reference: string };
  holdSettle?: WritePlan['holdSettle'];
  key: string;
  answer: Omit<OperationAnswer, 'accounts' | 'currency' | 'createdAt'>;
}

/**
 * Thrown when an account of the operation does not exist yet: the attempt rolls back and runs again,
 * creating the missing accounts before it locks anything. Only a first use of an account pays this.
 */
class MissingAccounts extends Error {}

/**
 * Locks the customer's accounts in id order, checks that none would go below zero available and
 * that no money leaves a frozen wallet, then writes it all. With `ensure`, it first creates the
 * accounts (and wallet rows) that do not exist yet.
 */
async function move(tx: Tx, movement: Movement, ensure: boolean): Promise<OperationAnswer> {
  // the merchant's side goes to the shard of the customer the operation concerns
  const shard = houseShardFor(movement.transaction?.holderId ?? null);
  const m = { ...movement, lines: movement.lines.map((line) => ({ ...line, account: withShard(line.account, shard) })) };
  const refs = new Map<string, AccountRef>();
  for (const item of [...m.lines, ...m.heldChanges]) refs.set(refKey(item.account, m.merchantId), item.account);
  if (m.holdInsert) refs.set(refKey(m.holdInsert.account, m.merchantId), m.holdInsert.account);
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
  if (m.holdInsert) {
    const key = refKey(m.holdInsert.account, m.merchantId);
    heldDelta.set(key, (heldDelta.get(key) ?? 0n) + m.holdInsert.amount);
  }
  // money leaves an account when its balance falls or its available does
  const leaves = (key: string) => {
    const dBalance = balanceDelta.get(key) ?? 0n;
    return dBalance < 0n || dBalance - (heldDelta.get(key) ?? 0n) < 0n;
  };

  const customerKeys = keys.filter((key) => isCustomerKind(key.kind));
  const locked = customerKeys.length ? await lockCustomerAccounts(tx, m.merchantId, m.currency, customerKeys) : [];
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
    accounts.push({
      kind: row.kind,
      ownerId: row.ownerId,
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
  const holdAccount = m.holdInsert ? byKey.get(refKey(m.holdInsert.account, m.merchantId)) : undefined;
  const { houseRows } = await writeOperation(tx, {
    merchantId: m.merchantId,
    currency: m.currency,
    at: m.at,
    transaction: m.transaction,
    customer,
    house,
    ...(m.holdInsert && holdAccount
      ? {
          holdInsert: {
            id: m.holdInsert.id,
            ledgerAccountId: holdAccount.id,
            holderId: holdAccount.holderId,
            amount: m.holdInsert.amount,
            reference: m.holdInsert.reference,
          },
        }
      : {}),
    ...(m.holdSettle ? { holdSettle: m.holdSettle } : {}),
    idempotency: { key: m.key, answer },
  });
  if (houseRows !== house.length) {
    // a missing merchant account would unbalance the books: this attempt rolls back
    if (!ensure) throw new MissingAccounts();
    throw new Error(`ledger: merchant accounts missing: ${house.map((h) => h.kind).join(', ')}`);
  }
  return answer;
}

/** Runs work under an idempotency key: a key seen before answers its first result, or a conflict. */
async function keyed(tx: Tx, merchantId: string, key: string, request: unknown, work: () => Promise<OperationAnswer>): Promise<OperationResult> {
  const requestHash = hashOf(request);
  const earlier = await claimIdempotencyKey(tx, merchantId, key, requestHash);
  if (earlier) {
    if (earlier.requestHash !== requestHash) throw new AppError(ErrorCode.IDEMPOTENCY_CONFLICT, { data: { key } });
    return { answer: earlier.answer as OperationAnswer, replayed: true };
  }
  return { answer: await work(), replayed: false };
}

// ── operations, inside a given transaction ──

/** What a transfer request means: its merged lines, texts, holder, amount and what its key stands for. */
function planTransfer(request: TransferRequest) {
  checkCommon(request);
  checkCurrency(request.currency);
  const lines = mergeLines(request.merchantId, request.type, request.lines);
  const reference = checkText(request.reference);
  const memo = checkText(request.memo);
  const holderId = request.holderId ?? soleHolder(lines);
  const amount = lines.reduce((total, line) => (line.amount > 0n ? total + line.amount : total), 0n);
  const fingerprint = {
    operation: 'transfer',
    currency: request.currency,
    type: request.type,
    lines: lines.map((line) => [refKey(line.account, request.merchantId), line.amount]).sort(),
    holderId,
    reference,
    memo,
  };
  return { lines, reference, memo, holderId, amount, fingerprint };
}

async function transferIn(tx: Tx, clock: Clock, request: TransferRequest, ensure: boolean): Promise<OperationResult> {
  const { lines, reference, memo, holderId, amount, fingerprint } = planTransfer(request);
  return keyed(tx, request.merchantId, request.key, fingerprint, () => {
    const transactionId = randomUUID();
    return move(tx, {
      merchantId: request.merchantId,
      currency: request.currency,
      at: clock.now(),
      lines,
      heldChanges: [],
      transaction: { id: transactionId, type: request.type, holderId, reference, memo, reversesId: null },
      key: request.key,
      answer: { operation: 'transfer', transactionId, holdId: null, type: request.type, amount: fromMinorUnits(amount) },
    }, ensure);
  });
}

function planHold(request: HoldRequest) {
  checkCommon(request);
  checkCurrency(request.currency);
  checkAmount(request.amount);
  const reference = checkText(request.reference);
  const fingerprint = { operation: 'hold', accountId: request.accountId, currency: request.currency, amount: request.amount, reference };
  return { reference, fingerprint };
}

async function holdIn(tx: Tx, clock: Clock, request: HoldRequest, ensure: boolean): Promise<OperationResult> {
  const { reference, fingerprint } = planHold(request);
  return keyed(tx, request.merchantId, request.key, fingerprint, () => {
    const holdId = randomUUID();
    return move(tx, {
      merchantId: request.merchantId,
      currency: request.currency,
      at: clock.now(),
      lines: [],
      heldChanges: [],
      holdInsert: { id: holdId, account: walletOf(request.accountId), amount: request.amount, reference },
      transaction: undefined,
      key: request.key,
      answer: { operation: 'hold', transactionId: null, holdId, type: null, amount: fromMinorUnits(request.amount) },
    }, ensure);
  });
}

// ── the same operations as one statement each, when they move one customer account ──
// Each answers null when it wrote nothing (a refusal, a first use, a key seen before): the
// step-by-step operation then runs and gives the precise answer.

const keyOf = (key: string, fingerprint: unknown) => ({ key, requestHash: hashOf(fingerprint) });

async function transferAtOnce(db: Db, clock: Clock, request: TransferRequest): Promise<OperationResult | null> {
  const { lines, reference, memo, holderId, amount, fingerprint } = planTransfer(request);
  const customer = lines.filter((line) => isCustomerKind(line.account.kind));
  const house = lines.filter((line) => !isCustomerKind(line.account.kind));
  const line = customer[0];
  const other = house[0];
  if (customer.length !== 1 || house.length !== 1 || !line || !other) return null;
  const at = clock.now();
  const transactionId = randomUUID();
  const answer = await moveSingleAccount(db, {
    merchantId: request.merchantId,
    currency: request.currency,
    at,
    account: { kind: line.account.kind, ownerId: ownerIdOf(line.account, request.merchantId), holderId: holderIdOf(line.account) as string },
    balanceDelta: line.amount,
    heldDelta: 0n,
    leaves: line.account.kind === 'WALLET' && line.amount < 0n,
    transaction: { id: transactionId, type: request.type, holderId, reference, memo },
    house: { kind: other.account.kind as HouseKind, shard: (other.account as { shard?: number }).shard ?? houseShardFor(holderId), delta: other.amount },
    key: keyOf(request.key, fingerprint),
    head: { operation: 'transfer', transactionId, holdId: null, type: request.type, amount: fromMinorUnits(amount), createdAt: at.toISOString() },
  });
  return answer ? { answer: answer as OperationAnswer, replayed: false } : null;
}

async function holdAtOnce(db: Db, clock: Clock, request: HoldRequest): Promise<OperationResult | null> {
  const { reference, fingerprint } = planHold(request);
  const at = clock.now();
  const holdId = randomUUID();
  const answer = await moveSingleAccount(db, {
    merchantId: request.merchantId,
    currency: request.currency,
    at,
    account: { kind: 'WALLET', ownerId: request.accountId, holderId: request.accountId },
    balanceDelta: 0n,
    heldDelta: request.amount,
    leaves: true,
    holdInsert: { id: holdId, amount: request.amount, reference },
    key: keyOf(request.key, fingerprint),
    head: { operation: 'hold', transactionId: null, holdId, type: null, amount: fromMinorUnits(request.amount), createdAt: at.toISOString() },
  });
  return answer ? { answer: answer as OperationAnswer, replayed: false } : null;
}

async function releaseAtOnce(db: Db, clock: Clock, request: ReleaseHoldRequest): Promise<OperationResult | null> {
  checkCommon(request);
  const at = clock.now();
  const answer = await releaseHoldRow(db, {
    merchantId: request.merchantId,
    holdId: request.holdId,
    at,
    key: keyOf(request.key, releaseFingerprint(request)),
    head: { operation: 'release-hold', transactionId: null, holdId: request.holdId, type: null, amount: '', createdAt: at.toISOString() },
  });
  return answer ? { answer: answer as OperationAnswer, replayed: false } : null;
}

/** The account a hold is on, named as the ledger names accounts. */
function holdAccountRef(hold: { accountKind: LedgerKind; accountOwnerId: string; holderId: string }): AccountRef {
  if (hold.accountKind === 'CARD') return cardAccountOf(hold.accountOwnerId, hold.holderId);
  return walletOf(hold.holderId);
}

async function settledHold(tx: Tx, merchantId: string, holdId: string) {
  const hold = await lockHold(tx, merchantId, holdId);
  if (!hold) throw new AppError(ErrorCode.HOLD_NOT_FOUND);
  if (hold.status !== 'ACTIVE') throw new AppError(ErrorCode.HOLD_SETTLED, { data: { status: hold.status } });
  return hold;
}

async function postHoldIn(tx: Tx, clock: Clock, request: PostHoldRequest, ensure: boolean): Promise<OperationResult> {
  checkCommon(request);
  const reference = checkText(request.reference);
  const memo = checkText(request.memo);
  for (const target of request.to) checkAmount(target.amount);
  const fingerprint = {
    operation: 'post-hold',
    holdId: request.holdId,
    type: request.type,
    to: request.to.map((target) => [refKey(target.account, request.merchantId), target.amount]).sort(),
    reference,
    memo,
  };
  return keyed(tx, request.merchantId, request.key, fingerprint, async () => {
    const hold = await settledHold(tx, request.merchantId, request.holdId);
    const source = holdAccountRef(hold);
    const posted = request.to.reduce((total, target) => total + target.amount, 0n);
    if (posted > hold.amount) throw new RangeError(`ledger: posting ${posted} from a hold of ${hold.amount}`);
    const lines = mergeLines(request.merchantId, request.type, [{ account: source, amount: -posted }, ...request.to]);
    const transactionId = randomUUID();
    return move(tx, {
      merchantId: request.merchantId,
      currency: hold.currency as Currency,
      at: clock.now(),
      lines,
      heldChanges: [{ account: source, amount: -hold.amount }],
      transaction: { id: transactionId, type: request.type, holderId: hold.holderId, reference: reference || hold.reference, memo, reversesId: null },
      holdSettle: { id: hold.id, status: 'POSTED' },
      key: request.key,
      answer: { operation: 'post-hold', transactionId, holdId: hold.id, type: request.type, amount: fromMinorUnits(posted) },
    }, ensure);
  });
}

const releaseFingerprint = (request: ReleaseHoldRequest) => ({ operation: 'release-hold', holdId: request.holdId });

async function releaseHoldIn(tx: Tx, clock: Clock, request: ReleaseHoldRequest, ensure: boolean): Promise<OperationResult> {
  checkCommon(request);
  const fingerprint = releaseFingerprint(request);
  return keyed(tx, request.merchantId, request.key, fingerprint, async () => {
    const hold = await settledHold(tx, request.merchantId, request.holdId);
    const source = holdAccountRef(hold);
    return move(tx, {
      merchantId: request.merchantId,
      currency: hold.currency as Currency,
      at: clock.now(),
      lines: [],
      heldChanges: [{ account: source, amount: -hold.amount }],
      transaction: undefined,
      holdSettle: { id: hold.id, status: 'RELEASED' },
      key: request.key,
      answer: { operation: 'release-hold', transactionId: null, holdId: hold.id, type: null, amount: fromMinorUnits(hold.amount) },
    }, ensure);
  });
}

async function reverseIn(tx: Tx, clock: Clock, request: ReverseRequest, ensure: boolean): Promise<OperationResult> {
  checkCommon(request);
  const memo = checkText(request.memo);
  const fingerprint = { operation: 'reverse', transactionId: request.transactionId, memo };
  return keyed(tx, request.merchantId, request.key, fingerprint, async () => {
    const original = await lockTransaction(tx, request.merchantId, request.transactionId);
    if (!original) throw new AppError(ErrorCode.LEDGER_TRANSACTION_NOT_FOUND);
    if (original.reversesId !== null || (await findReversal(tx, original.id)) !== null) throw new AppError(ErrorCode.ALREADY_REVERSED);
    const lines: Line[] = (await postingsOf(tx, original.id)).map((posting) => {
      const account: AccountRef =
        posting.kind === 'WALLET'
          ? walletOf(posting.ownerId)
          : posting.kind === 'CARD'
            ? cardAccountOf(posting.ownerId, posting.holderId as string)
            : ({ kind: posting.kind, shard: posting.shard } as AccountRef);
      return { account, amount: -posting.amount };
    });
    const amount = lines.reduce((total, line) => (line.amount > 0n ? total + line.amount : total), 0n);
    const transactionId = randomUUID();
    return move(tx, {
      merchantId: request.merchantId,
      currency: original.currency as Currency,
      at: clock.now(),
      lines,
      heldChanges: [],
      transaction: {
        id: transactionId,
        type: original.type,
        holderId: original.holderId,
        reference: original.reference,
        memo: memo || '冲正',
        reversesId: original.id,
      },
      key: request.key,
      answer: { operation: 'reverse', transactionId, holdId: null, type: original.type, amount: fromMinorUnits(amount) },
    }, ensure);
  });
}

// ── the wallet's own movements, as the seven transaction types of spec §3 ──

const walletLines = (request: WalletAmountRequest, sign: 1n | -1n, other: AccountRef): Line[] => [
  { account: walletOf(request.accountId), amount: sign * request.amount },
  { account: other, amount: -sign * request.amount },
];

function walletTransfer(type: string, sign: 1n | -1n, other: AccountRef) {
  return (request: WalletAmountRequest): TransferRequest => {
    checkAmount(request.amount);
    return {
      merchantId: request.merchantId,
      key: request.key,
      currency: request.currency,
      type,
      holderId: request.accountId,
      lines: walletLines(request, sign, other),
      ...(request.reference !== undefined ? { reference: request.reference } : {}),
      ...(request.memo !== undefined ? { memo: request.memo } : {}),
    };
  };
}

/** ADMIN_RECHARGE_IN: the merchant funds the wallet. */
const rechargeRequest = walletTransfer('ADMIN_RECHARGE_IN', 1n, MERCHANT_FUNDING);
/** ADMIN_RECHARGE_OUT: the merchant takes money back out of the wallet. */
const deductRequest = walletTransfer('ADMIN_RECHARGE_OUT', -1n, MERCHANT_FUNDING);
/** ADJUST_OUT: an adjustment out of the wallet, back to the merchant. */
const adjustOutRequest = walletTransfer('ADJUST_OUT', -1n, MERCHANT_FUNDING);

export interface FeeRequest extends WalletAmountRequest {
  type: 'OPEN_CARD' | 'DECLINED_FEE';
}
/** A fee from the wallet to the merchant's fee income (OPEN_CARD, DECLINED_FEE). */
const feeRequest = (request: FeeRequest) => walletTransfer(request.type, -1n, MERCHANT_FEE_INCOME)(request);

export interface CardTransferRequest extends WalletAmountRequest {
  cardId: string;
  /** the top-up fee, to the merchant's fee income, on top of the amount (TRANSFER_OUT_TO_CARD only) */
  fee?: bigint;
}

/** TRANSFER_OUT_TO_CARD: amount to the card, plus its fee to fee income, all from the wallet. */
function toCardRequest(request: CardTransferRequest): TransferRequest {
  checkAmount(request.amount);
  const fee = request.fee ?? 0n;
  checkAmount(fee, { allowZero: true });
  return {
    merchantId: request.merchantId,
    key: request.key,
    currency: request.currency,
    type: 'TRANSFER_OUT_TO_CARD',
    holderId: request.accountId,
    lines: [
      { account: walletOf(request.accountId), amount: -(request.amount + fee) },
      { account: cardAccountOf(request.cardId, request.accountId), amount: request.amount },
      { account: MERCHANT_FEE_INCOME, amount: fee },
    ],
    reference: request.reference ?? `card:${request.cardId}`,
    ...(request.memo !== undefined ? { memo: request.memo } : {}),
  };
}

/** TRANSFER_IN_FROM_CARD: the card's money back to the wallet (a withdrawal, or a deleted card). */
function fromCardRequest(request: CardTransferRequest): TransferRequest {
  checkAmount(request.amount);
  return {
    merchantId: request.merchantId,
    key: request.key,
    currency: request.currency,
    type: 'TRANSFER_IN_FROM_CARD',
    holderId: request.accountId,
    lines: [
      { account: cardAccountOf(request.cardId, request.accountId), amount: -request.amount },
      { account: walletOf(request.accountId), amount: request.amount },
    ],
    reference: request.reference ?? `card:${request.cardId}`,
    ...(request.memo !== undefined ? { memo: request.memo } : {}),
  };
}

type Operation<Q> = (tx: Tx, clock: Clock, request: Q, ensure: boolean) => Promise<OperationResult>;

/** A balance past what a bigint holds (SQLSTATE 22003) is the catalogue's refusal: nothing moved. */
const balanceLimitOr = (error: unknown) => (hasCode(error, '22003') ? new AppError(ErrorCode.BALANCE_LIMIT) : error);

/**
 * Runs an operation in a transaction that `open` begins; when an account it needs does not exist
 * yet, that attempt rolls back and one more creates the accounts first.
 */
async function attempt<Q>(open: (work: (tx: Tx) => Promise<OperationResult>) => Promise<OperationResult>, clock: Clock, operation: Operation<Q>, request: Q) {
  let ensure = false;
  for (let tries = 1; ; tries++) {
    try {
      return await open((tx) => operation(tx, clock, request, ensure));
    } catch (error) {
      if (error instanceof MissingAccounts && !ensure) {
        ensure = true;
        continue;
      }
      // the one deadlock possible: a one-statement try holds the account and waits for the key this
      // attempt took first; PostgreSQL ends one of the two, and the loser runs again
      if (hasCode(error, '40P01') && tries < 3) continue;
      throw balanceLimitOr(error);
    }
  }
}

// ── inside the caller's transaction (a savepoint: a refusal undoes this operation only) ──

const inTx =
  <Q>(operation: Operation<Q>) =>
  (tx: Tx, clock: Clock, request: Q) =>
    attempt((work) => (tx as Db).transaction((inner) => work(inner)), clock, operation, request);

export const transferInTx = inTx(transferIn);
export const holdFundsInTx = inTx(holdIn);
export const postHoldInTx = inTx(postHoldIn);
export const releaseHoldInTx = inTx(releaseHoldIn);
export const reverseInTx = inTx(reverseIn);
export const transferToCardInTx = async (tx: Tx, clock: Clock, request: CardTransferRequest) => transferInTx(tx, clock, toCardRequest(request));
export const transferFromCardInTx = async (tx: Tx, clock: Clock, request: CardTransferRequest) => transferInTx(tx, clock, fromCardRequest(request));
export const chargeFeeInTx = async (tx: Tx, clock: Clock, request: FeeRequest) => transferInTx(tx, clock, feeRequest(request));
export const rechargeInTx = async (tx: Tx, clock: Clock, request: WalletAmountRequest) => transferInTx(tx, clock, rechargeRequest(request));

/**
 * Every operation, each in a database transaction of its own. One that moves a single customer
 * account (a recharge, deduction, adjustment or fee, a hold, a release) first tries to be one
 * statement, so the account's row is locked only while that statement runs; anything else, and any
 * such try that wrote nothing, runs step by step (lock in id order, check, write).
 */
export function ledger(db: Db, clock: Clock) {
  /**
   * Once an operation has committed, the open portal tabs of its customers hear what they hold now.
   * The money has moved whatever happens here: a tab that misses the event reads it again when shown.
   */
  const announced =
    <Q extends Common>(operation: (request: Q) => Promise<OperationResult>) =>
    async (request: Q) => {
      const result = await operation(request).catch((error: unknown) => {
        throw balanceLimitOr(error);
      });
      if (!result.replayed && result.answer.accounts.length > 0) {
        await announceBalances(createEventPublisher(), db, request.merchantId, result.answer.accounts).catch(() => {});
      }
      return result;
    };
  const run =
    <Q>(operation: Operation<Q>) =>
    (request: Q) =>
      attempt((work) => db.transaction((tx) => work(tx)), clock, operation, request);
  const stepByStep = run(transferIn);
  const transfer = announced(async (request: TransferRequest) => (await transferAtOnce(db, clock, request)) ?? stepByStep(request));
  const holdStepByStep = run(holdIn);
  const releaseStepByStep = run(releaseHoldIn);
  return {
    transfer,
    recharge: async (request: WalletAmountRequest) => transfer(rechargeRequest(request)),
    deduct: async (request: WalletAmountRequest) => transfer(deductRequest(request)),
    adjustOut: async (request: WalletAmountRequest) => transfer(adjustOutRequest(request)),
    chargeFee: async (request: FeeRequest) => transfer(feeRequest(request)),
    transferToCard: async (request: CardTransferRequest) => transfer(toCardRequest(request)),
    transferFromCard: async (request: CardTransferRequest) => transfer(fromCardRequest(request)),
    holdFunds: announced(async (request: HoldRequest) => (await holdAtOnce(db, clock, request)) ?? holdStepByStep(request)),
    postHold: announced(run(postHoldIn)),
    releaseHold: announced(async (request: ReleaseHoldRequest) => (await releaseAtOnce(db, clock, request)) ?? releaseStepByStep(request)),
    reverse: announced(run(reverseIn)),
  };
}
export type Ledger = ReturnType<typeof ledger>;

export { CARD_NETWORK, cardAccountOf, MERCHANT_FEE_INCOME, MERCHANT_FUNDING, walletOf } from './accounts.ts';

/** Checks every invariant of the books; sound books answer no violations. */
export async function auditLedger(db: Db) {
  const violations = await auditViolations(db);
  return { violations, size: await ledgerSize(db) };
}
