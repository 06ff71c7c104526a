import { securityCalls } from '@portal/contract/api/security';
import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../http/envelope.ts';
import { registerCall } from '../../http/register-call.ts';
import { callerOf } from '../../http/caller.ts';
import type { SecurityService } from './service.ts';
import { sessionOf } from '../../http/principal.ts';

/**
 * The security centre's calls (/settings): the overview, the login and trade passwords, the e-mail
 * and phone changes, the trusted devices, the sessions and the sign-in history. Every call needs the
 * full session.
 */
export const securityRoutes: FastifyPluginAsync<{ security: SecurityService }> = async (app, { security }) => {
  registerCall(app, securityCalls.overview, async (request) => ok(await security.overview(sessionOf(request))));

  registerCall(app, securityCalls.changePassword, async (request) =>
    ok(await security.changePassword(request.merchant, sessionOf(request), request.body, callerOf(request))),
  );

  registerCall(app, securityCalls.setTradePassword, async (request) => {
    await security.setTradePassword(request.merchant, sessionOf(request), request.body, callerOf(request));
    return ok(null);
  });

  registerCall(app, securityCalls.changeEmail, async (request) =>
    ok(await security.changeEmail(request.merchant, sessionOf(request), request.body, callerOf(request))),
  );

  registerCall(app, securityCalls.changePhone, async (request) =>
    ok(await security.changePhone(request.merchant, sessionOf(request), request.body, callerOf(request))),
  );

  // this browser's device secret comes in its cookie
  registerCall(app, securityCalls.devices, async (request) => ok(await security.devices(sessionOf(request), callerOf(request).deviceSecret)));

  registerCall(app, securityCalls.revokeDevice, async (request) => {
    await security.revokeDevice(request.merchant, sessionOf(request), request.params.id, callerOf(request));
    return ok(null);
  });

  registerCall(app, securityCalls.sessions, async (request) => ok(await security.sessionList(sessionOf(request))));

  registerCall(app, securityCalls.endSession, async (request) => {
    await security.endSession(request.merchant, sessionOf(request), request.params.id, callerOf(request));
    return ok(null);
  });

  registerCall(app, securityCalls.endOtherSessions, async (request) =>
    ok(await security.endOtherSessions(request.merchant, sessionOf(request), callerOf(request))),
  );

  registerCall(app, securityCalls.loginHistory, async (request) => ok(await security.loginHistory(sessionOf(request))));
};
