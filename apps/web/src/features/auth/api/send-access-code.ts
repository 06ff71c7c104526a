import type { SendCodeAnswer } from '@portal/contract/account';
import type { SendType } from '@portal/contract/enums';
import { http } from '../../../lib/http.ts';
import { useRequest } from '../../../lib/use-request.ts';

/** POST /api/v1/account/send/code-auto: a code to the signed-in account's own phone or e-mail. */
export const sendAccessCode = (sendType: SendType) =>
  http.post<SendCodeAnswer>('/api/v1/account/send/code-auto', { send_type: sendType, mark_type: 'MARK_TYPE_ACCESS' });

/** Used from the sign-in screen, which works without the query cache (see useRequest). */
export const useSendAccessCode = () => useRequest(sendAccessCode);
