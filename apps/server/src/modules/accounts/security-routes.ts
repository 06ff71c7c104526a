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
  /** A call of the full session: what it does, the data of its answer, and its body, params or query if any. */
  const call = <Data extends z.ZodType, Input extends object = object>(summary: string, data: Data, input = {} as Input) => ({
    onRequest: full,
    schema: { tags, summary, security, ...input, response: { 200: envelope(data) } },
  });

  app.get('/account/security', call('The security overview: contacts, trade password set, devices, sessions, last sign-in', securityOverview), async (request) =>
    ok(await accounts.overview(request.auth)),
  );

  app.put(
    '/account/password',
    call('Change the login password with the old one; every other session ends', changePasswordAnswer, { body: changePasswordBody }),
    async (request) => ok(await accounts.changePassword(request.merchant, request.auth, request.body, callerOf(request))),
  );

  app.put(
    '/account/trx-password',
    call('Set the first trade password with the login password (password; a wrong one counts toward the sign-in lock, 2024/2010), or change it with old_trx_password; 5 wrong trade passwords in 15 minutes lock it for 15', z.null(), { body: trxPasswordBody }),
    async (request) => {
      await accounts.setTradePassword(request.merchant, request.auth, request.body, callerOf(request));
      return ok(null);
    },
  );

  app.post(
    '/account/email/change',
    call('Change the e-mail: MARK_TYPE_CHANGE_EMAIL codes sent to the old address (old_captcha) and the new one (captcha)', changeEmailAnswer, { body: changeEmailBody }),
    async (request) => ok(await accounts.changeEmail(request.merchant, request.auth, request.body, callerOf(request))),
  );

  app.post(
    '/account/phone/change',
    call('Change the phone: MARK_TYPE_CHANGE_PHONE codes sent to the old phone (old_captcha) and the new one (captcha)', changePhoneAnswer, { body: changePhoneBody }),
    async (request) => ok(await accounts.changePhone(request.merchant, request.auth, request.body, callerOf(request))),
  );

  app.get(
    '/account/devices',
    call('Trusted devices that skip the second verification, this browser marked current', z.array(trustedDevice)),
    // this browser's device secret comes in its cookie
    async (request) => ok(await accounts.devices(request.auth, callerOf(request).deviceSecret)),
  );

  app.delete(
    '/account/devices/:id',
    call('Stop trusting a device: it asks for the second verification at its next sign-in', z.null(), {
      params: z.object({ id: z.uuid({ error: '该设备不存在或已移除' }) }),
    }),
    async (request) => {
      await accounts.revokeDevice(request.merchant, request.auth, request.params.id, callerOf(request));
      return ok(null);
    },
  );

  app.get('/account/sessions', call('The live sessions of the account, this one marked current', z.array(accountSession)), async (request) =>
    ok(await accounts.sessionList(request.auth)),
  );

  app.delete(
    '/account/sessions/:id',
    call('End one session; its open tabs log out at once', z.null(), { params: z.object({ id: z.uuid({ error: '该登录会话不存在或已结束' }) }) }),
    async (request) => {
      await accounts.endSession(request.merchant, request.auth, request.params.id, callerOf(request));
      return ok(null);
    },
  );

  app.delete(
    '/account/sessions',
    call('End every other session (others=true); their open tabs log out at once', endSessionsAnswer, { querystring: endSessionsQuery }),
    async (request) => ok(await accounts.endOtherSessions(request.merchant, request.auth, callerOf(request))),
  );

  app.get('/account/login-history', call('The newest 50 sign-in attempts of the account', z.array(loginAttempt)), async (request) =>
    ok(await accounts.loginHistory(request.auth)),
  );
};
