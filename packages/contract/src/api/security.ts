import { z } from 'zod';
import {
  accountSession,
  changeEmailAnswer,
  changeEmailBody,
  changePasswordAnswer,
  changePasswordBody,
  changePhoneAnswer,
  changePhoneBody,
  endSessionsAnswer,
  endSessionsQuery,
  loginAttempt,
  securityOverview,
  trustedDevice,
  trxPasswordBody,
} from '../account.ts';
import { defineCalls, session } from './call.ts';

const tags = ['account security'];
const who = session();

/**
 * The security centre (/settings): the overview, the login and trade passwords, the e-mail and phone
 * changes, the trusted devices, the sessions and the sign-in history. Every call needs the full session.
 */
export const securityCalls = defineCalls({
  overview: {
    method: 'GET',
    path: '/account/security',
    answer: securityOverview,
    summary: 'The security overview: contacts, trade password set, devices, sessions, last sign-in',
    tags,
    who,
  },
  changePassword: {
    method: 'PUT',
    path: '/account/password',
    body: changePasswordBody,
    answer: changePasswordAnswer,
    summary: 'Change the login password with the old one; every other session ends',
    tags,
    who,
  },
  setTradePassword: {
    method: 'PUT',
    path: '/account/trx-password',
    body: trxPasswordBody,
    answer: z.null(),
    summary:
      'Set the first trade password with the login password (password; a wrong one counts toward the sign-in lock, 2024/2010), or change it with old_trx_password; 5 wrong trade passwords in 15 minutes lock it for 15',
    tags,
    who,
  },
  changeEmail: {
    method: 'POST',
    path: '/account/email/change',
    body: changeEmailBody,
    answer: changeEmailAnswer,
    summary: 'Change the e-mail: MARK_TYPE_CHANGE_EMAIL codes sent to the old address (old_captcha) and the new one (captcha)',
    tags,
    who,
  },
  changePhone: {
    method: 'POST',
    path: '/account/phone/change',
    body: changePhoneBody,
    answer: changePhoneAnswer,
    summary: 'Change the phone: MARK_TYPE_CHANGE_PHONE codes sent to the old phone (old_captcha) and the new one (captcha)',
    tags,
    who,
  },
  devices: {
    method: 'GET',
    path: '/account/devices',
    answer: z.array(trustedDevice),
    summary: 'Trusted devices that skip the second verification, this browser marked current',
    tags,
    who,
  },
  revokeDevice: {
    method: 'DELETE',
    path: '/account/devices/:id',
    params: z.object({ id: z.uuid({ error: '该设备不存在或已移除' }) }),
    answer: z.null(),
    summary: 'Stop trusting a device: it asks for the second verification at its next sign-in',
    tags,
    who,
  },
  sessions: {
    method: 'GET',
    path: '/account/sessions',
    answer: z.array(accountSession),
    summary: 'The live sessions of the account, this one marked current',
    tags,
    who,
  },
  endSession: {
    method: 'DELETE',
    path: '/account/sessions/:id',
    params: z.object({ id: z.uuid({ error: '该登录会话不存在或已结束' }) }),
    answer: z.null(),
    summary: 'End one session; its open tabs log out at once',
    tags,
    who,
  },
  endOtherSessions: {
    method: 'DELETE',
    path: '/account/sessions',
    query: endSessionsQuery,
    answer: endSessionsAnswer,
    summary: 'End every other session (others=true); their open tabs log out at once',
    tags,
    who,
  },
  loginHistory: {
    method: 'GET',
    path: '/account/login-history',
    answer: z.array(loginAttempt),
    summary: 'The newest 50 sign-in attempts of the account',
    tags,
    who,
  },
});
