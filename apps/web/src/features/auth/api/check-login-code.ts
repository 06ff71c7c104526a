import type { SendType } from '@portal/contract/enums';
import { call } from '../../../lib/api-client.ts';
import * as accountCalls from '../../../lib/generated/account-calls.ts';
import { useRequest } from '../../../lib/use-request.ts';

export interface CheckLoginCodeBody {
  captcha: string;
  /** trust this device for 30 days */
  thirty_day: boolean;
  send_type: SendType;
}

/** POST /account/login/code/check: the second verification of a sign-in (spec §4). */
export const checkLoginCode = (body: CheckLoginCodeBody) => call(accountCalls.checkLoginCode, { body });

/** Used from the sign-in screen, which works without the query cache (see useRequest). */
export const useCheckLoginCode = () => useRequest(checkLoginCode);
