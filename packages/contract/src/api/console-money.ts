import {
  approveBody,
  confirmDepositBody,
  consoleDepositItem,
  consoleDepositPage,
  consoleDepositQuery,
  creditLineBody,
  idParams,
  lineParams,
  moneyRequestAnswer,
  moneyRequestBody,
  moneyRequestPage,
  moneyRequestQuery,
  rejectDepositBody,
  rejectRequestBody,
  statementImportAnswer,
  statementImportBody,
  unmatchedLineList,
} from '../console-money.ts';
import type { ConsoleAction } from '../console.ts';
import { type Call, defineCalls, type OperatorCaller } from './call.ts';

/** A signed-in operator whose role may take `action` (as api/console.ts `operator`, which this table is part of). */
const operator = (action: ConsoleAction): OperatorCaller => ({ operator: ['FULL'], action });
const tags = ['console'];

/**
 * The console's money calls (below /api/console/v1, in `consoleCalls`): deposits and their receipts,
 * the bank statement, and money requests under four eyes. Every call that moves money takes the
 * operator's TOTP code again.
 */
export const consoleMoneyCalls = defineCalls({
  deposits: {
    method: 'GET',
    path: '/deposits',
    query: consoleDepositQuery,
    answer: consoleDepositPage,
    summary: "The customers' bank deposits (notices and statement credits), newest first",
    tags,
    who: operator('deposits.read'),
  },
  depositReceipt: {
    method: 'GET',
    path: '/deposits/receipts/:id',
    params: idParams,
    raw: 'file',
    summary: 'The receipt image a customer attached to a top-up notice',
    tags,
    who: operator('deposits.read'),
  },
  confirmDeposit: {
    method: 'POST',
    path: '/deposits/:id/confirm',
    params: idParams,
    body: confirmDepositBody,
    answer: consoleDepositItem,
    summary: "Credits a pending top-up notice (its amount, or what the bank says came in) to the customer's wallet once; with the operator's TOTP code",
    tags,
    who: operator('deposits.decide'),
  },
  rejectDeposit: {
    method: 'POST',
    path: '/deposits/:id/reject',
    params: idParams,
    body: rejectDepositBody,
    answer: consoleDepositItem,
    summary: 'Rejects a pending top-up notice with the reason the customer reads',
    tags,
    who: operator('deposits.decide'),
  },
  importStatement: {
    method: 'POST',
    path: '/deposits/statements',
    body: statementImportBody,
    answer: statementImportAnswer,
    summary:
      'Imports a bank statement (CSV bank_txn_id,date,amount,currency,payer,memo): a line whose memo names one customer’s reference is credited once, a line seen before is 已导入, the rest are kept for a person; with the operator’s TOTP code',
    tags,
    who: operator('deposits.decide'),
  },
  unmatchedLines: {
    method: 'GET',
    path: '/deposits/lines',
    answer: unmatchedLineList,
    summary: 'The statement lines that matched no customer, oldest first',
    tags,
    who: operator('deposits.read'),
  },
  creditLine: {
    method: 'POST',
    path: '/deposits/lines/:bank_txn_id/credit',
    params: lineParams,
    body: creditLineBody,
    answer: moneyRequestAnswer,
    summary: 'Credits an unmatched statement line to the customer with that reference: applied at once up to the threshold, above it waiting for a second operator',
    tags,
    who: operator('money.propose'),
    idempotencyKey: true,
  },
  moneyRequests: {
    method: 'GET',
    path: '/money-requests',
    query: moneyRequestQuery,
    answer: moneyRequestPage,
    summary: 'Money requests (recharges, deductions, adjustments, statement lines credited by hand), newest first, with the four-eyes threshold',
    tags,
    who: operator('money.read'),
  },
  proposeMoney: {
    method: 'POST',
    path: '/money-requests',
    body: moneyRequestBody,
    answer: moneyRequestAnswer,
    summary:
      "A recharge, deduction or adjustment of a customer's wallet: applied at once up to the merchant's threshold, above it PENDING_APPROVAL until a second operator approves; with the operator's TOTP code",
    tags,
    who: operator('money.propose'),
    idempotencyKey: true,
  },
  approveMoney: {
    method: 'POST',
    path: '/money-requests/:id/approve',
    params: idParams,
    body: approveBody,
    answer: moneyRequestAnswer,
    summary: 'A second operator approves a pending money request, which is applied at once (refused to its proposer, twice, or after 24 hours); with their TOTP code',
    tags,
    who: operator('money.approve'),
  },
  rejectMoney: {
    method: 'POST',
    path: '/money-requests/:id/reject',
    params: idParams,
    body: rejectRequestBody,
    answer: moneyRequestAnswer,
    summary: 'Rejects (or, by its proposer, withdraws) a pending money request; nothing moves',
    tags,
    who: operator('money.approve'),
  },
}) satisfies Record<string, Call>;
