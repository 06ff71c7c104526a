import { call } from '../../../lib/api-client.ts';
import * as accountCalls from '../../../lib/generated/account-calls.ts';

export interface ResetLinkBody {
  email: string;
  captcha: string;
  type: 'FORGET_PASSWORD' | 'FORGET_TRX_PASSWORD';
}

/**
 * POST /account/forget-password/link: whether the e-mailed link still works, asked when it is
 * opened (it does not use the code up). A used or expired link is refused with a code's refusal.
 */
export const checkResetLink = (body: ResetLinkBody) => call(accountCalls.resetLink, { body });
