// Generated from packages/contract/src/api/console.ts by apps/console/scripts/generate-calls.ts: do not edit.
import type { consoleCalls } from '@portal/contract/api/console';

export const CONSOLE_API_BASE = '/api/console/v1';

/** Each console call’s method and path (below CONSOLE_API_BASE). */
export const consoleCallRefs = {
  merchant: { method: 'GET', path: '/merchant' },
  login: { method: 'POST', path: '/auth/login' },
  totp: { method: 'POST', path: '/auth/totp' },
  logout: { method: 'POST', path: '/auth/logout' },
  me: { method: 'GET', path: '/me' },
  overview: { method: 'GET', path: '/overview' },
  audit: { method: 'GET', path: '/audit' },
  exportAudit: { method: 'GET', path: '/audit/export', raw: 'file' },
  operators: { method: 'GET', path: '/operators' },
  products: { method: 'GET', path: '/products' },
  changeProduct: { method: 'PUT', path: '/products/:id' },
  agreements: { method: 'GET', path: '/agreements' },
  publishAgreement: { method: 'POST', path: '/agreements' },
  announcements: { method: 'GET', path: '/announcements' },
  publishAnnouncement: { method: 'POST', path: '/announcements' },
  deposits: { method: 'GET', path: '/deposits' },
  depositReceipt: { method: 'GET', path: '/deposits/receipts/:id', raw: 'file' },
  confirmDeposit: { method: 'POST', path: '/deposits/:id/confirm' },
  rejectDeposit: { method: 'POST', path: '/deposits/:id/reject' },
  importStatement: { method: 'POST', path: '/deposits/statements' },
  unmatchedLines: { method: 'GET', path: '/deposits/lines' },
  creditLine: { method: 'POST', path: '/deposits/lines/:bank_txn_id/credit' },
  moneyRequests: { method: 'GET', path: '/money-requests' },
  proposeMoney: { method: 'POST', path: '/money-requests' },
  approveMoney: { method: 'POST', path: '/money-requests/:id/approve' },
  rejectMoney: { method: 'POST', path: '/money-requests/:id/reject' },
  customers: { method: 'GET', path: '/customers' },
  customer: { method: 'GET', path: '/customers/:id' },
  messageCustomer: { method: 'POST', path: '/customers/:id/messages' },
  customerWalletStatus: { method: 'PUT', path: '/customers/:id/wallet-status' },
  cardStatus: { method: 'PUT', path: '/cards/:id/status' },
  cards: { method: 'GET', path: '/cards' },
  transactions: { method: 'GET', path: '/transactions' },
} as const satisfies Record<keyof typeof consoleCalls, { method: string; path: string; raw?: string }>;
