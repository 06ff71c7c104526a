import {
  accountInfo,
  bindEmailAnswer,
  bindEmailBody,
  codeCheckAnswer,
  codeCheckBody,
  forgetCheckAnswer,
  forgetCheckBody,
  forgetCodeBody,
  forgetPasswordBody,
  forgetTrxPasswordBody,
  resetLinkAnswer,
  resetLinkBody,
  loginAnswer,
  loginBody,
  registerBody,
  sendCodeAnswer,
  sendCodeAutoBody,
  sendCodeBody,
  tokenAnswer,
} from '@portal/contract/account';
import { envelope } from '@portal/contract/envelope';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../http/envelope.ts';
import { bearerToken, type SessionService } from '../sessions/service.ts';
import { type AccountService, type Caller, DEVICE_TRUST_MS } from './service.ts';

/** The trusted-device secret travels in an HttpOnly cookie that only the account calls receive. */
const DEVICE_COOKIE = 'portal_device';
const COOKIE_PATH = '/api/v1/account';

function readCookie(request: FastifyRequest, name: string) {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return undefined;
}

function setDeviceCookie(request: FastifyRequest, reply: FastifyReply, secret: string) {
  const secure = request.protocol === 'https' ? '; Secure' : '';
  reply.header(
    'set-cookie',
    `${DEVICE_COOKIE}=${secret}; Path=${COOKIE_PATH}; Max-Age=${Math.floor(DEVICE_TRUST_MS / 1000)}; HttpOnly; SameSite=Strict${secure}`,
  );
}

export const callerOf = (request: FastifyRequest): Caller => ({
  ip: request.ip,
  userAgent: String(request.headers['user-agent'] ?? ''),
  log: request.log,
  deviceSecret: readCookie(request, DEVICE_COOKIE),
});

const empty = envelope(z.null());
const tags = ['account'];

export const accountRoutes: FastifyPluginAsyncZod<{ accounts: AccountService; sessions: SessionService }> = async (app, { accounts, sessions }) => {
  const full = sessions.guard();
  const anyStage = sessions.guard(['VERIFY', 'BIND_EMAIL', 'FULL']);
  const verifying = sessions.guard(['VERIFY']);
  const bindingEmail = sessions.guard(['BIND_EMAIL', 'FULL']);
  const security = [{ bearer: [] }];

  app.post(
    '/account/login',
    { schema: { tags, summary: 'Password sign-in by phone or e-mail', body: loginBody, response: { 200: envelope(loginAnswer) } } },
    async (request) => ok(await accounts.login(request.merchant, request.body, callerOf(request))),
  );

  app.delete(
    '/account/login',
    { onRequest: anyStage, schema: { tags, summary: 'Log out: the session ends at once', security, response: { 200: empty } } },
    async (request) => {
      await accounts.logout(request.auth);
      return ok(null);
    },
  );

  app.post(
    '/account/send/code',
    {
      schema: {
        tags,
        summary: 'Send a code: sign-up (phone), binding an e-mail, or access to the own phone/e-mail',
        body: sendCodeBody,
        response: { 200: envelope(sendCodeAnswer) },
      },
    },
    async (request) => {
      const auth = () =>
        sessions.authenticate(request.merchant.id, bearerToken(request.headers.authorization)).then(
          (found) => {
            request.auth = found;
            return found;
          },
        );
      return ok(await accounts.sendCode(request.merchant, request.body, callerOf(request), auth));
    },
  );

  app.post(
    '/account/send/code-auto',
    {
      onRequest: sessions.guard(['VERIFY', 'FULL']),
      schema: {
        tags,
        summary: "Send a code to the signed-in account's own phone or e-mail: an access code, or the current address's code of an e-mail or phone change",
        security,
        body: sendCodeAutoBody,
        response: { 200: envelope(sendCodeAnswer) },
      },
    },
    async (request) => ok(await accounts.sendAccessCode(request.merchant, request.auth, request.body, callerOf(request))),
  );

  app.post(
    '/account/login/code/check',
    {
      onRequest: verifying,
      schema: {
        tags,
        summary: 'Second verification; thirty_day trusts this device for 30 days',
        security,
        body: codeCheckBody,
        response: { 200: envelope(codeCheckAnswer) },
      },
    },
    async (request, reply) => {
      const result = await accounts.checkAccessCode(request.merchant, request.auth, request.body, callerOf(request));
      if (result.deviceSecret) setDeviceCookie(request, reply, result.deviceSecret);
      return ok({ token: result.token, email: result.email });
    },
  );

  app.post(
    '/account/register',
    { schema: { tags, summary: 'Sign up with a phone and its SMS code', body: registerBody, response: { 200: envelope(tokenAnswer) } } },
    async (request) => ok(await accounts.register(request.merchant, request.body, callerOf(request))),
  );

  app.post(
    '/account/email/bind',
    {
      onRequest: bindingEmail,
      schema: { tags, summary: 'Bind an e-mail with its code', security, body: bindEmailBody, response: { 200: envelope(bindEmailAnswer) } },
    },
    async (request) => ok(await accounts.bindEmail(request.merchant, request.auth, request.body)),
  );

  app.post(
    '/account/forget-password/code',
    {
      schema: {
        tags,
        summary: 'Password recovery: an SMS code, or a reset link by e-mail',
        body: forgetCodeBody,
        response: { 200: envelope(sendCodeAnswer) },
      },
    },
    async (request) => ok(await accounts.forgetCode(request.merchant, request.body, callerOf(request))),
  );

  app.post(
    '/account/forget-password/check',
    {
      schema: {
        tags,
        summary: 'Check the recovery SMS code; answers a single-use ticket for the reset',
        body: forgetCheckBody,
        response: { 200: envelope(forgetCheckAnswer) },
      },
    },
    async (request) => ok(await accounts.forgetCheck(request.merchant, request.body)),
  );

  app.put(
    '/account/forget-password',
    {
      schema: {
        tags,
        summary: 'Set a new password (phone_info + ticket, or email + captcha); every session ends',
        body: forgetPasswordBody,
        response: { 200: empty },
      },
    },
    async (request) => {
      await accounts.forgetPassword(request.merchant, request.body, callerOf(request));
      return ok(null);
    },
  );

  app.post(
    '/account/forget-password/link',
    {
      schema: {
        tags,
        summary: 'Whether an e-mailed reset link still works (checked on opening it; the code stays good)',
        body: resetLinkBody,
        response: { 200: envelope(resetLinkAnswer) },
      },
    },
    async (request) => ok(await accounts.resetLink(request.merchant, request.body)),
  );

  app.put(
    '/account/forget-trx-password',
    {
      schema: { tags, summary: 'Set a new trade password with the e-mail code', body: forgetTrxPasswordBody, response: { 200: empty } },
    },
    async (request) => {
      await accounts.forgetTrxPassword(request.merchant, request.body, callerOf(request));
      return ok(null);
    },
  );

  app.get(
    '/account/info',
    { onRequest: full, schema: { tags, summary: 'The signed-in account, and whether it has a trade password', security, response: { 200: envelope(accountInfo) } } },
    async (request) => ok(await accounts.info(request.auth)),
  );
};
