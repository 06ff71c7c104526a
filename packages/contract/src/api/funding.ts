import {
  depositInstructions,
  depositInstructionsQuery,
  depositItem,
  depositListQuery,
  depositNoticeBody,
  depositPage,
  depositReceipt,
  receiptParams,
} from '../funding.ts';
import { defineCalls, member } from './call.ts';

const tags = ['wallet'];

/**
 * 钱包充值 by bank transfer: what to transfer to and with which reference, the customer's top-up
 * notices and their receipts. Filing is for the roles that fund the wallet; reading for those that read
 * its history. The money itself moves only when the operator credits (deposit:confirm, deposit:import).
 */
export const fundingCalls = defineCalls({
  instructions: {
    method: 'GET',
    path: '/wallet/deposit-instructions',
    query: depositInstructionsQuery,
    answer: depositInstructions,
    summary:
      "The merchant's receiving bank account for the currency (null while none is set) and the account's own reference code for the transfer's memo; usdt stays null until USDT deposits exist",
    tags,
    who: member('wallet.history'),
  },
  file: {
    method: 'POST',
    path: '/wallet/deposits',
    body: depositNoticeBody,
    answer: depositItem,
    summary: 'Files a top-up notice (amount, payer, transfer time, optional receipt); it stays PENDING until the operator credits or rejects it',
    tags,
    who: member('wallet.fund'),
  },
  list: {
    method: 'GET',
    path: '/wallet/deposits',
    query: depositListQuery,
    answer: depositPage,
    summary: "The account's top-ups, newest first: notices and the statement lines credited to it, with their state",
    tags,
    who: member('wallet.history'),
  },
  uploadReceipt: {
    method: 'POST',
    path: '/wallet/deposits/receipts',
    answer: depositReceipt,
    summary:
      'Stores a receipt image sent as the raw body (Content-Type image/png, image/jpeg, image/webp or image/gif; at most 5 MB; its kind is read from its bytes) and answers its id for a notice',
    tags,
    who: member('wallet.fund'),
  },
  receipt: {
    method: 'GET',
    path: '/wallet/deposits/receipts/:id',
    params: receiptParams,
    raw: 'file',
    summary: "A receipt image of the account's own, as the raw file",
    tags,
    who: member('wallet.history'),
  },
});
