import type { SessionStage } from '@portal/contract/enums';
import { Principals } from './http/principal.ts';
import type { ApiKeyService, KeyCaller } from './modules/api-keys/service.ts';
import type { Authenticated, SessionService } from './modules/sessions/service.ts';

/** A signed-in session: its account, and the session itself (its stage, its id for the event streams it holds). */
export type SessionPrincipal = { kind: 'session' } & Authenticated;

/** An API key: the member it acts as, their account, and the key with its scopes. */
export type KeyPrincipal = { kind: 'key' } & KeyCaller;

declare module './http/principal.ts' {
  interface PrincipalKinds {
    session: SessionPrincipal;
    key: KeyPrincipal;
  }
}

/** The app's principals: a session, found by its bearer token, or an API key (`sk_…`). */
export const appPrincipals = (sessions: Pick<SessionService, 'authenticate'>, keys: Pick<ApiKeyService, 'authenticate'>) =>
  new Principals({
    async session(merchantId, token) {
      const found = await sessions.authenticate(merchantId, token);
      return { principal: { kind: 'session', ...found }, stage: found.session.stage as SessionStage };
    },
    async key(merchantId, token, ip) {
      const found = await keys.authenticate(merchantId, token, ip);
      return { principal: { kind: 'key', ...found }, scopes: found.key.scopes };
    },
  });
