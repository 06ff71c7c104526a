import type { SendCodeAnswer } from '@portal/contract/account';
import { useMutation } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';

/** The current address's code of a change: by e-mail for the e-mail, by phone for the phone. */
export type CurrentAddressCodeBody =
  | { send_type: 'SEND_TYPE_EMAIL'; mark_type: 'MARK_TYPE_CHANGE_EMAIL' }
  | { send_type: 'SEND_TYPE_PHONE'; mark_type: 'MARK_TYPE_CHANGE_PHONE' };

/**
 * POST /api/v1/account/send/code-auto with MARK_TYPE_CHANGE_EMAIL or MARK_TYPE_CHANGE_PHONE: the code of
 * an e-mail or phone change to the account's current address, which the server picks (a screen's copy
 * of it may be out of date).
 */
export const sendCurrentAddressCode = (body: CurrentAddressCodeBody) => http.post<SendCodeAnswer>('/api/v1/account/send/code-auto', body);

export const useSendCurrentAddressCode = () => useMutation({ mutationFn: sendCurrentAddressCode });
