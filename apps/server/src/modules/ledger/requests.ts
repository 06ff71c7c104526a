import { CURRENCIES, type Currency, WALLET_TRANSACTION_TYPES } from '@portal/contract/enums';
import { ErrorCode } from '@portal/contract/errors';
import { AppError } from '../../http/errors.ts';
import { type AccountRef, holderIdOf, isCustomerKind, type LedgerKind, refKey } from './accounts.ts';

/**
 * What callers ask of the ledger and what it answers, and the checks every request passes before
 * anything is read or written. Amounts are bigint minor units here, decimal strings in answers.
 */

/** Ten trillion in major units: more than any one operation should ever move. */
export const MAX_AMOUNT = 10n ** 15n;
/** The most holds one hold request makes at once: a batch of 500 cards holds two parts a card. */
export const MAX_HOLD_PARTS = 1000;
const KEY_PATTERN = /^[\x21-\x7e]{1,200}$/;
const TYPE_PATTERN = /^[A-Z][A-Z_]{1,39}$/;
const TEXT_MAX = 500;

/** A customer's account after the operation. */
export interface AccountAfter {
  kind: LedgerKind;
  ownerId: string;
  /** the customer who holds it (absent in answers stored before it was recorded) */
  holderId?: string;
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
  /** a hold split in parts (HoldRequest.parts): every part's hold, in the order asked; holdId is the first */
  holdIds?: string[];
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

export interface KeyedRequest {
  merchantId: string;
  /**
   * The idempotency key every operation carries (1–200 visible ASCII characters, unique per
   * merchant): the same key and request answer the first result again, moving nothing; another
   * request with it is refused. A refused operation leaves its key unused.
   */
  key: string;
}

export interface TransferRequest extends KeyedRequest {
  currency: Currency;
  type: string;
  lines: Line[];
  /** the customer the operation concerns; by default the one customer its lines touch */
  holderId?: string;
  reference?: string;
  memo?: string;
}

export interface WalletAmountRequest extends KeyedRequest {
  accountId: string;
  currency: Currency;
  amount: bigint;
  reference?: string;
  memo?: string;
}

export interface HoldRequest extends WalletAmountRequest {
  /**
   * Held as several holds at once, each settled on its own (e.g. a card's opening fee and its first
   * load): their amounts, adding up to `amount`. The wallet must afford the whole; one refusal holds none.
   */
  parts?: bigint[];
  /** the customer's account the money is held on: the wallet (default) or one of `accountId`'s cards */
  account?: AccountRef;
}

export interface PostHoldRequest extends KeyedRequest {
  holdId: string;
  type: string;
  /** where the held money goes; may add up to less than the hold, the rest is released */
  to: Array<{ account: AccountRef; amount: bigint }>;
  reference?: string;
  memo?: string;
}

export interface ReleaseHoldRequest extends KeyedRequest {
  holdId: string;
}

export interface ReverseRequest extends KeyedRequest {
  transactionId: string;
  memo?: string;
}

export interface FeeRequest extends WalletAmountRequest {
  type: 'OPEN_CARD' | 'DECLINED_FEE';
}

export interface CardTransferRequest extends WalletAmountRequest {
  cardId: string;
  /** the top-up fee, to the merchant's fee income, on top of the amount (TRANSFER_OUT_TO_CARD only) */
  fee?: bigint;
}

// ── checks ──

export function checkAmount(amount: bigint, { allowZero = false } = {}) {
  if (typeof amount !== 'bigint' || amount < 0n || (!allowZero && amount === 0n) || amount > MAX_AMOUNT) {
    throw new AppError(ErrorCode.AMOUNT_INVALID);
  }
}

export function checkKey(request: KeyedRequest) {
  if (typeof request.key !== 'string' || !KEY_PATTERN.test(request.key)) {
    throw new AppError(ErrorCode.VALIDATION, { message: '请求编号须为1–200个可见字符' });
  }
}

export function checkCurrency(currency: string): asserts currency is Currency {
  if (!(CURRENCIES as readonly string[]).includes(currency)) throw new AppError(ErrorCode.VALIDATION, { message: '不支持的币种' });
}

export function checkText(value: string | undefined) {
  const text = value ?? '';
  if ([...text].length > TEXT_MAX) throw new AppError(ErrorCode.VALIDATION, { message: `说明不能超过${TEXT_MAX}个字符` });
  return text;
}

const isWalletType = (type: string) => (WALLET_TRANSACTION_TYPES as readonly string[]).includes(type);

/** Merges the lines per account and checks that they balance and that the type fits a wallet. */
export function mergeLines(merchantId: string, type: string, lines: Line[]) {
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

/** The one customer the lines touch, or null when they touch none or several. */
export function soleHolder(lines: Line[]) {
  const holders = new Set(
    lines.flatMap((line) => {
      const holder = holderIdOf(line.account);
      return holder ? [holder] : [];
    }),
  );
  return holders.size === 1 ? ([...holders][0] as string) : null;
}

/** What moved: the sum of the lines that add money. */
export const amountMoved = (lines: Line[]) => lines.reduce((total, line) => (line.amount > 0n ? total + line.amount : total), 0n);

// ── what each request means, and what its key stands for (its fingerprint) ──
// A fingerprint holds the request as checked and normalised, so that two spellings of one request
// (lines in another order, an absent memo and an empty one) are the same request under one key.

/** A transfer request: its merged lines, texts, holder and amount. */
export function checkedTransfer(request: TransferRequest) {
  checkKey(request);
  checkCurrency(request.currency);
  const lines = mergeLines(request.merchantId, request.type, request.lines);
  const reference = checkText(request.reference);
  const memo = checkText(request.memo);
  const holderId = request.holderId ?? soleHolder(lines);
  const amount = amountMoved(lines);
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

export function checkedHold(request: HoldRequest) {
  checkKey(request);
  checkCurrency(request.currency);
  checkAmount(request.amount);
  const reference = checkText(request.reference);
  const parts = request.parts ?? [request.amount];
  if (!Array.isArray(parts) || parts.length === 0 || parts.length > MAX_HOLD_PARTS) throw new AppError(ErrorCode.AMOUNT_INVALID);
  for (const part of parts) checkAmount(part);
  if (request.account && (!isCustomerKind(request.account.kind) || holderIdOf(request.account) !== request.accountId)) {
    throw new Error('ledger: a hold is on an account of the customer it names');
  }
  if (parts.reduce((total, part) => total + part, 0n) !== request.amount) throw new AppError(ErrorCode.AMOUNT_INVALID);
  const fingerprint = {
    operation: 'hold',
    accountId: request.accountId,
    currency: request.currency,
    amount: request.amount,
    reference,
    ...(request.parts ? { parts: request.parts } : {}),
    ...(request.account ? { account: refKey(request.account, request.merchantId) } : {}),
  };
  return { reference, parts, fingerprint };
}

export function checkedPostHold(request: PostHoldRequest) {
  checkKey(request);
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
  return { reference, memo, fingerprint };
}

export function checkedRelease(request: ReleaseHoldRequest) {
  checkKey(request);
  return { fingerprint: { operation: 'release-hold', holdId: request.holdId } };
}

export function checkedReversal(request: ReverseRequest) {
  checkKey(request);
  const memo = checkText(request.memo);
  return { memo, fingerprint: { operation: 'reverse', transactionId: request.transactionId, memo } };
}
