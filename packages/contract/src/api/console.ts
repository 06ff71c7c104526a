import {
  auditExportQuery,
  auditOperatorList,
  auditPage,
  auditQuery,
  consoleLoginAnswer,
  consoleLoginBody,
  consoleMeAnswer,
  consoleMerchantAnswer,
  consoleOverviewAnswer,
  consoleTotpAnswer,
  consoleTotpBody,
  operatorActionBody,
  operatorCreateBody,
  operatorList,
  operatorPasswordAnswer,
  operatorPasswordBody,
  operatorView,
} from '../console.ts';
import { z } from 'zod';
import { type Call, defineCalls, PUBLIC } from './call.ts';
import { consoleAdminCalls } from './console-admin.ts';
import { consoleCustomerCalls } from './console-customers.ts';
import { consoleMoneyCalls } from './console-money.ts';
import { operator, operatorSession } from './console-who.ts';

export { operator, operatorSession } from './console-who.ts';

/** Every console call's path is below this one (not API_BASE: the console's calls are none of the portal's). */
export const CONSOLE_API_BASE = '/api/console/v1';

const tags = ['console'];

/** The merchant's console: its operators' sign-in, the overview, the audit log and the operators. */
export const consoleCalls = defineCalls({
  merchant: {
    method: 'GET',
    path: '/merchant',
    answer: consoleMerchantAnswer,
    summary: 'The branding of the merchant whose console this host serves',
    tags,
    who: PUBLIC,
  },
  login: {
    method: 'POST',
    path: '/auth/login',
    body: consoleLoginBody,
    answer: consoleLoginAnswer,
    summary:
      'An operator signs in with e-mail and password (and the TOTP code, when given and enrolled); until a code is given the token can only enrol an authenticator (totp_enrolment) or give a code',
    tags,
    who: PUBLIC,
  },
  totp: {
    method: 'POST',
    path: '/auth/totp',
    body: consoleTotpBody,
    answer: consoleTotpAnswer,
    summary: 'The TOTP code (or, once enrolled, a recovery code) that completes the sign-in; at enrolment the recovery codes are answered this once',
    tags,
    who: operatorSession('ENROL', 'VERIFY'),
  },
  logout: {
    method: 'POST',
    path: '/auth/logout',
    answer: z.null(),
    summary: "Ends the operator's session",
    tags,
    who: operatorSession('ENROL', 'VERIFY', 'FULL'),
  },
  me: {
    method: 'GET',
    path: '/me',
    answer: consoleMeAnswer,
    summary: 'The signed-in operator, what their role may do, and how many recovery codes are left',
    tags,
    who: operatorSession('FULL'),
  },
  overview: {
    method: 'GET',
    path: '/overview',
    answer: consoleOverviewAnswer,
    summary: "Money held by the merchant's customers per currency, cards by status, spend and declines today (China time), jobs running and failed",
    tags,
    who: operator('overview.read'),
  },
  audit: {
    method: 'GET',
    path: '/audit',
    query: auditQuery,
    answer: auditPage,
    summary: 'The audit log of every operator action (console and command line), newest first',
    tags,
    who: operator('audit.read'),
  },
  exportAudit: {
    method: 'GET',
    path: '/audit/export',
    query: auditExportQuery,
    raw: 'file',
    summary: 'The audit log with the same filters as a CSV file (UTF-8, at most 10,000 rows, newest first); the export is itself audit-logged',
    tags,
    who: operator('audit.read'),
  },
  auditOperators: {
    method: 'GET',
    path: '/audit/operators',
    answer: auditOperatorList,
    summary: "The merchant's operators by e-mail and name, for the audit log's filter",
    tags,
    who: operator('audit.read'),
  },
  operators: {
    method: 'GET',
    path: '/operators',
    answer: operatorList,
    summary: "The merchant's operators",
    tags,
    who: operator('operators.read'),
  },
  createOperator: {
    method: 'POST',
    path: '/operators',
    body: operatorCreateBody,
    answer: operatorPasswordAnswer,
    summary: "An ADMIN adds an operator, giving their own authenticator code; the new operator's password is answered this once",
    tags,
    who: operator('operators.write'),
  },
  disableOperator: {
    method: 'POST',
    path: '/operators/:id/disable',
    params: z.object({ id: z.string().uuid('操作员不存在') }),
    body: operatorActionBody,
    answer: operatorView,
    summary: 'An ADMIN disables another operator (their sessions end at once), giving their own authenticator code',
    tags,
    who: operator('operators.write'),
  },
  resetOperator: {
    method: 'POST',
    path: '/operators/:id/reset',
    params: z.object({ id: z.string().uuid('操作员不存在') }),
    body: operatorActionBody,
    answer: operatorPasswordAnswer,
    summary: "An ADMIN resets another operator: a new password answered this once, the authenticator and recovery codes cleared, every session ended",
    tags,
    who: operator('operators.write'),
  },
  changePassword: {
    method: 'PUT',
    path: '/auth/password',
    body: operatorPasswordBody,
    answer: z.null(),
    summary: "The operator's own password, with the current one and the authenticator's code; their other sessions end",
    tags,
    who: operatorSession('FULL'),
  },
  ...consoleAdminCalls,
  ...consoleMoneyCalls,
  ...consoleCustomerCalls,
}) satisfies Record<string, Call>;

/** The call's full path below CONSOLE_API_BASE. */
export const consoleCallPath = (call: Pick<Call, 'path'>) => `${CONSOLE_API_BASE}${call.path}`;
