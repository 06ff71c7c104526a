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
} from '@portal/contract/account';
import { envelope } from '@portal/contract/envelope';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../http/envelope.ts';
import type { SessionService } from '../sessions/service.ts';
import { callerOf } from './routes.ts';
import type { AccountService } from './service.ts';

const tags = ['account security'];
const security = [{ bearer: [] }];

/**
 * The security centre's calls (/settings): the overview, the login and trade passwords, the e-mail
 * and phone changes, the trusted devices, the sessions and the sign-in history. Every call needs the
 * full session.
 */
export const accountSecurityRoutes: FastifyPluginAsyncZod<{ accounts: AccountService; sessions: SessionService }> = async (app, { accounts, sessions }) => {
  const full = sessions.guard();

  app.get(
    '/account/security',
    {
      onRequest: full,
      schema: { tags, summary: 'The security overview: contacts, trade password set, devices, sessions, last sign-in', security, response: { 200: envelope(securityOverview) } },
    },
    async (request) => ok(await accounts.overview(request.auth)),
  );

  app.put(
    '/account/password',
    {
      onRequest: full,
      schema: {
        tags,
        summary: 'Change the login password with the old one; every other session ends',
        security,
        body: changePasswordBody,
        response: { 200: envelope(changePasswordAnswer) },
      },
    },
    async (request) => ok(await accounts.changePassword(request.merchant, request.auth, request.body, callerOf(request))),
  );

  app.put(
    '/account/trx-password',
    {
      onRequest: full,
      schema: {
        tags,
        summary: 'Set the trade password (the first time), or change it with old_trx_password; 5 wrong ones in 15 minutes lock it for 15',
        security,
        body: trxPasswordBody,
        response: { 200: envelope(z.null()) },
      },
    },
    async (request) => {
      await accounts.setTradePassword(request.merchant, request.auth, request.body, callerOf(request));
      return ok(null);
    },
  );

  app.post(
    '/account/email/change',
    {
      onRequest: full,
      schema: {
        tags,
        summary: 'Change the e-mail: MARK_TYPE_CHANGE_EMAIL codes sent to the old address (old_captcha) and the new one (captcha)',
        security,
        body: changeEmailBody,
        response: { 200: envelope(changeEmailAnswer) },
      },
    },
    async (request) => ok(await accounts.changeEmail(request.merchant, request.auth, request.body, callerOf(request))),
  );

  app.post(
    '/account/phone/change',
    {
      onRequest: full,
      schema: {
        tags,
        summary: 'Change the phone: MARK_TYPE_CHANGE_PHONE codes sent to the old phone (old_captcha) and the new one (captcha)',
        security,
        body: changePhoneBody,
        response: { 200: envelope(changePhoneAnswer) },
      },
    },
    async (request) => ok(await accounts.changePhone(request.merchant, request.auth, request.body, callerOf(request))),
  );

  app.get(
    '/account/devices',
    {
      onRequest: full,
      schema: { tags, summary: 'Trusted devices that skip the second verification, this browser marked current', security, response: { 200: envelope(z.array(trustedDevice)) } },
    },
    // this browser's device secret comes in its cookie
    async (request) => ok(await accounts.devices(request.auth, callerOf(request).deviceSecret)),
  );

  app.delete(
    '/account/devices/:id',
    {
      onRequest: full,
      schema: {
        tags,
        summary: 'Stop trusting a device: it asks for the second verification at its next sign-in',
        security,
        params: z.object({ id: z.uuid({ error: '该设备不存在或已移除' }) }),
        response: { 200: envelope(z.null()) },
      },
    },
    async (request) => {
      await accounts.revokeDevice(request.merchant, request.auth, request.params.id, callerOf(request));
      return ok(null);
    },
  );

  app.get(
    '/account/sessions',
    {
      onRequest: full,
      schema: { tags, summary: 'The live sessions of the account, this one marked current', security, response: { 200: envelope(z.array(accountSession)) } },
    },
    async (request) => ok(await accounts.sessionList(request.auth)),
  );

  app.delete(
    '/account/sessions/:id',
    {
      onRequest: full,
      schema: {
        tags,
        summary: 'End one session; its open tabs log out at once',
        security,
        params: z.object({ id: z.uuid({ error: '该登录会话不存在或已结束' }) }),
        response: { 200: envelope(z.null()) },
      },
    },
    async (request) => {
      await accounts.endSession(request.merchant, request.auth, request.params.id, callerOf(request));
      return ok(null);
    },
  );

  app.delete(
    '/account/sessions',
    {
      onRequest: full,
      schema: {
        tags,
        summary: 'End every other session (others=true); their open tabs log out at once',
        security,
        querystring: endSessionsQuery,
        response: { 200: envelope(endSessionsAnswer) },
      },
    },
    async (request) => ok(await accounts.endOtherSessions(request.merchant, request.auth, callerOf(request))),
  );

  app.get(
    '/account/login-history',
    {
      onRequest: full,
      schema: { tags, summary: 'The newest 50 sign-in attempts of the account', security, response: { 200: envelope(z.array(loginAttempt)) } },
    },
    async (request) => ok(await accounts.loginHistory(request.auth)),
  );
};
