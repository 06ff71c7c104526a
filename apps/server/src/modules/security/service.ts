import type { Db } from '../../db/engine.ts';
import { type KeptAnswer, tradePasswordHook } from '../../http/trade-password-hook.ts';
import type { Clock } from '../../lib/clock.ts';
import type { MailSender } from '../../providers/mail/port.ts';
import type { AccountCredentials } from '../accounts/credentials-service.ts';
import type { CodeService } from '../codes/service.ts';
import type { ManagerService } from '../managers/service.ts';
import type { MessageService } from '../messages/service.ts';
import type { SessionService } from '../sessions/service.ts';
import { createSecurityPart } from './security.ts';
import { securityTeller } from './security-notice.ts';
import { bindRequestKey, findRequestKey } from './store.ts';
import { createTradePasswordPart } from './trade-password.ts';

export type { KeptAnswer };

export interface SecurityServiceDeps {
  db: Db;
  clock: Clock;
  codes: CodeService;
  sessions: SessionService;
  managers: Pick<ManagerService, 'findById'>;
  /** security changes are told to the account as station messages */
  messages: Pick<MessageService, 'post'>;
  mail: MailSender;
  credentials: AccountCredentials;
}

/**
 * The security centre of the signed-in account (security.ts), the trade password that guards money
 * leaving it (trade-password.ts), and how the account is told of each change (security-notice.ts).
 */
export function createSecurityService(deps: SecurityServiceDeps) {
  const { db, clock, credentials } = deps;
  const tell = securityTeller({ clock, messages: deps.messages, mail: deps.mail });
  const security = createSecurityPart({ db, clock, codes: deps.codes, sessions: deps.sessions, managers: deps.managers, tell, credentials });
  const tradePassword = createTradePasswordPart({ db, clock, credentials, tell });
  const checks = {
    confirm: tradePassword.confirmTradePassword,
    boundCall: (accountId: string, key: string) => findRequestKey(db, accountId, key),
    bindCall: (accountId: string, call: { key: string; operation: string; requestHash: string }) =>
      bindRequestKey(db, { accountId, ...call, createdAt: clock.now() }),
  };

  return {
    ...security,
    ...tradePassword,
    /** Posts a change's station message in its transaction; answers the sending of its e-mails, for after the commit. */
    tell,

    /** A preHandler confirming the trade password before a call that moves money (http/trade-password-hook.ts). */
    tradePasswordHook: (when?: (body: unknown) => boolean, options?: { answered?: KeptAnswer; required?: boolean }) => tradePasswordHook(checks, when, options),
  };
}

export type SecurityService = ReturnType<typeof createSecurityService>;
