import { useMutation } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import * as accountCalls from '../../../lib/generated/account-calls.ts';

export interface BindEmailBody {
  email: string;
  captcha: string;
}

/** POST /account/email/bind: with a token in the answer the account is fully signed in (spec §4). */
export const bindEmail = (body: BindEmailBody) => call(accountCalls.bindEmail, { body });

export const useBindEmail = () => useMutation({ mutationFn: bindEmail });
