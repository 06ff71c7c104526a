import { securityCalls } from '@portal/contract/api/security';
import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../http/envelope.ts';
import { registerCall } from '../../http/register-call.ts';
import { callerOf } from '../../http/caller.ts';
import type { AccountService } from './service.ts';

/**
 * The security centre's calls (/settings): the overview, the login and trade passwords, the e-mail
 * and phone changes, the trusted devices, the sessions and the sign-in history. Every call needs the
 * full session.
 */
export const accountSecurityRoutes: FastifyPluginAsync<{ accounts: AccountService }> = async (app, { accounts }) => {
  registerCall(app, securityCalls.overview, async (request) => ok(await accounts.overview(request.principal)));

  registerCall(app, securityCalls.changePassword, async (request) =>
    ok(await accounts.changePassword(request.merchant, request.principal, request.body, callerOf(request))),
  );

  registerCall(app, securityCalls.setTradePassword, async (request) => {
    await accounts.setTradePassword(request.merchant, request.principal, request.body, callerOf(request));
    return ok(null);
  });

  registerCall(app, securityCalls.changeEmail, async (request) =>
    ok(await accounts.changeEmail(request.merchant, request.principal, request.body, callerOf(request))),
  );

  registerCall(app, securityCalls.changePhone, async (request) =>
    ok(await accounts.changePhone(request.merchant, request.principal, request.body, callerOf(request))),
  );

  // this browser's device secret comes in its cookie
  registerCall(app, securityCalls.devices, async (request) => ok(await accounts.devices(request.principal, callerOf(request).deviceSecret)));

  registerCall(app, securityCalls.revokeDevice, async (request) => {
    await accounts.revokeDevice(request.merchant, request.principal, request.params.id, callerOf(request));
    return ok(null);
  });

  registerCall(app, securityCalls.sessions, async (request) => ok(await accounts.sessionList(request.principal)));

  registerCall(app, securityCalls.endSession, async (request) => {
    await accounts.endSession(request.merchant, request.principal, request.params.id, callerOf(request));
    return ok(null);
  });

  registerCall(app, securityCalls.endOtherSessions, async (request) =>
    ok(await accounts.endOtherSessions(request.merchant, request.principal, callerOf(request))),
  );

  registerCall(app, securityCalls.loginHistory, async (request) => ok(await accounts.loginHistory(request.principal)));
};
