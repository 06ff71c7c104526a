import type { TokenAnswer } from '@portal/contract/account';
import { useMutation } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';

export interface RegisterBody {
  phone_prefix: string;
  phone: string;
  password: string;
  captcha: string;
  /** null when none was given */
  invitation_code: string | null;
}

/** POST /api/v1/account/register: the answer's token can only bind an e-mail (or log out). */
export const register = (body: RegisterBody) => http.post<TokenAnswer>('/api/v1/account/register', body);

export const useRegister = () => useMutation({ mutationFn: register });
