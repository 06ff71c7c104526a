import {
  consoleCardPage,
  consoleCardParams,
  consoleCardQuery,
  consoleCardStatusBody,
  consoleTransactionPage,
  consoleTransactionQuery,
  consoleWalletStatusAnswer,
  consoleWalletStatusBody,
  customerDetail,
  customerMessageAnswer,
  customerMessageBody,
  customerPage,
  customerParams,
  customerSearchQuery,
} from '../console-customers.ts';
import { cardItem } from '../cards.ts';
import type { ConsoleAction } from '../console.ts';
import { type Call, defineCalls, type OperatorCaller } from './call.ts';

// (console.ts's `operator`, written here again: that file spreads these calls into its table)
const operator = (action: ConsoleAction): OperatorCaller => ({ operator: ['FULL'], action });
const tags = ['console'];

/** The console's customers: the search, one customer, acting on their cards and wallet, and the cards and transactions across customers. */
export const consoleCustomerCalls = defineCalls({
  customers: {
    method: 'GET',
    path: '/customers',
    query: customerSearchQuery,
    answer: customerPage,
    summary: "The merchant's customers found by the start of a phone number, an e-mail, the verified real name or the deposit reference; every customer without a keyword; newest first",
    tags,
    who: operator('customers.read'),
  },
  customer: {
    method: 'GET',
    path: '/customers/:id',
    params: customerParams,
    answer: customerDetail,
    summary: 'One customer: wallet (balances, status, recent movements), cards, members, verification, sign-ins, deposits and messages',
    tags,
    who: operator('customers.read'),
  },
  messageCustomer: {
    method: 'POST',
    path: '/customers/:id/messages',
    params: customerParams,
    body: customerMessageBody,
    answer: customerMessageAnswer,
    summary: "A station message to the customer's account (audit-logged)",
    tags,
    who: operator('customers.message'),
  },
  customerWalletStatus: {
    method: 'PUT',
    path: '/customers/:id/wallet-status',
    params: customerParams,
    body: consoleWalletStatusBody,
    answer: consoleWalletStatusAnswer,
    summary: "Freezes the customer's wallet with a reason they read (no money leaves it), or lifts the freeze; the operator's TOTP code again",
    tags,
    who: operator('customers.freeze'),
  },
  cardStatus: {
    method: 'PUT',
    path: '/cards/:id/status',
    params: consoleCardParams,
    body: consoleCardStatusBody,
    answer: cardItem,
    summary: 'Freezes a card with a reason its holder reads (frozen_by OPERATOR; the holder cannot lift it), or lifts that freeze; the operator\u2019s TOTP code again',
    tags,
    who: operator('customers.freeze'),
  },
  cards: {
    method: 'GET',
    path: '/cards',
    query: consoleCardQuery,
    answer: consoleCardPage,
    summary: "Every customer's cards with the portal's filters (status, product, keyword: nickname, last 4, BIN) and the customer; newest first; never a full card number",
    tags,
    who: operator('customers.read'),
  },
  transactions: {
    method: 'GET',
    path: '/transactions',
    query: consoleTransactionQuery,
    answer: consoleTransactionPage,
    summary: "Every customer's card transactions with the portal's filters (status, type, from/to, card, merchant, category) and the customer; newest first",
    tags,
    who: operator('customers.read'),
  },
}) satisfies Record<string, Call>;
