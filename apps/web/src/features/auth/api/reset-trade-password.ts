import { useMutation } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';

export interface ResetTradePasswordBody {
  email: string;
  trx_password: string;
  captcha: string;
}

/** PUT /api/v1/account/forget-trx-password: a new trade password with the code of the e-mailed link. */
export const resetTradePassword = (body: ResetTradePasswordBody) => http.put<null>('/api/v1/account/forget-trx-password', body);

export const useResetTradePassword = () => useMutation({ mutationFn: resetTradePassword });
