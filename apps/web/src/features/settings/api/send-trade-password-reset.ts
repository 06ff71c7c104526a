import type { SendCodeAnswer } from '@portal/contract/account';
import { useMutation } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';

/**
 * POST /api/v1/account/forget-password/code with type FORGET_TRX_PASSWORD: the e-mailed link to
 * /reset-password (重置交易密码), as the recovery screens send it, to the account's own e-mail.
 */
export const sendTradePasswordReset = (email: string) =>
  http.post<SendCodeAnswer>('/api/v1/account/forget-password/code', { email, type: 'FORGET_TRX_PASSWORD' });

export const useSendTradePasswordReset = () => useMutation({ mutationFn: sendTradePasswordReset });
