import { accountCalls } from '@portal/contract/api/account';
import { API_BASE } from '@portal/contract/api/call';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { ok } from '../../http/envelope.ts';
import { registerCall } from '../../http/register-call.ts';
import { DEVICE_COOKIE, callerOf } from '../../http/caller.ts';
import { type AccountService, DEVICE_TRUST_MS } from './service.ts';
import { sessionOf } from '../../http/principal.ts';

// the account calls' paths, and only theirs
const COOKIE_PATH = `${API_BASE}/account`;

function setDeviceCookie(request: FastifyRequest, reply: FastifyReply, secret: string) {
  const secure = request.protocol === 'https' ? '; Secure' : '';
  reply.header(
    'set-cookie',
    `${DEVICE_COOKIE}=${secret}; Path=${COOKIE_PATH}; Max-Age=${Math.floor(DEVICE_TRUST_MS / 1000)}; HttpOnly; SameSite=Strict${secure}`,
  );
}

export const accountRoutes: FastifyPluginAsync<{ accounts: AccountService }> = async (app, { accounts }) => {
  registerCall(app, accountCalls.login, async (request) => ok(await accounts.login(request.merchant, request.body, callerOf(request))));

  registerCall(app, accountCalls.logout, async (request) => {
    await accounts.logout(sessionOf(request));
    return ok(null);
  });

  registerCall(app, accountCalls.sendCode, async (request) => {
    // the session is read only when the code is for the signed-in account
    const principal = () => app.principals.session(request);
    return ok(await accounts.sendCode(request.merchant, request.body, callerOf(request), principal));
  });

  registerCall(app, accountCalls.sendCodeAuto, async (request) =>
    ok(await accounts.sendAccessCode(request.merchant, sessionOf(request), request.body, callerOf(request))),
  );

  registerCall(app, accountCalls.checkLoginCode, async (request, reply) => {
    const result = await accounts.checkAccessCode(request.merchant, sessionOf(request), request.body, callerOf(request));
    if (result.deviceSecret) setDeviceCookie(request, reply, result.deviceSecret);
    return ok({ token: result.token, email: result.email });
  });

  registerCall(app, accountCalls.register, async (request) => ok(await accounts.register(request.merchant, request.body, callerOf(request))));

  registerCall(app, accountCalls.bindEmail, async (request) => ok(await accounts.bindEmail(request.merchant, sessionOf(request), request.body)));

  registerCall(app, accountCalls.forgetPasswordCode, async (request) => ok(await accounts.forgetCode(request.merchant, request.body, callerOf(request))));

  registerCall(app, accountCalls.forgetPasswordCheck, async (request) => ok(await accounts.forgetCheck(request.merchant, request.body)));

  registerCall(app, accountCalls.forgetPassword, async (request) => {
    await accounts.forgetPassword(request.merchant, request.body, callerOf(request));
    return ok(null);
  });

  registerCall(app, accountCalls.resetLink, async (request) => ok(await accounts.resetLink(request.merchant, request.body)));

  registerCall(app, accountCalls.forgetTradePassword, async (request) => {
    await accounts.forgetTrxPassword(request.merchant, request.body, callerOf(request));
    return ok(null);
  });

  registerCall(app, accountCalls.info, async (request) => ok(await accounts.info(sessionOf(request))));
};
