import type { SendCodeAnswer } from '@portal/contract/account';
import type { SendType } from '@portal/contract/enums';
import { useMutation } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';

/**
 * POST /api/v1/account/send/code-auto: an access code (MARK_TYPE_ACCESS) to the account's own phone
 * or e-mail, before a card's number is shown. (The sign-in's second verification sends the same
 * call from the auth feature, without the query library.)
 */
export const sendAccessCode = (sendType: SendType) =>
  http.post<SendCodeAnswer>('/api/v1/account/send/code-auto', { send_type: sendType, mark_type: 'MARK_TYPE_ACCESS' });

export const useSendAccessCode = () => useMutation({ mutationFn: sendAccessCode });
