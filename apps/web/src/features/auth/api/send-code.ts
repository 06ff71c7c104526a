import type { SendCodeAnswer } from '@portal/contract/account';
import type { PhoneInfo } from '@portal/contract/validation';
import { useMutation } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';

/** The codes POST /account/send/code sends from the account screens: sign-up by SMS, e-mail binding by mail. */
export type SendCodeBody =
  | { send_type: 'SEND_TYPE_PHONE'; mark_type: 'MARK_TYPE_REGISTER'; phone_info: PhoneInfo }
  | { send_type: 'SEND_TYPE_EMAIL'; mark_type: 'MARK_TYPE_BIND_EMAIL'; email: string };

/** POST /api/v1/account/send/code. Binding an e-mail needs the sign-up token, which the HTTP module sends. */
export const sendCode = (body: SendCodeBody) => http.post<SendCodeAnswer>('/api/v1/account/send/code', body);

export const useSendCode = () => useMutation({ mutationFn: sendCode });
