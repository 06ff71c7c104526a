import type { PhoneInfo } from '@portal/contract/validation';
import { call } from '../../../lib/api-client.ts';
import * as accountCalls from '../../../lib/generated/account-calls.ts';
import { useRequest } from '../../../lib/use-request.ts';

/** POST /account/login: a password with a mainland phone or an e-mail (spec §7). */
export type LoginBody =
  | { phone_info: PhoneInfo; password: string }
  | { email: string; password: string };

export const login = (body: LoginBody) => call(accountCalls.login, { body });

/** The sign-in screen's call; see useRequest for why it is not a useMutation. */
export const useLogin = () => useRequest(login);
