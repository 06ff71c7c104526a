import type { Config } from '../../config.ts';
import type { Db } from '../../db/engine.ts';
import type { Clock } from '../../lib/clock.ts';
import type { MailSender } from '../../providers/mail/port.ts';
import type { SmsSender } from '../../providers/sms/port.ts';
import type { CodeService } from '../codes/service.ts';
import type { ManagerService } from '../managers/service.ts';
import type { MerchantService } from '../merchants/service.ts';
import type { Authenticated, SessionService } from '../sessions/service.ts';
import { codeDelivery } from './code-delivery.ts';
import type { InvitationCalls } from './invitation-calls.ts';
import { createRecoveryPart } from './recovery.ts';
import type { SecurityCalls } from './security-calls.ts';
import { createSignInPart } from './sign-in.ts';
import type { MemberRow } from './store.ts';
import { createVerificationCodePart } from './verification-codes.ts';

export { DEVICE_TRUST_MS } from './sign-in.ts';
export type { SecurityCalls } from './security-calls.ts';

export interface AccountServiceDeps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'production' | 'port'>;
  codes: CodeService;
  sessions: SessionService;
  managers: ManagerService;
  merchants: Pick<MerchantService, 'mailLinkOrigin'>;
  /** the team's invitations a sign-up may carry */
  invitations: InvitationCalls;
  /** the security centre's: telling the account of a reset, and the codes of an address change */
  security: SecurityCalls;
  sms: SmsSender;
  mail: MailSender;
  /** the key codes and tickets are hashed with (CODE_HASH_KEY) */
  codeHashKey: () => string;
}

/**
 * The customer's own account: sign-up and sign-in (sign-in.ts), the codes it asks for
 * (verification-codes.ts) and a forgotten password (recovery.ts), told to the account through the
 * security centre when a reset changes its security.
 */
export function createAccountService(deps: AccountServiceDeps) {
  const { db, clock, codes, sessions } = deps;
  const sendTo = codeDelivery({ codes, sms: deps.sms, mail: deps.mail });

  return {
    ...createSignInPart({ db, clock, codes, sessions, managers: deps.managers, invitations: deps.invitations, codeHashKey: deps.codeHashKey }),
    ...createVerificationCodePart({ db, codes, sendTo, security: deps.security }),
    ...createRecoveryPart({ ...deps, sendTo, tell: deps.security.tell }),

    /** GET /account/info: who the signed-in member is, for which account, in what role, and whether they have a trade password. */
    async info({ account, member }: Authenticated) {
      return {
        id: account.id,
        email: member.email,
        phone: member.phone,
        phone_prefix: member.phonePrefix,
        trx_password_set: member.trxPasswordSet,
        member_id: member.id,
        role: member.role,
        account_name: account.name,
      };
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;

export type { MemberRow };
