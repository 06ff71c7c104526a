import type { PhoneInfo } from '@portal/contract/validation';
import { useMutation } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import * as accountCalls from '../../../lib/generated/account-calls.ts';

/**
 * The codes POST /account/send/code sends to an address the screen names: sign-up by SMS, e-mail
 * binding by mail, and the new address's code of an e-mail or phone change (the current address's is
 * asked for without naming it: send-code-auto.ts).
 */
export type SendCodeBody =
  | { send_type: 'SEND_TYPE_PHONE'; mark_type: 'MARK_TYPE_REGISTER'; phone_info: PhoneInfo }
  | { send_type: 'SEND_TYPE_EMAIL'; mark_type: 'MARK_TYPE_BIND_EMAIL'; email: string }
  | { send_type: 'SEND_TYPE_EMAIL'; mark_type: 'MARK_TYPE_CHANGE_EMAIL'; email: string }
  | { send_type: 'SEND_TYPE_PHONE'; mark_type: 'MARK_TYPE_CHANGE_PHONE'; phone_info: PhoneInfo };

/** The new address's code of an e-mail or phone change. */
export type SendChangeCodeBody = Extract<SendCodeBody, { mark_type: 'MARK_TYPE_CHANGE_EMAIL' | 'MARK_TYPE_CHANGE_PHONE' }>;

/** Binding an e-mail needs the sign-up token, which the HTTP module sends. */
export const sendCode = (body: SendCodeBody) => call(accountCalls.sendCode, { body });

export const useSendCode = () => useMutation({ mutationFn: sendCode });
