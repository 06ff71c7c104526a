import { randomInt } from 'node:crypto';
import type { Currency } from '@portal/contract/enums';
import {
  type DepositInstructions,
  type DepositListQuery,
  type DepositNoticeBody,
  type DepositPage,
  type DepositReceipt,
  REFERENCE_ALPHABET,
  REFERENCE_BODY_LENGTH,
  REFERENCE_PREFIX,
  type ReceivingBank,
} from '@portal/contract/funding';
import { FundingErrorCode } from '@portal/contract/funding-errors';
import { toMinorUnits } from '@portal/contract/money';
import type { Tx } from '../../db/engine.ts';
import { AppError } from '../../http/errors.ts';
import { isUniqueViolation } from '../../lib/refused.ts';
import type { WalletAmountRequest } from '../ledger/service.ts';
import { type CreditDeps, creditPart } from './credit.ts';
import { depositNotices, depositView } from './notices.ts';
import { receiptFiles } from './receipts.ts';
import { statementPart } from './statement-import.ts';
import { type UsdtDeps, usdtPart } from './usdt.ts';
import { saveUsdtSettings } from './usdt-store.ts';
import { UsdtErrorCode } from '@portal/contract/usdt-errors';
import {
  accountsByReference,
  claimReference,
  depositForUpdate,
  depositPage,
  findDepositAccount,
  findReceipt,
  insertDeposit,
  insertReceipt,
  merchantNameOf,
  pendingDeposits,
  receiptInUse,
  referenceOf,
  saveDepositAccount,
  unmatchedLines,
  updateDeposit,
} from './store.ts';

/** Who files a notice or uploads a receipt: the signed-in member of the account. */
export interface FundingCaller {
  accountId: string;
  memberId: string;
}

export type { LineOutcome } from './statement-import.ts';
/** A deposit as the customer reads it (the console lists the same, with whose it is). */
export { depositView } from './notices.ts';

const newReference = () =>
  REFERENCE_PREFIX + Array.from({ length: REFERENCE_BODY_LENGTH }, () => REFERENCE_ALPHABET[randomInt(REFERENCE_ALPHABET.length)]).join('');

/**
 * Money in by bank transfer (growing-customers.md §3): the instructions, the customer's notices and
 * receipts, and the operator's side: the receiving accounts, crediting or rejecting a notice, and
 * importing a bank statement. Every credit is an ADMIN_RECHARGE_IN under a key of what it credits (the
 * notice, or the statement line's bank id), so a replay, a second import or a duplicate call moves
 * nothing again; what the account owes is collected in the same transaction.
 */
