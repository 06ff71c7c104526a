import type { SessionStage } from '@portal/contract/enums';
import { Principals } from './http/principal.ts';
import type { Authenticated, SessionService } from './modules/sessions/service.ts';

/** A signed-in session: its account, and the session itself (its stage, its id for the event streams it holds). */
export type SessionPrincipal = { kind: 'session' } & Authenticated;

declare module './http/principal.ts' {
  interface PrincipalKinds {
    session: SessionPrincipal;
  }
}

/** The app's principals: today a session, found by its bearer token. */
export const appPrincipals = (sessions: Pick<SessionService, 'authenticate'>) =>
  new Principals({
    async session(merchantId, token) {
      const found = await sessions.authenticate(merchantId, token);
      return { principal: { kind: 'session', ...found }, stage: found.session.stage as SessionStage };
    },
  });
