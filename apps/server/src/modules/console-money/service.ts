import type { Currency } from '@portal/contract/enums';
import {
  type ConsoleDepositItem,
  type MoneyRequestAnswer,
  type MoneyRequestBody,
  type MoneyRequestItem,
  type MoneyRequestKind,
  type MoneyRequestPage,
  type MoneyRequestStatus,
  moneyPolicy,
  moneyRequestStatusLabel,
  type StatementImportAnswer,
  type consoleDepositQuery,
  type moneyRequestQuery,
} from '@portal/contract/console-money';
import { ConsoleMoneyErrorCode } from '@portal/contract/console-money-errors';
import { ErrorCode } from '@portal/contract/errors';
import { FundingErrorCode } from '@portal/contract/funding-errors';
import { fromMinorUnits, toMinorUnits } from '@portal/contract/money';
import { STATEMENT_COLUMNS } from '@portal/contract/funding';
import type { z } from 'zod';
import type { Db, Tx } from '../../db/engine.ts';
import { AppError } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { isUniqueViolation } from '../../lib/refused.ts';
import { depositView, type FundingService } from '../funding/service.ts';
import type { LedgerService, WalletAmountRequest } from '../ledger/service.ts';
import type { AuditActor, ConsoleCaller, ConsoleMerchant, OperatorService, SignedInOperator } from '../operators/service.ts';
import type { WalletService } from '../wallet/service.ts';
import {
  accountOfMerchant,
  depositPage,
  depositWithReference,
  findRequest,
  insertRequest,
  type MoneyRequestRow,
  requestByKey,
  referenceOfAccount,
  requestPage,
  saveThreshold,
  statementLine,
  thresholdOf,
  unmatchedLines,
  updateRequest,
} from './store.ts';

type Operator = SignedInOperator['operator'];

export interface ConsoleMoneyDeps {
  db: Db;
  clock: Clock;
  operators: Pick<OperatorService, 'withActionCode' | 'record'>;
  funding: Pick<
    FundingService,
    'confirmWithin' | 'rejectWithin' | 'creditLineWithin' | 'rechargeWithin' | 'importStatement' | 'merchantReceipt' | 'accountByReference' | 'deliverMails'
  >;
  ledger: Pick<LedgerService, 'within'>;
  wallet: Pick<WalletService, 'balances'>;
}

const consoleActor = (operator: Operator, caller: ConsoleCaller): AuditActor => ({ channel: 'CONSOLE', operator, ip: caller.ip });

/** A request's status as read: a pending one past its 24 hours is EXPIRED. */
const statusOf = (row: MoneyRequestRow, now: Date): MoneyRequestStatus =>
  row.status === 'PENDING_APPROVAL' && row.expiresAt.getTime() <= now.getTime() ? 'EXPIRED' : (row.status as MoneyRequestStatus);

/** What a request moves, to compare a replayed Idempotency-Key's body with the first. */
const sameRequest = (row: MoneyRequestRow, wanted: { kind: MoneyRequestKind; accountId: string; amount: bigint; currency: string; reason: string; bankTxnId: string | null }) =>
  row.kind === wanted.kind &&
  row.accountId === wanted.accountId &&
  row.amount === wanted.amount &&
  row.currency === wanted.currency &&
  row.reason === wanted.reason &&
  row.bankTxnId === wanted.bankTxnId;

/**
 * Money in the merchant's console (growing-customers.md §5): an operator decides the customers' top-up
 * notices and imports the bank's statement through the funding module's services (the CLI's own), and
 * moves money under four eyes: a recharge, deduction, adjustment or statement line credited by hand up
 * to the merchant's threshold is applied at once, above it waits until a second operator approves it
 * within 24 hours. Every call that moves money takes the operator's code inside the transaction that
 * moves it (operators.withActionCode), and writes its audit row there too.
 */