export function createFundingService(deps: CreditDeps & UsdtDeps & { receiptsFolder: string; importWorkers?: number }) {
  const { db, clock, messages } = deps;
  const credits = creditPart(deps);
  const usdt = usdtPart(deps, credits);
  const files = receiptFiles(deps.receiptsFolder);
  const statements = statementPart(deps);

  /** The account's reference, made on first use: a random code, tried again on the rare clash with another account's. */
  async function referenceFor(merchantId: string, accountId: string) {
    const existing = await referenceOf(db, accountId);
    if (existing) return existing;
    for (let attempt = 0; attempt < 8; attempt += 1) {
      const claimed = await claimReference(db, { merchantId, accountId, reference: newReference() }).catch((error: unknown) => {
        if (isUniqueViolation(error)) return false;
        throw error;
      });
      const now = await referenceOf(db, accountId);
      if (claimed || now) return now as string;
    }
    throw new Error('no free reference code after 8 tries');
  }

  const bankView = (row: Awaited<ReturnType<typeof findDepositAccount>>): ReceivingBank | null =>
    row ? { name: row.bankName, account_name: row.accountName, account_number: row.accountNumber, branch: row.branch, swift: row.swift } : null;

  async function confirmIn(tx: Tx, request: { merchantId: string; depositId: string; amount?: bigint }) {
    const deposit = await depositForUpdate(tx, request.merchantId, request.depositId);
    if (!deposit) throw new AppError(FundingErrorCode.DEPOSIT_NOT_FOUND);
    if (deposit.kind === 'USDT') throw new AppError(UsdtErrorCode.DEPOSIT_ON_CHAIN);
    if (deposit.status === 'CREDITED') return { row: deposit, replayed: true, collected: 0n };
    if (deposit.status !== 'PENDING') throw new AppError(FundingErrorCode.DEPOSIT_DECIDED, { params: { status: '已驳回' }, data: { status: deposit.status } });
    const { row, moved } = await credits.creditDeposit(tx, deposit, request.amount ?? deposit.amount, `deposit:${deposit.id}`);
    return { row, replayed: false, collected: moved.collected };
  }

  async function rejectIn(tx: Tx, request: { merchantId: string; depositId: string; reason: string }) {
    const deposit = await depositForUpdate(tx, request.merchantId, request.depositId);
    if (!deposit) throw new AppError(FundingErrorCode.DEPOSIT_NOT_FOUND);
    if (deposit.kind === 'USDT') throw new AppError(UsdtErrorCode.DEPOSIT_ON_CHAIN);
    if (deposit.status === 'REJECTED') return { row: deposit, replayed: true };
    if (deposit.status !== 'PENDING') throw new AppError(FundingErrorCode.DEPOSIT_DECIDED, { params: { status: '已入账' }, data: { status: deposit.status } });
    const row = await updateDeposit(tx, deposit.id, { status: 'REJECTED', reason: request.reason, decidedAt: clock.now() });
    await messages.post(tx, {
      merchantId: deposit.merchantId,
      accountId: deposit.accountId,
      type: 'DEPOSIT_REJECTED',
      status: 'fail',
      ...depositNotices.rejected({ amount: depositView(row).amount, currency: row.currency, reason: request.reason }),
    });
    return { row, replayed: false };
  }

  return {
    referenceFor,

    /** GET /wallet/deposit-instructions */
    async instructions(merchantId: string, accountId: string, currency: Currency): Promise<DepositInstructions> {
      const [reference, bank] = [await referenceFor(merchantId, accountId), await findDepositAccount(db, merchantId, currency)];
      return { currency, reference, bank: bankView(bank), usdt: await usdt.instructions(merchantId, accountId, currency) };
    },

    /** POST /wallet/deposits/receipts: the image checked by its bytes and stored under a name the server makes. */
    async uploadReceipt(merchantId: string, caller: FundingCaller, bytes: Buffer): Promise<DepositReceipt> {
      const stored = await files.store(merchantId, bytes);
      const row = await insertReceipt(db, {
        merchantId,
        accountId: caller.accountId,
        memberId: caller.memberId,
        contentType: stored.type,
        size: stored.size,
        fileName: stored.fileName,
      });
      return { id: row.id, content_type: stored.type, size: stored.size };
    },

    /** GET /wallet/deposits/receipts/:id: the account's own receipt only. */
    async receipt(merchantId: string, accountId: string, id: string) {
      const row = await findReceipt(db, merchantId, accountId, id);
      if (!row) throw new AppError(FundingErrorCode.RECEIPT_NOT_FOUND);
      return { type: row.contentType, bytes: await files.read(merchantId, row.fileName) };
    },

    /** POST /wallet/deposits: a PENDING notice, whether or not a receiving account is set. */
    async fileNotice(merchantId: string, caller: FundingCaller, body: DepositNoticeBody) {
      const transferredAt = new Date(body.transferred_at);
      if (transferredAt.getTime() > clock.now().getTime() + 5 * 60_000) throw new AppError(FundingErrorCode.TRANSFER_TIME_FUTURE);
      const receiptId = body.receipt_file_id ?? null;
      try {
        const row = await db.transaction(async (tx) => {
          if (receiptId) {
            if (!(await findReceipt(tx, merchantId, caller.accountId, receiptId))) throw new AppError(FundingErrorCode.RECEIPT_NOT_FOUND);
            if (await receiptInUse(tx, receiptId)) throw new AppError(FundingErrorCode.RECEIPT_USED);
          }
          return insertDeposit(tx, {
            merchantId,
            accountId: caller.accountId,
            memberId: caller.memberId,
            source: 'NOTICE',
            currency: body.currency,
            amount: toMinorUnits(body.amount),
            payerName: body.payer_name,
            transferredAt,
            receiptId,
          });
        });
        return depositView(row);
      } catch (error) {
        if (isUniqueViolation(error)) throw new AppError(FundingErrorCode.RECEIPT_USED);
        throw error;
      }
    },

    /** GET /wallet/deposits */
    async list(merchantId: string, accountId: string, query: DepositListQuery): Promise<DepositPage> {
      const { rows, total } = await depositPage(db, merchantId, accountId, { limit: query.page_size, offset: (query.page - 1) * query.page_size });
      return { items: rows.map(depositView), total, page: query.page, page_size: query.page_size };
    },

    /** merchant:set-deposit-account */
    setDepositAccount: (merchantId: string, currency: Currency, bank: ReceivingBank) =>
      saveDepositAccount(db, {
        merchantId,
        currency,
        bankName: bank.name,
        accountName: bank.account_name,
        accountNumber: bank.account_number,
        branch: bank.branch,
        swift: bank.swift,
      }),

    /**
     * deposit:confirm: credits a PENDING notice (its amount, or what the bank says came in) once. A
     * notice credited already answers as it stands with `replayed`; a rejected one is refused.
     */
    async confirm(request: { merchantId: string; depositId: string; amount?: bigint }) {
      const result = await db.transaction((tx) => confirmIn(tx, request));
      if (!result.replayed) await credits.deliverMails();
      return result;
    },

    /** deposit:confirm inside the caller's transaction (the console's, which takes the operator's code in it); the caller sends the e-mail after (deliverMails). */
    confirmWithin: confirmIn,

    /** deposit:reject: a PENDING notice REJECTED with the reason the customer reads; one rejected already answers as it stands. */
    reject: (request: { merchantId: string; depositId: string; reason: string }) => db.transaction((tx) => rejectIn(tx, request)),

    /** deposit:reject inside the caller's transaction. */
    rejectWithin: rejectIn,

    /** An operator's read of any receipt of the merchant (the console's). */
    async merchantReceipt(merchantId: string, id: string) {
      const row = await findReceipt(db, merchantId, null, id);
      if (!row) throw new AppError(FundingErrorCode.RECEIPT_NOT_FOUND);
      return { type: row.contentType, bytes: await files.read(merchantId, row.fileName) };
    },

    importStatement: statements.importStatement,

    /**
     * deposit:credit-line: an unmatched statement line credited to the account an operator names (by
     * its reference, or found by the caller), once, under the line's key; its e-mail then goes out.
     */
    async creditLine(request: Parameters<typeof statements.creditLine>[0]) {
      const outcome = await statements.creditLine(request);
      await credits.deliverMails();
      return outcome;
    },

    /** deposit:credit-line inside the caller's transaction; the caller sends the e-mail after (deliverMails). */
    creditLineWithin: statements.creditLineIn,

    /** The account of the merchant whose reference code this is (any case), or undefined. */
    async accountByReference(merchantId: string, reference: string) {
      const [row] = await accountsByReference(db, merchantId, [reference.trim().toUpperCase()]);
      return row;
    },

    /** What waits for a person: the pending notices and the unmatched statement lines. */
    async waiting(merchantId: string) {
      return { notices: (await pendingDeposits(db, merchantId)).map(depositView), lines: await unmatchedLines(db, merchantId) };
    },

    /** wallet:recharge: money in from the merchant's funding, what is owed collected from it in the same transaction. */
    recharge: (request: WalletAmountRequest) => db.transaction((tx) => credits.moneyIn(tx, request)),

    /** wallet:recharge inside the caller's transaction. */
    rechargeWithin: credits.moneyIn,

    deliverMails: credits.deliverMails,
    usdtAddress: usdt.addressFor,
    setUsdt: usdt.setUsdt,
    usdtSettings: usdt.usdtSettings,
    receiveGatewayEvent: usdt.receiveGatewayEvent,
    applyGatewayDeposit: usdt.applyEvent,
    merchantName: (merchantId: string) => merchantNameOf(db, merchantId),
  };
}

export type FundingService = ReturnType<typeof createFundingService>;

/** A merchant's USDT offer written inside the caller's transaction (the demo data seeds one per demo merchant). */
export const setUsdtOffer = (tx: Tx, merchantId: string, offer: { enabled: boolean; rateMicros: bigint; feeBps: number }) => saveUsdtSettings(tx, { merchantId, ...offer });
