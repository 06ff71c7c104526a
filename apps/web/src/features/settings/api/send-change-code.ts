import type { SendCodeAnswer } from '@portal/contract/account';
import type { PhoneInfo } from '@portal/contract/validation';
import { useMutation } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';

/**
 * The new address's code of an e-mail or phone change (the current address's is asked for without
 * naming it: send-current-address-code.ts).
 */
export type SendChangeCodeBody =
  | { send_type: 'SEND_TYPE_EMAIL'; mark_type: 'MARK_TYPE_CHANGE_EMAIL'; email: string }
  | { send_type: 'SEND_TYPE_PHONE'; mark_type: 'MARK_TYPE_CHANGE_PHONE'; phone_info: PhoneInfo };

/** POST /api/v1/account/send/code with MARK_TYPE_CHANGE_EMAIL or MARK_TYPE_CHANGE_PHONE. */
export const sendChangeCode = (body: SendChangeCodeBody) => http.post<SendCodeAnswer>('/api/v1/account/send/code', body);

export const useSendChangeCode = () => useMutation({ mutationFn: sendChangeCode });