export function createConsoleMoneyService({ db, clock, operators, funding, ledger, wallet }: ConsoleMoneyDeps) {
  const threshold = async (tx: Tx, merchantId: string) => (await thresholdOf(tx, merchantId)) ?? moneyPolicy.defaultThreshold;

  const depositItem = (row: NonNullable<Awaited<ReturnType<typeof depositWithReference>>>, view: ConsoleDepositItem | null = null): ConsoleDepositItem => ({
    ...(view ?? depositView(row.deposit)),
    account_id: row.deposit.accountId,
    account_reference: row.reference,
  });

  /** The wallet must have `amount` available for money out; refused with what it has, before any code is taken. */
  async function requireAvailable(merchantId: string, accountId: string, currency: string, amount: bigint) {
    const balance = (await wallet.balances(merchantId, accountId)).find((row) => row.currency === currency);
    const available = balance?.available ?? '0.00';
    if (toMinorUnits(available) < amount) {
      throw new AppError(ConsoleMoneyErrorCode.BALANCE_SHORT, { params: { available, currency, amount: fromMinorUnits(amount) }, data: { available, currency } });
    }
  }

  /** Applies a request inside `tx` under its own key (once, whatever happens around it); answers the ledger's transaction when it names one. */
  async function apply(tx: Tx, row: MoneyRequestRow, reference: string | null, by: string): Promise<string | null> {
    const request: WalletAmountRequest = {
      merchantId: row.merchantId,
      accountId: row.accountId,
      currency: row.currency as Currency,
      amount: row.amount,
      key: `console-money:${row.id}`,
      reference: `console:${row.id}`,
      memo: row.reason,
    };
    try {
      switch (row.kind as MoneyRequestKind) {
        case 'RECHARGE':
          return (await funding.rechargeWithin(tx, request)).answer.transactionId;
        case 'DEDUCT':
          return (await ledger.within(tx).deduct(request)).answer.transactionId;
        case 'ADJUST':
          return (await ledger.within(tx).adjustOut(request)).answer.transactionId;
        case 'LINE_CREDIT':
          await funding.creditLineWithin(tx, {
            merchantId: row.merchantId,
            bankTxnId: row.bankTxnId as string,
            account: { accountId: row.accountId, reference: reference ?? '' },
            currency: row.currency as Currency,
            by,
          });
          return null;
      }
    } catch (error) {
      if (error instanceof AppError && error.code === ErrorCode.INSUFFICIENT_FUNDS) {
        const data = (error.data ?? {}) as { available?: string };
        const available = data.available ?? '0.00';
        throw new AppError(ConsoleMoneyErrorCode.BALANCE_SHORT, { params: { available, currency: row.currency, amount: fromMinorUnits(row.amount) }, data: { available, currency: row.currency } });
      }
      throw error;
    }
  }

  /** The refusals of an approval that need no code: read before the code is taken (and again under the row's lock). */
  function refuseDecision(row: MoneyRequestRow | undefined, operator: Operator, options: { approving: boolean }): asserts row is MoneyRequestRow {
    if (!row) throw new AppError(ConsoleMoneyErrorCode.REQUEST_NOT_FOUND);
    const status = statusOf(row, clock.now());
    if (status === 'EXPIRED') throw new AppError(ConsoleMoneyErrorCode.REQUEST_EXPIRED);
    if (status !== 'PENDING_APPROVAL') throw new AppError(ConsoleMoneyErrorCode.REQUEST_DECIDED, { params: { status: moneyRequestStatusLabel[status] }, data: { status } });
    if (options.approving && row.proposedBy === operator.id) throw new AppError(ConsoleMoneyErrorCode.OWN_REQUEST);
  }

  const auditValues = (row: MoneyRequestRow, reference: string | null) => ({
    request_id: row.id,
    kind: row.kind,
    account_id: row.accountId,
    reference,
    currency: row.currency,
    amount: fromMinorUnits(row.amount),
    reason: row.reason,
    ...(row.bankTxnId ? { bank_txn_id: row.bankTxnId } : {}),
  });

  /** A new request: refused before the code when it cannot be; applied at once up to the threshold. */
  async function propose(
    merchant: ConsoleMerchant,
    operator: Operator,
    wanted: { kind: MoneyRequestKind; accountId: string; amount: bigint; currency: Currency; reason: string; bankTxnId: string | null; reference: string | null },
    code: string,
    key: string,
    caller: ConsoleCaller,
  ): Promise<MoneyRequestAnswer> {
    const replay = async () => {
      const first = await requestByKey(db, merchant.id, operator.id, key);
      if (!first) return undefined;
      if (!sameRequest(first, wanted)) throw new AppError(ConsoleMoneyErrorCode.REQUEST_KEY_REUSED);
      return { id: first.id, status: statusOf(first, clock.now()) };
    };
    const replayed = await replay();
    if (replayed) return replayed;
    if (!(await accountOfMerchant(db, merchant.id, wanted.accountId))) throw new AppError(ConsoleMoneyErrorCode.ACCOUNT_NOT_FOUND);
    const limit = await threshold(db, merchant.id);
    const needsApproval = wanted.amount > limit;
    if (wanted.kind === 'DEDUCT' || wanted.kind === 'ADJUST') await requireAvailable(merchant.id, wanted.accountId, wanted.currency, wanted.amount);
    const actor = consoleActor(operator, caller);
    let answer: MoneyRequestAnswer;
    try {
      answer = await operators.withActionCode(merchant, operator, code, caller, async (tx) => {
        const now = clock.now();
        const row = await insertRequest(tx, {
          merchantId: merchant.id,
          kind: wanted.kind,
          status: 'PENDING_APPROVAL',
          accountId: wanted.accountId,
          currency: wanted.currency,
          amount: wanted.amount,
          reason: wanted.reason,
          bankTxnId: wanted.bankTxnId,
          idempotencyKey: key,
          needsApproval,
          proposedBy: operator.id,
          createdAt: now,
          expiresAt: new Date(now.getTime() + moneyPolicy.approvalWindowMs),
        });
        await operators.record(tx, merchant.id, actor, 'MONEY_PROPOSED', {
          target: row.id,
          after: { ...auditValues(row, wanted.reference), status: needsApproval ? 'PENDING_APPROVAL' : 'APPLIED', threshold: fromMinorUnits(limit) },
        });
        if (needsApproval) return { id: row.id, status: 'PENDING_APPROVAL' as const };
        const transactionId = await apply(tx, row, wanted.reference, operator.email);
        const applied = await updateRequest(tx, row.id, { status: 'APPLIED', ledgerTransactionId: transactionId, decidedAt: now });
        await operators.record(tx, merchant.id, actor, 'MONEY_APPLIED', {
          target: row.id,
          before: { status: 'NEW' },
          after: { ...auditValues(applied, wanted.reference), status: 'APPLIED', proposed_by: operator.email, approved_by: null, transaction_id: transactionId },
        });
        return { id: row.id, status: 'APPLIED' as const };
      });
    } catch (error) {
      // the same key sent twice at once: the first one's request answers both
      if (isUniqueViolation(error)) {
        const first = await replay();
        if (first) return first;
        if (wanted.bankTxnId) throw new AppError(ConsoleMoneyErrorCode.REQUEST_DECIDED, { params: { status: '已有一笔待审批的入账申请' }, data: { status: 'PENDING_APPROVAL' } });
      }
      throw error;
    }
    if (answer.status === 'APPLIED' && (wanted.kind === 'RECHARGE' || wanted.kind === 'LINE_CREDIT')) await funding.deliverMails();
    return answer;
  }

  const referenceOf = async (merchantId: string, accountId: string) => (await referenceOfAccount(db, merchantId, accountId)) ?? null;

  return {
    /** The merchant's four-eyes threshold, the same in each currency (minor units). */
    threshold: (merchantId: string) => threshold(db, merchantId),

    /** merchant:set --approval-threshold, audit-logged. */
    async setThreshold(merchantId: string, amount: bigint, actor: AuditActor) {
      return db.transaction(async (tx) => {
        const before = await threshold(tx, merchantId);
        await saveThreshold(tx, merchantId, amount, clock.now());
        await operators.record(tx, merchantId, actor, 'APPROVAL_THRESHOLD_SET', { before: { threshold: fromMinorUnits(before) }, after: { threshold: fromMinorUnits(amount) } });
        return { before, after: amount };
      });
    },

    async deposits(merchantId: string, query: z.output<typeof consoleDepositQuery>) {
      const { rows, total } = await depositPage(db, merchantId, query.status, { limit: query.page_size, offset: (query.page - 1) * query.page_size });
      return { items: rows.map((row) => depositItem(row)), total, page: query.page, page_size: query.page_size };
    },

    receipt: (merchantId: string, id: string) => funding.merchantReceipt(merchantId, id),

    /** Credits a pending notice with the operator's code, in one transaction with its audit row; the customer's open wallet hears it. */
    async confirmDeposit(merchant: ConsoleMerchant, operator: Operator, id: string, body: { totp: string; amount?: string | undefined }, caller: ConsoleCaller) {
      const found = await depositWithReference(db, merchant.id, id);
      if (!found) throw new AppError(FundingErrorCode.DEPOSIT_NOT_FOUND);
      if (found.deposit.status === 'REJECTED') throw new AppError(FundingErrorCode.DEPOSIT_DECIDED, { params: { status: '已驳回' }, data: { status: 'REJECTED' } });
      const amount = body.amount === undefined ? undefined : toMinorUnits(body.amount);
      const result = await operators.withActionCode(merchant, operator, body.totp, caller, async (tx) => {
        const done = await funding.confirmWithin(tx, { merchantId: merchant.id, depositId: id, ...(amount === undefined ? {} : { amount }) });
        if (!done.replayed) {
          await operators.record(tx, merchant.id, consoleActor(operator, caller), 'DEPOSIT_CONFIRMED', {
            target: id,
            before: { status: 'PENDING', amount: fromMinorUnits(found.deposit.amount) },
            after: { status: 'CREDITED', account_id: found.deposit.accountId, reference: found.reference, currency: done.row.currency, credited_amount: fromMinorUnits(done.row.creditedAmount ?? done.row.amount) },
          });
        }
        return done;
      });
      if (!result.replayed) await funding.deliverMails();
      return depositItem({ deposit: result.row, reference: found.reference });
    },

    async rejectDeposit(merchant: ConsoleMerchant, operator: Operator, id: string, reason: string, caller: ConsoleCaller) {
      const found = await depositWithReference(db, merchant.id, id);
      if (!found) throw new AppError(FundingErrorCode.DEPOSIT_NOT_FOUND);
      const result = await db.transaction(async (tx) => {
        const done = await funding.rejectWithin(tx, { merchantId: merchant.id, depositId: id, reason });
        if (!done.replayed) {
          await operators.record(tx, merchant.id, consoleActor(operator, caller), 'DEPOSIT_REJECTED', {
            target: id,
            before: { status: 'PENDING' },
            after: { status: 'REJECTED', account_id: found.deposit.accountId, reference: found.reference, reason },
          });
        }
        return done;
      });
      return depositItem({ deposit: result.row, reference: found.reference });
    },

    /**
     * deposit:import from the console: the operator's code is taken first, then the statement is
     * imported by the funding module (its lines in chunks of their own transactions, each line once),
     * and what it did is audit-logged. A file without the columns is refused before the code is taken.
     */
    async importStatement(merchant: ConsoleMerchant, operator: Operator, body: { currency: Currency; csv: string; totp: string }, caller: ConsoleCaller): Promise<StatementImportAnswer> {
      const header = (body.csv.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '').split(',').map((name) => name.trim().replace(/^"|"$/g, '').toLowerCase());
      const missing = STATEMENT_COLUMNS.filter((column) => !header.includes(column));
      if (missing.length > 0) throw new AppError(ConsoleMoneyErrorCode.STATEMENT_COLUMNS, { params: { columns: missing.join(', ') }, data: { missing } });
      await operators.withActionCode(merchant, operator, body.totp, caller, async () => undefined);
      const { bad, outcomes } = await funding.importStatement(merchant.id, body.currency, body.csv);
      await funding.deliverMails();
      const lineOf = (line: { line: number; bankTxnId: string; date: string; amount: bigint; payer: string; memo: string }) => ({
        line: line.line,
        bank_txn_id: line.bankTxnId,
        date: line.date,
        amount: fromMinorUnits(line.amount),
        payer: line.payer,
        memo: line.memo,
      });
      const answer: StatementImportAnswer = { credited: [], already: [], unmatched: [], bad: bad.map((row) => ({ line: row.line, bank_txn_id: row.bankTxnId, problem: row.problem })) };
      for (const outcome of outcomes) {
        if (outcome.outcome === 'credited') answer.credited.push({ ...lineOf(outcome.line), account_id: outcome.accountId, reference: outcome.reference });
        else if (outcome.outcome === 'already' || outcome.outcome === 'claimed') answer.already.push(lineOf(outcome.line));
        else if (outcome.outcome === 'unmatched') answer.unmatched.push({ ...lineOf(outcome.line), why: outcome.why.includes('several') ? '备注中含多个客户的参考号' : '备注中没有客户的参考号' });
        else answer.bad.push({ line: outcome.line.line, bank_txn_id: outcome.line.bankTxnId, problem: outcome.problem });
      }
      await db.transaction((tx) =>
        operators.record(tx, merchant.id, consoleActor(operator, caller), 'STATEMENT_IMPORTED', {
          after: { currency: body.currency, credited: answer.credited.length, already: answer.already.length, unmatched: answer.unmatched.length, bad: answer.bad.length },
        }),
      );
      return answer;
    },

    async unmatchedLines(merchantId: string) {
      const rows = await unmatchedLines(db, merchantId);
      return {
        items: rows.map(({ line, pendingId }) => ({
          bank_txn_id: line.bankTxnId,
          date: line.bookedOn,
          currency: line.currency as Currency,
          amount: fromMinorUnits(line.amount),
          payer: line.payer,
          memo: line.memo,
          imported_at: line.importedAt.toISOString(),
          pending_request_id: pendingId,
        })),
      };
    },

    /** An unmatched line credited by hand to the customer with that reference: a money request of its own (four eyes above the threshold). */
    async creditLine(merchant: ConsoleMerchant, operator: Operator, bankTxnId: string, body: { reference: string; totp: string }, key: string, caller: ConsoleCaller) {
      const account = await funding.accountByReference(merchant.id, body.reference);
      if (!account) throw new AppError(ConsoleMoneyErrorCode.REFERENCE_NOT_FOUND);
      const line = await statementLine(db, merchant.id, bankTxnId);
      if (!line) throw new AppError(FundingErrorCode.STATEMENT_LINE_NOT_FOUND);
      const replayed = await requestByKey(db, merchant.id, operator.id, key);
      if (!replayed && (line.status !== 'UNMATCHED' || line.depositId)) throw new AppError(FundingErrorCode.STATEMENT_LINE_CREDITED);
      return propose(
        merchant,
        operator,
        {
          kind: 'LINE_CREDIT',
          accountId: account.accountId,
          amount: line.amount,
          currency: line.currency as Currency,
          reason: `对账单入账：${line.bankTxnId}（付款人：${line.payer}）`,
          bankTxnId: line.bankTxnId,
          reference: account.reference,
        },
        body.totp,
        key,
        caller,
      );
    },

    /** POST /money-requests */
    async propose(merchant: ConsoleMerchant, operator: Operator, body: MoneyRequestBody, key: string, caller: ConsoleCaller) {
      return propose(
        merchant,
        operator,
        { kind: body.kind, accountId: body.account_id, amount: toMinorUnits(body.amount), currency: body.currency, reason: body.reason, bankTxnId: null, reference: await referenceOf(merchant.id, body.account_id) },
        body.totp,
        key,
        caller,
      );
    },

    /** A second operator's approval: applied at once, in the transaction that takes their code; refused to the proposer, twice, or after 24 hours. */
    async approve(merchant: ConsoleMerchant, operator: Operator, id: string, code: string, caller: ConsoleCaller): Promise<MoneyRequestAnswer> {
      const seen = await findRequest(db, merchant.id, id);
      refuseDecision(seen, operator, { approving: true });
      if (seen.kind === 'DEDUCT' || seen.kind === 'ADJUST') await requireAvailable(merchant.id, seen.accountId, seen.currency, seen.amount);
      const reference = await referenceOf(merchant.id, seen.accountId);
      const answer = await operators.withActionCode(merchant, operator, code, caller, async (tx) => {
        // under the row's lock: of two approvals at once, the second finds it applied
        const row = await findRequest(tx, merchant.id, id, { lock: true });
        refuseDecision(row, operator, { approving: true });
        const transactionId = await apply(tx, row, reference, operator.email);
        const applied = await updateRequest(tx, row.id, { status: 'APPLIED', approvedBy: operator.id, ledgerTransactionId: transactionId, decidedAt: clock.now() });
        await operators.record(tx, merchant.id, consoleActor(operator, caller), 'MONEY_APPLIED', {
          target: row.id,
          before: { status: 'PENDING_APPROVAL' },
          after: { ...auditValues(applied, reference), status: 'APPLIED', proposed_by: row.proposedBy, approved_by: operator.email, transaction_id: transactionId },
        });
        return { id: row.id, status: 'APPLIED' as const };
      });
      if (seen.kind === 'RECHARGE' || seen.kind === 'LINE_CREDIT') await funding.deliverMails();
      return answer;
    },

    /** Rejects a pending request (its proposer withdraws it so too); nothing moves. */
    async reject(merchant: ConsoleMerchant, operator: Operator, id: string, reason: string, caller: ConsoleCaller): Promise<MoneyRequestAnswer> {
      return db.transaction(async (tx) => {
        const row = await findRequest(tx, merchant.id, id, { lock: true });
        refuseDecision(row, operator, { approving: false });
        const rejected = await updateRequest(tx, row.id, { status: 'REJECTED', rejectedBy: operator.id, rejectionReason: reason, decidedAt: clock.now() });
        await operators.record(tx, merchant.id, consoleActor(operator, caller), 'MONEY_REJECTED', {
          target: row.id,
          before: { status: 'PENDING_APPROVAL' },
          after: { ...auditValues(rejected, null), status: 'REJECTED', rejection_reason: reason },
        });
        return { id: row.id, status: 'REJECTED' as const };
      });
    },

    async list(merchantId: string, query: z.output<typeof moneyRequestQuery>): Promise<MoneyRequestPage> {
      const now = clock.now();
      const [{ rows, total }, limit] = await Promise.all([
        requestPage(db, merchantId, { status: query.status, now }, { limit: query.page_size, offset: (query.page - 1) * query.page_size }),
        threshold(db, merchantId),
      ]);
      const items: MoneyRequestItem[] = rows.map(({ request: row, reference, proposerEmail, approverEmail, rejecterEmail }) => ({
        id: row.id,
        kind: row.kind as MoneyRequestKind,
        status: statusOf(row, now),
        account_id: row.accountId,
        account_reference: reference,
        currency: row.currency as Currency,
        amount: fromMinorUnits(row.amount),
        reason: row.reason,
        bank_txn_id: row.bankTxnId,
        proposed_by: { id: row.proposedBy, email: proposerEmail ?? '' },
        approved_by: row.approvedBy ? { id: row.approvedBy, email: approverEmail ?? '' } : null,
        rejected_by: row.rejectedBy ? { id: row.rejectedBy, email: rejecterEmail ?? '' } : null,
        rejection_reason: row.rejectionReason,
        transaction_id: row.ledgerTransactionId,
        needs_approval: row.needsApproval,
        created_at: row.createdAt.toISOString(),
        expires_at: row.expiresAt.toISOString(),
        decided_at: row.decidedAt?.toISOString() ?? null,
      }));
      return { items, total, page: query.page, page_size: query.page_size, threshold: fromMinorUnits(limit) };
    },
  };
}

export type ConsoleMoneyService = ReturnType<typeof createConsoleMoneyService>;
