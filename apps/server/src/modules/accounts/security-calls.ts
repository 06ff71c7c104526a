import type { SendCodeAnswer, SendCodeAutoBody, SendCodeBody } from '@portal/contract/account';
import type { Tx } from '../../db/engine.ts';
import type { Caller } from '../../http/caller.ts';
import type { MerchantRow } from '../merchants/service.ts';
import type { Authenticated } from '../sessions/service.ts';

/** The resets of a forgotten password, as the account is told of them. */
export type ResetChange = 'LOGIN_PASSWORD_RESET_BY_PHONE' | 'LOGIN_PASSWORD_RESET_BY_EMAIL' | 'TRX_PASSWORD_RESET';

/**
 * What the account's own flows take of the security centre, handed in where the service is built:
 * telling the account of a reset (a station message in the reset's transaction, the e-mails to send
 * after it commits), and the codes of an e-mail or phone change, asked for through the same calls as
 * every other code.
 */
export interface SecurityCalls {
  tell: (tx: Tx, merchant: MerchantRow, who: { accountId: string; memberId: string }, change: ResetChange, mailTo: (string | null)[], caller: Caller) => Promise<() => Promise<void>>;
  sendChangeCode: (merchant: MerchantRow, body: SendCodeBody, caller: Caller, auth: Authenticated) => Promise<SendCodeAnswer>;
  sendCurrentAddressCode: (merchant: MerchantRow, auth: Authenticated, body: SendCodeAutoBody, caller: Caller) => Promise<SendCodeAnswer>;
}
