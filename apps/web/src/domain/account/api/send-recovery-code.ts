import type { ResetType } from '@portal/contract/enums';
import type { PhoneInfo } from '@portal/contract/validation';
import { useMutation } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import * as accountCalls from '../../../lib/generated/account-calls.ts';

/** An SMS code to a phone, or a reset link to an e-mail (for the login or the trade password). */
export type RecoveryCodeBody = { phone_info: PhoneInfo } | { email: string; type?: ResetType };

/**
 * POST /account/forget-password/code: from the recovery screens, and from /settings the link to
 * /reset-password (重置交易密码) to the account's own e-mail, as the recovery screens send it.
 */
export const sendRecoveryCode = (body: RecoveryCodeBody) => call(accountCalls.forgetPasswordCode, { body });

export const useSendRecoveryCode = () => useMutation({ mutationFn: sendRecoveryCode });

export const useSendTradePasswordReset = () =>
  useMutation({ mutationFn: (email: string) => sendRecoveryCode({ email, type: 'FORGET_TRX_PASSWORD' }) });
