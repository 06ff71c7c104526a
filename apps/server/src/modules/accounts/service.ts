import type { Config } from '../../config.ts';
import type { Db } from '../../db/engine.ts';
import { type KeptAnswer, tradePasswordHook } from '../../http/trade-password-hook.ts';
import type { Clock } from '../../lib/clock.ts';
import type { MailSender } from '../../providers/mail/port.ts';
import type { SmsSender } from '../../providers/sms/port.ts';
import type { CodeService } from '../codes/service.ts';
import type { ManagerService } from '../managers/service.ts';
import type { MerchantService } from '../merchants/service.ts';
import type { MessageService } from '../messages/service.ts';
import type { Authenticated, SessionService } from '../sessions/service.ts';
import { codeDelivery } from './code-delivery.ts';
import { createRecoveryPart } from './recovery.ts';
import { createSecurityPart } from './security.ts';
import { securityTeller } from './security-notice.ts';
import { createSignInPart } from './sign-in.ts';
import { type AccountRow, bindRequestKey, findRequestKey } from './store.ts';
import { createTradePasswordPart } from './trade-password.ts';
import { createVerificationCodePart } from './verification-codes.ts';

export type { Caller } from '../../http/caller.ts';
export { DEVICE_TRUST_MS } from './sign-in.ts';
export type { KeptAnswer };

export interface AccountServiceDeps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'production' | 'port'>;
  codes: CodeService;
  sessions: SessionService;
  managers: ManagerService;
  merchants: Pick<MerchantService, 'mailLinkOrigin'>;
  /** security changes are told to the account as station messages */
  messages: Pick<MessageService, 'post'>;
  sms: SmsSender;
  mail: MailSender;
  /** the key codes and tickets are hashed with (CODE_HASH_KEY) */
  codeHashKey: () => string;
}

/**
 * The customer's own account: sign-up and sign-in (sign-in.ts), the codes it asks for
 * (verification-codes.ts), a forgotten password (recovery.ts), the trade password (trade-password.ts)
 * and the security centre (security.ts), each told to the account when it changes its security.
 */
export function createAccountService(deps: AccountServiceDeps) {
  const { db, clock, codes, sessions } = deps;
  const tell = securityTeller({ clock, messages: deps.messages, mail: deps.mail });
  const sendTo = codeDelivery({ codes, sms: deps.sms, mail: deps.mail });
  const security = createSecurityPart({ db, clock, codes, sessions, managers: deps.managers, tell, sendTo });
  const tradePassword = createTradePasswordPart({ db, clock, confirmLoginPassword: security.confirmLoginPassword, tell });
  const checks = {
    confirm: tradePassword.confirmTradePassword,
    boundCall: (accountId: string, key: string) => findRequestKey(db, accountId, key),
    bindCall: (accountId: string, call: { key: string; operation: string; requestHash: string }) =>
      bindRequestKey(db, { accountId, ...call, createdAt: clock.now() }),
  };

  return {
    ...security,
    ...tradePassword,
    ...createSignInPart({ db, clock, codes, sessions, managers: deps.managers, codeHashKey: deps.codeHashKey }),
    ...createVerificationCodePart({ db, codes, sendTo, security }),
    ...createRecoveryPart({ ...deps, sendTo, tell }),

    /** A preHandler confirming the trade password before a call that moves money (http/trade-password-hook.ts). */
    tradePasswordHook: (when?: (body: unknown) => boolean, options?: { answered?: KeptAnswer }) => tradePasswordHook(checks, when, options),

    /** GET /account/info: who the signed-in account is, and whether it has a trade password. */
    async info({ account }: Authenticated) {
      return { id: account.id, email: account.email, phone: account.phone, phone_prefix: account.phonePrefix, trx_password_set: account.trxPasswordSet };
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;

export type { AccountRow };
