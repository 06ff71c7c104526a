import type { ResetLinkAnswer } from '@portal/contract/account';
import { http } from '../../../lib/http.ts';

export interface ResetLinkBody {
  email: string;
  captcha: string;
  type: 'FORGET_PASSWORD' | 'FORGET_TRX_PASSWORD';
}

/**
 * POST /api/v1/account/forget-password/link: whether the e-mailed link still works, asked when it is
 * opened (it does not use the code up). A used or expired link is refused with a code's refusal.
 */
export const checkResetLink = (body: ResetLinkBody) => http.post<ResetLinkAnswer>('/api/v1/account/forget-password/link', body);
