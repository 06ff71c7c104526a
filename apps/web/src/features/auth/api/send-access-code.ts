import type { SendType } from '@portal/contract/enums';
import { http } from '../../../lib/http.ts';
import { useRequest } from '../../../lib/use-request.ts';

export interface SentCode {
  /** seconds until another code may be asked for */
  resend_after: number;
  /** where it went, masked: "+86 138****8000" or "a***@b.com" */
  masked_target: string;
}

/** POST /api/v1/account/send/code-auto: a code to the signed-in account's own phone or e-mail. */
export const sendAccessCode = (sendType: SendType) =>
  http.post<SentCode>('/api/v1/account/send/code-auto', { send_type: sendType, mark_type: 'MARK_TYPE_ACCESS' });

/** Used from the sign-in screen, which works without the query cache (see useRequest). */
export const useSendAccessCode = () => useRequest(sendAccessCode);
