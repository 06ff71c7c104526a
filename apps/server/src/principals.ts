import type { SessionStage } from '@portal/contract/enums';
import { Principals } from './http/principal.ts';
import type { OperatorRole } from '@portal/contract/console';
import type { OperatorService, SignedInOperator } from './modules/operators/service.ts';
import type { ApiKeyService, KeyCaller } from './modules/api-keys/service.ts';
import type { Authenticated, SessionService } from './modules/sessions/service.ts';

/** A signed-in session: its account, and the session itself (its stage, its id for the event streams it holds). */
export type SessionPrincipal = { kind: 'session' } & Authenticated;

/** An API key: the member it acts as, their account, and the key with its scopes. */
export type KeyPrincipal = { kind: 'key' } & KeyCaller;

/** A console operator signed in: who they are (their merchant, role) and the session their token opened. */
export type ConsoleOperatorPrincipal = { kind: 'operator' } & SignedInOperator;

declare module './http/principal.ts' {
  interface PrincipalKinds {
    session: SessionPrincipal;
    key: KeyPrincipal;
  }
  interface OperatorKinds {
    operator: ConsoleOperatorPrincipal;
  }
}

/** The app's principals: a session, found by its bearer token, an API key (`sk_…`), or a console operator (`op_…`). */
export const appPrincipals = (sessions: Pick<SessionService, 'authenticate'>, keys: Pick<ApiKeyService, 'authenticate'>, operators: Pick<OperatorService, 'authenticate'>) =>
  new Principals({
    async session(merchantId, token) {
      const found = await sessions.authenticate(merchantId, token);
      return { principal: { kind: 'session', ...found }, stage: found.session.stage as SessionStage };
    },
    async key(merchantId, token, ip) {
      const found = await keys.authenticate(merchantId, token, ip);
      return { principal: { kind: 'key', ...found }, scopes: found.key.scopes };
    },
    async operator(merchantId, token) {
      const { operator, session, stage } = await operators.authenticate(merchantId, token);
      return { principal: { kind: 'operator', operator, session }, stage, role: operator.role as OperatorRole };
    },
  });
