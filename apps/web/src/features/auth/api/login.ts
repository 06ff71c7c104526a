import type { LoginAnswer } from '@portal/contract/account';
import { http } from '../../../lib/http.ts';
import { useRequest } from '../../../lib/use-request.ts';

/** POST /api/v1/account/login: a password with a mainland phone or an e-mail (spec §7). */
export type LoginBody =
  | { phone_info: { phone: string; phone_prefix: string }; password: string }
  | { email: string; password: string };

export const login = (body: LoginBody) => http.post<LoginAnswer>('/api/v1/account/login', body);

/** The sign-in screen's call; see useRequest for why it is not a useMutation. */
export const useLogin = () => useRequest(login);
