import type { BindEmailAnswer } from '@portal/contract/account';
import { useMutation } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';

export interface BindEmailBody {
  email: string;
  captcha: string;
}

/** POST /api/v1/account/email/bind: with a token in the answer the account is fully signed in (spec §4). */
export const bindEmail = (body: BindEmailBody) => http.post<BindEmailAnswer>('/api/v1/account/email/bind', body);

export const useBindEmail = () => useMutation({ mutationFn: bindEmail });
